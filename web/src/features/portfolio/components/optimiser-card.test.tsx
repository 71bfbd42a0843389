import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { includesPortfolioOptimisation } from "@/features/auth/lib/plan";
import { ApiError } from "@/lib/api/client";
import type { Optimisation } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { makeOrder } from "@/test/order-fixtures";
import { makeOptimisation } from "@/test/portfolio-fixtures";
import { makeTradingAccount, makeTradingAccounts } from "@/test/trading-account-fixtures";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import {
  emptyReason,
  formatChance,
  formatRange,
  groupLeftOut,
  NOTHING_WINS,
  optimality,
  OptimiserCard,
  PROPOSAL_ONLY,
} from "./optimiser-card";
import { SEND_NOTE, sendFailure, sentDescription } from "./send-proposal";

afterEach(() => vi.unstubAllGlobals());

const OPTIMISE = "/api/portfolio/optimise";

/** The <dd> shown under `label` inside `scope`. */
const fact = (scope: HTMLElement, label: string) => within(scope).getByText(label, { selector: "dt" }).closest("div")?.querySelector("dd");

/** Answers POST /api/portfolio/optimise with `answer`; anything else is a 404. */
function api(answer: () => Response | Promise<Response>) {
  return mockFetch((url, init) => (url === OPTIMISE && init.method === "POST" ? answer() : problem(404, "Not Found")));
}

async function propose() {
  await userEvent.setup().click(screen.getByRole("button", { name: "Propose positions" }));
}

