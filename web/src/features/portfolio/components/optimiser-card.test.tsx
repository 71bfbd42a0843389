import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { includesPortfolioOptimisation } from "@/features/auth/lib/plan";
import type { Optimisation } from "@/lib/api/models";
import { makeOptimisation } from "@/test/portfolio-fixtures";
import { jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
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