describe("OptimiserCard", () => {
  it("is locked for Pro, with the way to Premium, and asks nothing of the server", () => {
    const fetch = api(() => jsonResponse(makeOptimisation()));
    renderWithProviders(<OptimiserCard unlocked={includesPortfolioOptimisation(makeUser({ subscriptionPlan: "pro" }))} />);
    const locked = screen.getByTestId("optimiser-locked");
    expect(within(locked).getByRole("heading", { level: 2, name: /Portfolio optimiser/ })).toBeInTheDocument();
    expect(locked).toHaveTextContent("The portfolio optimiser is part of Premium");
    expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
    expect(screen.queryByRole("button", { name: "Propose positions" })).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("for Premium, runs the optimiser (busy meanwhile) and shows the positions, totals, limits and left-out reasons", async () => {
    let answer: (r: Response) => void = () => {};
    const fetch = api(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<OptimiserCard unlocked={includesPortfolioOptimisation(makeUser({ subscriptionPlan: "premium" }))} />);
    const card = screen.getByRole("region", { name: "Optimise" });
    expect(within(card).getByTestId("optimiser-note")).toHaveTextContent(PROPOSAL_ONLY);
    await propose();

    const busy = screen.getByRole("button", { name: "Optimising…" });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute("aria-busy", "true");
    expect(card).toHaveAttribute("aria-busy", "true");
    expect(fetch).toHaveBeenCalledWith(OPTIMISE, expect.objectContaining({ method: "POST", body: undefined }));
    answer(jsonResponse(makeOptimisation()));

    const table = await screen.findByRole("table", { name: /Proposed positions, best expected P&L first/ });
    expect(screen.getByRole("button", { name: "Propose again" })).toHaveAttribute("aria-busy", "false");
    expect(screen.getByRole("status")).toHaveTextContent("Proposal ready: 2 signals, expected P&L +$532.50.");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Symbol", "Type", "Strike", "Expiry", "Contracts", "Premium", "Cost", "Chance", "Expected P&L", "Delta $"]);
    const rows = within(table).getAllByTestId("proposed-position");
    expect(rows).toHaveLength(2);
    const cells = (row: HTMLElement) => [...row.querySelectorAll("th, td")].map((c) => c.textContent);
    expect(cells(rows[0])).toEqual([
      "AAPLMomentum",
      "CALL",
      "$195.00",
      "Dec 18, 2026",
      "4",
      "$3.20",
      "$1,287.60",
      "60%from the model",
      "+$412.50",
      "+$38,400.25",
    ]);
    // The chance is the checked probability with its source as a small label.
    expect(within(rows[1]).getByText("56%")).toBeInTheDocument();
    expect(within(rows[1]).getByTestId("chance-source")).toHaveTextContent("track record");
    expect(within(table).getByRole("rowheader", { name: "Total" }).closest("tr")).toHaveTextContent("Total6$2,388.90+$532.50+$24,200.25");

    const totals = screen.getByTestId("optimiser-totals");
    expect(fact(totals, "Proposed")).toHaveTextContent("2 signals6 contracts");
    expect(fact(totals, "Cost")).toHaveTextContent("$2,388.90of $15,000.00 budget");
    expect(fact(totals, "Expected P&L")?.firstElementChild).toHaveClass("text-positive-strong");
    expect(fact(totals, "Net delta")).toHaveTextContent("-$1,500.00→ to +$22,700.25");
    expect(fact(totals, "Net vega")).toHaveTextContent("+$12.00→ to +$149.50per volatility point");
    expect(
      screen.getByRole("img", {
        name: /^Net delta: -\$1,500\.00 now, \+\$22,700\.25 with the proposal; the limit is ±\$50,000\.00\.$/,
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole("img", { name: /^Net vega \(per vol point\): \+\$12\.00 now, \+\$149\.50 with the proposal/ }),
    ).toBeInTheDocument();

    expect(screen.getByTestId("optimiser-optimality")).toHaveTextContent("Proven the best whole-contract choice within your limits.");

    const limits = screen.getByRole("region", { name: "Limits used" });
    expect(fact(limits, "Budget")).toHaveTextContent("$15,000.00premium left to spend");
    expect(fact(limits, "Per position")).toHaveTextContent("$5,000.00");
    expect(fact(limits, "Per symbol")).toHaveTextContent("$6,250.00");
    expect(fact(limits, "Per strategy")).toHaveTextContent("$12,500.00");
    expect(fact(limits, "Net delta")).toHaveTextContent(/^±\$50,000\.00$/);
    expect(fact(limits, "Net vega")).toHaveTextContent(/^±\$200\.00per volatility point$/);

    // The left-out signals, collapsed until opened.
    const leftOut = screen.getByTestId("optimiser-left-out");
    expect(leftOut).not.toHaveAttribute("open");
    await userEvent.setup().click(within(leftOut).getByText("1 signal left out"));
    expect(leftOut).toHaveAttribute("open");
    const reason = within(leftOut).getByTestId("left-out-reason");
    expect(reason).toHaveTextContent(
      /^No checked chance yet: the model did not score it and its strategy's track record is under the minimum sample\.TSLA$/,
    );
  });

  it("names a custom strategy's proposal by the user's strategy, as the signals do", async () => {
    const custom = makeOptimisation().positions[0];
    const optimisation = makeOptimisation({
      positions: [
        { ...custom, strategy: "Custom", customStrategyId: "s-1" },
        { ...custom, signalId: "x-2", strategy: "Custom" },
      ],
    });
    mockFetch((url, init) => {
      if (url === OPTIMISE && init.method === "POST") return jsonResponse(optimisation);
      if (url === "/api/strategies/custom") return jsonResponse([{ id: "s-1", name: "Dip buyer" }]);
      return problem(404, "Not Found");
    });
    renderWithProviders(<OptimiserCard unlocked />);
    await propose();
    const rows = await screen.findAllByTestId("proposed-position");
    await waitFor(() => expect(rows[0]).toHaveTextContent("Dip buyer"));
    expect(rows[1]).toHaveTextContent("Custom");
  });

  it("says why nothing is proposed, with the limits still shown", async () => {
    api(() =>
      jsonResponse(
        makeOptimisation({
          positions: [],
          leftOut: [],
          candidates: 3,
          cost: 0,
          expectedPnl: 0,
          deltaAfter: -1_500,
          vegaAfter: 12,
        }),
      ),
    );
    renderWithProviders(<OptimiserCard unlocked />);
    await propose();
    const empty = await screen.findByTestId("optimiser-empty");
    expect(empty).toHaveTextContent(NOTHING_WINS);
    expect(empty).toHaveTextContent("3 signals with a checked chance were weighed.");
    expect(screen.getByRole("status")).toHaveTextContent("Proposal ready: nothing to propose.");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.queryByTestId("optimiser-totals")).not.toBeInTheDocument();
    expect(screen.queryByTestId("optimiser-left-out")).not.toBeInTheDocument();
    expect(fact(screen.getByRole("region", { name: "Limits used" }), "Budget")).toHaveTextContent("$15,000.00");
    expect(screen.getByTestId("optimiser-note")).toHaveTextContent(PROPOSAL_ONLY);
  });

  it("toasts the server's reason for a 429 and keeps the last proposal", async () => {
    let calls = 0;
    api(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(makeOptimisation())
        : problem(429, "Too Many Requests", "Too many optimisations. Try again in 12 minute(s).");
    });
    renderWithProviders(<OptimiserCard unlocked />);
    await propose();
    await screen.findByRole("table");
    await userEvent.setup().click(screen.getByRole("button", { name: "Propose again" }));
    expect(await screen.findByText("Optimisation failed", { selector: '[data-slot="toast-title"]' })).toBeInTheDocument();
    expect(
      screen.getByText("Too many optimisations. Try again in 12 minute(s).", { selector: '[data-slot="toast-description"]' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Propose again" })).toBeEnabled());
    expect(screen.getAllByTestId("proposed-position")).toHaveLength(2);
  });
});

const SEND = "/api/orders/proposal";
const ACCOUNTS = makeTradingAccounts([makeTradingAccount({ name: "Income IRA", current: true })]);

/** The optimiser's proposal, the accounts, and POST /api/orders/proposal answered by `answer`; anything else is a 404. */
function sendApi(answer: () => Response | Promise<Response>, optimisation: Optimisation = makeOptimisation()) {
  return mockFetch((url, init) => {
    if (url === OPTIMISE && init.method === "POST") return jsonResponse(optimisation);
    if (url === SEND && init.method === "POST") return answer();
    if (url === "/api/accounts") return jsonResponse(ACCOUNTS);
    return problem(404, "Not Found");
  });
}

/** Opens "Send as orders" and answers the confirmation with "Send orders": the dialog, sending. */
async function send(user = userEvent.setup()) {
  await user.click(await screen.findByRole("button", { name: "Send as orders" }));
  const dialog = await screen.findByRole("alertdialog", { name: "Send the proposal as orders?" });
  await user.click(within(dialog).getByRole("button", { name: "Send orders" }));
  return dialog;
}

async function proposeAndSend() {
  await propose();
  return send();
}

const toastTitle = (text: string) => screen.findByText(text, { selector: '[data-slot="toast-title"]' });
const toastDescription = (text: string) => screen.getByText(text, { selector: '[data-slot="toast-description"]' });

describe("OptimiserCard › Send as orders", () => {
  it("asks first with what goes, then sends exactly the proposal's signals and contracts (busy meanwhile), and says how many were placed", async () => {
    const optimisation = makeOptimisation();
    let answer: (r: Response) => void = () => {};
    const fetch = sendApi(() => new Promise<Response>((resolve) => (answer = resolve)), optimisation);
    const { queryClient } = renderWithProviders(<OptimiserCard unlocked />);
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const user = userEvent.setup();
    await propose();

    const trigger = await screen.findByRole("button", { name: "Send as orders" });
    await user.click(trigger);
    const dialog = await screen.findByRole("alertdialog", { name: "Send the proposal as orders?" });
    expect(dialog).toHaveAccessibleDescription(SEND_NOTE);
    const summary = within(dialog).getByTestId("send-summary");
    expect(fact(summary, "Positions")).toHaveTextContent("2 positions6 contracts");
    expect(fact(summary, "Total cost")).toHaveTextContent("$2,388.90");
    expect(await within(summary).findByText("Income IRA")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalledWith(SEND, expect.anything());

    // "Keep proposal" closes it, sending nothing, and gives the focus back to the button.
    await user.click(within(dialog).getByRole("button", { name: "Keep proposal" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
    expect(fetch).not.toHaveBeenCalledWith(SEND, expect.anything());

    const sending = await send(user);
    const busy = within(sending).getByRole("button", { name: "Sending…" });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute("aria-busy", "true");
    expect(within(sending).getByRole("button", { name: "Keep proposal" })).toBeDisabled();
    expect(bodyOf(fetch, SEND)).toEqual({
      positions: [
        { signalId: optimisation.positions[0].signalId, contracts: 4 },
        { signalId: optimisation.positions[1].signalId, contracts: 2 },
      ],
    });
    answer(jsonResponse({ orders: [makeOrder(), makeOrder()], placed: 2 }));

    expect(await toastTitle("Orders Sent")).toBeInTheDocument();
    expect(toastDescription("2 orders placed and filled.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(screen.getByTestId("optimiser-sent")).toHaveTextContent("Sent as orders");
    for (const queryKey of [queryKeys.orders(), queryKeys.portfolio.positions(), queryKeys.portfolio.metrics()]) {
      expect(invalidate).toHaveBeenCalledWith({ queryKey });
    }
  });

  it("says when a signal was ordered already and not placed again", async () => {
    sendApi(() => jsonResponse({ orders: [makeOrder(), makeOrder()], placed: 1 }));
    renderWithProviders(<OptimiserCard unlocked />);
    await proposeAndSend();
    expect(await toastTitle("Orders Sent")).toBeInTheDocument();
    expect(toastDescription("1 order placed; 1 was already ordered.")).toBeInTheDocument();
  });

  it("toasts the server's reason for a 409 (a kill switch) and keeps the proposal", async () => {
    const halted = "Orders are stopped for this account: a kill switch is on. Turn it off to send orders.";
    sendApi(() => problem(409, "Already taken", halted, [{ field: "positions", message: halted }]));
    renderWithProviders(<OptimiserCard unlocked />);
    await proposeAndSend();
    expect(await toastTitle("Orders Not Sent")).toBeInTheDocument();
    expect(toastDescription(halted)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(screen.getAllByTestId("proposed-position")).toHaveLength(2);
    expect(screen.queryByTestId("optimiser-sent")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send as orders" })).toBeEnabled();
  });

  it("toasts a 422's first field error, naming the position's symbol", async () => {
    sendApi(() =>
      problem(422, "Invalid request", "Some fields are invalid.", [
        { field: "positions[1].contracts", message: "Send 1 to 10000 contracts." },
        { field: "positions[0].signalId", message: "Not an active signal you can trade." },
      ]),
    );
    renderWithProviders(<OptimiserCard unlocked />);
    await proposeAndSend();
    expect(await toastTitle("Orders Not Sent")).toBeInTheDocument();
    expect(toastDescription("NVDA: Send 1 to 10000 contracts.")).toBeInTheDocument();
  });

  it("offers no send for an empty proposal, nor before one", async () => {
    const fetch = sendApi(() => jsonResponse({ orders: [], placed: 0 }), makeOptimisation({ positions: [], cost: 0, expectedPnl: 0 }));
    renderWithProviders(<OptimiserCard unlocked />);
    expect(screen.queryByRole("button", { name: "Send as orders" })).not.toBeInTheDocument();
    await propose();
    await screen.findByTestId("optimiser-empty");
    expect(screen.queryByRole("button", { name: "Send as orders" })).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalledWith(SEND, expect.anything());
  });
});

describe("sentDescription", () => {
  const filled = () => makeOrder();
  it("counts the orders placed, and those ordered already", () => {
    expect(sentDescription({ orders: [filled(), filled(), filled()], placed: 3 }, 3)).toBe("3 orders placed and filled.");
    expect(sentDescription({ orders: [filled()], placed: 1 }, 1)).toBe("1 order placed and filled.");
    expect(sentDescription({ orders: [filled(), filled(), filled()], placed: 2 }, 3)).toBe("2 orders placed; 1 was already ordered.");
    expect(sentDescription({ orders: [filled(), filled()], placed: 0 }, 2)).toBe("Nothing placed: all 2 were already ordered.");
    expect(sentDescription({ orders: [makeOrder({ status: "rejected" })], placed: 1 }, 1)).toBe(
      "1 order placed. See Orders for how each filled.",
    );
  });
});

describe("sendFailure", () => {
  const positions = makeOptimisation().positions;
  const refusal = (status: number, detail: string, errors: { field: string; message: string }[] = []) =>
    new ApiError(status, `${status}`, { type: "about:blank", title: "Refused", status, detail, errors });
  it("names the position a 422 refuses, else gives the server's detail", () => {
    expect(
      sendFailure(refusal(422, "x", [{ field: "positions[0].signalId", message: "Not an active signal you can trade." }]), positions),
    ).toBe("AAPL: Not an active signal you can trade.");
    expect(sendFailure(refusal(422, "x", [{ field: "positions", message: "Send 1 to 50 positions." }]), positions)).toBe(
      "Send 1 to 50 positions.",
    );
    expect(sendFailure(refusal(429, "Too many sends. Try again in 5 minute(s)."), positions)).toBe(
      "Too many sends. Try again in 5 minute(s).",
    );
    expect(sendFailure(new Error("offline"), positions)).toBe("Failed to send the orders. Please try again.");
  });
});

describe("emptyReason", () => {
  const base = makeOptimisation({ positions: [] });
  const with_ = (o: Partial<Optimisation>) => emptyReason({ ...base, ...o });

  it("names why from the counts", () => {
    expect(with_({ candidates: 0, leftOut: [] })).toBe("Nothing to propose: there is no active signal you can see right now.");
    expect(with_({ candidates: 0 })).toBe("Nothing to propose: none of the 1 signal you can see could be weighed; why is listed below.");
    expect(with_({ limits: { ...base.limits, budget: 0 } })).toMatch(/already use the premium budget/);
    expect(with_({})).toBe(NOTHING_WINS);
  });
});

describe("optimality", () => {
  it("says a proposal is proven, or how far below the best one found within the step budget can be", () => {
    expect(optimality({ provenOptimal: true, expectedPnl: 532.5, expectedPnlBound: 532.5 })).toBe(
      "Proven the best whole-contract choice within your limits.",
    );
    expect(optimality({ provenOptimal: false, expectedPnl: 500, expectedPnlBound: 504.25 })).toBe(
      "The best found within the search's step budget: at most $4.25 of expected P&L below the best possible (no choice can exceed +$504.25).",
    );
  });
});

describe("groupLeftOut", () => {
  it("groups the signals by reason, each symbol once with its count", () => {
    const item = (symbol: string, reason: string, n: number) => ({ signalId: `id-${n}`, symbol, reason });
    expect(groupLeftOut([item("NKE", "A", 1), item("HD", "A", 2), item("BA", "B", 3), item("NKE", "A", 4)])).toEqual([
      {
        reason: "A",
        symbols: [
          { symbol: "NKE", count: 2 },
          { symbol: "HD", count: 1 },
        ],
      },
      { reason: "B", symbols: [{ symbol: "BA", count: 1 }] },
    ]);
  });
});

describe("formatRange", () => {
  it("writes a symmetric bound with ±, a widened one as low to high", () => {
    expect(formatRange([-500, 500])).toBe("±$500.00");
    expect(formatRange([-500, 800])).toBe("-$500.00 to +$800.00");
  });
});

describe("formatChance", () => {
  it("shows a probability as a whole percentage", () => {
    expect(formatChance(0.6)).toBe("60%");
    expect(formatChance(0.5634)).toBe("56%");
    expect(formatChance(1)).toBe("100%");
  });
});
