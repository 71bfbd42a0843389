import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal, SignalAnalysis } from "@/lib/api/models";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeAnalysis, makeCustomStrategy, makeDecileRecord, makeSignal, makeStockPrice } from "@/test/fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { decodeState } from "@/features/strategy-builder/lib/builder";
import { builderLinkForSignal } from "../lib/builder-link";
import { SignalDetailDialog } from "./signal-detail-dialog";

afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

function api(post: () => Response = () => jsonResponse({ id: "m1" }, 201), analysis: SignalAnalysis = makeAnalysis()) {
  return mockFetch((url, init) => {
    if (url === "/api/manual-positions" && init.method === "POST") return post();
    if (url.endsWith("/analysis")) return jsonResponse(analysis);
    return jsonResponse([]);
  });
}

function renderDialog(signal: Signal) {
  return renderWithProviders(<SignalDetailDialog signal={signal} open onOpenChange={() => {}} />);
}

describe("SignalDetailDialog: facts", () => {
  it("shows the signal's strength as a score out of 100, not a confidence percentage", async () => {
    api();
    renderDialog(makeSignal({ confidence: 74 }));
    expect(await screen.findByText("Strength")).toBeInTheDocument();
    expect(screen.getByText("74/100")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Strength 74 out of 100" })).toBeInTheDocument();
    expect(screen.queryByText("Confidence")).not.toBeInTheDocument();
    expect(screen.queryByText("74%")).not.toBeInTheDocument();
  });
});

describe("SignalDetailDialog: a custom strategy's signal", () => {
  const fact = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
  const mine = makeCustomStrategy({ active: true });

  function customApi() {
    return mockFetch((url, init) => {
      if (url === "/api/strategies/custom") return jsonResponse([mine]);
      if (url === "/api/manual-positions" && init.method === "POST") return jsonResponse({ id: "m1" }, 201);
      if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
      return jsonResponse([]);
    });
  }

  it("names the user's strategy that issued it, and says so in the position it adds", async () => {
    const fetchMock = customApi();
    renderDialog(makeSignal({ strategy: "Custom", customStrategyId: mine.id, confidence: 58 }));
    await waitFor(() => expect(fact("Strategy")).toHaveTextContent("Oversold bounce"));
    expect(fact("Strategy")).toHaveTextContent("Your custom strategy");
    await userEvent.setup().click(screen.getByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(fetchMock, "/api/manual-positions")).toMatchObject({
      reasoning: "Custom strategy “Oversold bounce” signal, strength 58/100",
    });
  });

  it("says 'Custom' once its strategy is deleted, asking nothing for its name", async () => {
    const fetchMock = customApi();
    renderDialog(makeSignal({ strategy: "Custom", customStrategyId: null }));
    expect(await screen.findByText("Strategy", { selector: "dt" })).toBeInTheDocument();
    expect(fact("Strategy")).toHaveTextContent(/^CustomYour custom strategy, since deleted$/);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === "/api/strategies/custom")).toBe(false);
  });

  it("says a signal closed at its rule's time limit", async () => {
    customApi();
    renderDialog(
      makeSignal({
        strategy: "Custom",
        customStrategyId: mine.id,
        status: "closed",
        isActive: false,
        closeReason: "time",
        closedAt: "2026-12-02T21:05:00Z",
      }),
    );
    expect(await screen.findByText("Time limit reached")).toBeInTheDocument();
  });
});

describe("SignalDetailDialog: currencies", () => {
  const fact = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;

  it("keeps the contract's prices in US dollars and shows money in euros", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    api();
    renderDialog(makeSignal());
    expect(await screen.findByText("Strike Price")).toBeInTheDocument();
    expect(fact("Strike Price")).toHaveTextContent(/^US\$250\.00$/);
    expect(fact("Current Price")).toHaveTextContent(/^US\$248\.10$/);
    expect(fact("Price Change")).toHaveTextContent("+US$1.92 (+0.8%)");
    expect(fact("Entry Price")).toHaveTextContent(/^US\$3\.20$/);
    expect(fact("Option Price")).toHaveTextContent(/^US\$3\.65$/);
    expect(fact("Target (option)")).toHaveTextContent(/^US\$4\.80$/);
    expect(fact("Stop Loss (option)")).toHaveTextContent(/^US\$1\.60$/);
    expect(fact("Underlying at Entry")).toHaveTextContent(/^US\$245\.30$/);
    // P&L per contract is money: converted.
    expect(fact("P&L per contract")).toHaveTextContent(/^\+€41\.40$/);
    // The risk figures: losses and gains are money, the expected move and breakeven are prices.
    expect(await screen.findByText("Max Loss", { selector: "dt" })).toBeInTheDocument();
    expect(fact("Max Loss")).toHaveTextContent(/^€294\.40$/);
    expect(fact("Expected Move")).toHaveTextContent(/^±US\$11\.85$/);
    expect(fact("Breakeven")).toHaveTextContent(/^US\$253\.20$/);
    expect(screen.getByRole("img", { name: /^Price chart: .* strike US\$250\.00/ })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: /^Payoff chart: .* Breakeven at US\$253\.20\.$/ })).toBeInTheDocument();
    // No strike or premium in euros anywhere.
    expect(screen.getByTestId("signal-detail")).not.toHaveTextContent("€230.00");
  });

  it("shows plain dollars while money is shown in dollars", async () => {
    api();
    renderDialog(makeSignal());
    expect(await screen.findByText("Strike Price")).toBeInTheDocument();
    expect(fact("Strike Price")).toHaveTextContent(/^\$250\.00$/);
    expect(fact("P&L per contract")).toHaveTextContent(/^\+\$45\.00$/);
  });
});

describe("SignalDetailDialog: Add to Portfolio", () => {
  it("posts one open contract at the signal's entry price and toasts 'Success'", async () => {
    const fetchMock = api();
    const { queryClient } = renderDialog(makeSignal({ strategy: "Mean Reversion", confidence: 64 }));
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Signal added to your portfolio successfully")).toBeInTheDocument();
    expect(screen.getByText("Success")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/manual-positions")).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 1,
      status: "open",
      entryPrice: 3.2,
      reasoning: "Mean Reversion strategy signal, strength 64/100",
    });
    // The portfolio's manual positions and figures are refetched.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["/api/manual-positions"] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["/api/portfolio/metrics"] });
  });

  it("uses the option's current price when the signal has no entry price", async () => {
    const fetchMock = api();
    renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: 4.05 }));
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(fetchMock, "/api/manual-positions")).toMatchObject({ entryPrice: 4.05 });
  });

  it("uses the current price, then the strike, when neither option price is known", async () => {
    const fetchMock = api();
    const first = renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 248.1 }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(fetchMock, "/api/manual-positions")).toMatchObject({ entryPrice: 248.1 });
    first.unmount();

    const second = api();
    renderDialog(makeSignal({ entryPrice: null, currentOptionPrice: null, currentPrice: 0, strikePrice: 245 }));
    await user.click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    await screen.findByText("Signal added to your portfolio successfully");
    expect(bodyOf(second, "/api/manual-positions")).toMatchObject({ entryPrice: 245, strikePrice: 245 });
  });

  it("says 'Failed to add signal to portfolio' when the server refuses", async () => {
    api(() => problem(422, "Unprocessable Entity", "Invalid position", [{ field: "expirationDate", message: "in the past" }]));
    renderDialog(makeSignal());
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Failed to add signal to portfolio")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });
});

describe("SignalDetailDialog: Open in Strategy builder", () => {
  it("opens the builder with the signal's legs in its shared-link parameter", async () => {
    api();
    const signal = makeSignal({ signalType: "PUT", strikePrice: 240, entryPrice: 2.75 });
    renderDialog(signal);
    const link = await screen.findByRole("link", { name: "Open in Strategy builder" });
    expect(link).toHaveAttribute("href", builderLinkForSignal(signal));
    await userEvent.setup().click(link);
    const location = screen.getByTestId("location");
    expect(location).toHaveTextContent("/strategy-builder");
    const state = decodeState(new URLSearchParams(location.getAttribute("data-search") ?? "").get("s"));
    expect(state?.symbol).toBe("AAPL");
    expect(state?.legs.map(({ key: _key, ...leg }) => leg)).toEqual([
      {
        instrument: "put",
        side: "long",
        quantity: "1",
        strike: "240",
        expirationDate: "2026-12-18",
        entryPrice: "2.75",
        volatility: "",
      },
    ]);
  });

  it("opens a straddle as its two legs", async () => {
    api();
    renderDialog(makeSignal({ signalType: "STRADDLE", strikePrice: 250 }));
    await userEvent.setup().click(await screen.findByRole("link", { name: "Open in Strategy builder" }));
    const search = screen.getByTestId("location").getAttribute("data-search") ?? "";
    const state = decodeState(new URLSearchParams(search).get("s"));
    expect(state?.legs.map((l) => [l.instrument, l.side, l.strike, l.entryPrice])).toEqual([
      ["call", "long", "250", ""],
      ["put", "long", "250", ""],
    ]);
  });

  it("is not offered for a locked signal", async () => {
    api();
    renderDialog(makeSignal({ locked: true }));
    expect(await screen.findByTestId("signal-detail")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Open in Strategy builder" })).not.toBeInTheDocument();
  });
});

describe("SignalDetailDialog: three probabilities", () => {
  /** The block once the analysis has loaded, and one of its three parts by test id. */
  async function probabilities(analysis: SignalAnalysis) {
    api(undefined, analysis);
    renderDialog(makeSignal());
    const block = await screen.findByTestId("three-probabilities");
    return { block, part: (id: "risk-neutral" | "model" | "hit-rate") => within(block).getByTestId(`probability-${id}`) };
  }

  it("shows the risk-neutral probability now and at issue, the model's with its reasons, and the strategy's hit rate, each with its basis", async () => {
    const { block, part } = await probabilities(makeAnalysis());
    expect(within(block).getByRole("heading", { level: 3, name: "Three probabilities" })).toBeInTheDocument();
    expect(within(block).getByRole("link", { name: "How these are checked" })).toHaveAttribute("href", "/track-record");

    const riskNeutral = part("risk-neutral");
    expect(within(riskNeutral).getByRole("heading", { name: "Risk-neutral probability of profit" })).toBeInTheDocument();
    expect(within(riskNeutral).getByText("Now").nextElementSibling).toHaveTextContent("41.2%");
    expect(within(riskNeutral).getByText("At issue").nextElementSibling).toHaveTextContent("38.7%");
    expect(riskNeutral).toHaveTextContent("From the pricing model (Black–Scholes, σ as priced, risk-neutral drift).");

    const model = part("model");
    expect(within(model).getByRole("heading", { name: "Model probability" })).toBeInTheDocument();
    expect(model).toHaveTextContent("57.3%");
    expect(model).toHaveTextContent("model 2026-11-20.1");
    // The direction is in words, not only the arrow's colour.
    const why = within(model).getByRole("list", { name: "Why" });
    expect(
      within(why)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["RSI(14) raises it", "Volatility rank lowers it", "Days to expiry raises it"]);
    expect(within(model).queryByRole("link", { name: "Compare plans" })).not.toBeInTheDocument();

    const hitRate = part("hit-rate");
    expect(within(hitRate).getByRole("heading", { name: "Strategy hit rate at this strength" })).toBeInTheDocument();
    expect(hitRate).toHaveTextContent("Momentum signals of strength 70–79: 58.0% won (95% interval 47.2–68.2%), n = 81");
    expect(hitRate).toHaveTextContent("Resolved live signals; a win is a positive P&L after slippage and commissions.");
  });

  it("says no model scored the signal when the plan includes the model but none had shipped at issue", async () => {
    const { part } = await probabilities(makeAnalysis({ model: null, modelIncluded: true }));
    const model = part("model");
    expect(model).toHaveTextContent("No model scored this signal (no model had beaten the strength score when it was issued).");
    expect(within(model).queryByRole("list")).not.toBeInTheDocument();
    expect(within(model).queryByText(/%/)).not.toBeInTheDocument();
    expect(within(model).queryByRole("link")).not.toBeInTheDocument();
  });

  it("offers Premium, linking to the plans, when the plan does not include the model", async () => {
    const { part } = await probabilities(makeAnalysis({ model: null, modelIncluded: false }));
    const model = part("model");
    expect(model).toHaveTextContent("Premium shows the predictive model's probability.");
    expect(within(model).getByRole("link", { name: "Compare plans" })).toHaveAttribute("href", "/pricing");
    expect(within(model).queryByText(/No model scored/)).not.toBeInTheDocument();
    expect(within(model).queryByRole("list")).not.toBeInTheDocument();
  });

  it("a decile under 30 resolved signals gives its n and no rate", async () => {
    const { part } = await probabilities(
      makeAnalysis({
        decileRecord: makeDecileRecord({
          strategy: "Mean Reversion",
          low: 60,
          high: 69,
          n: 12,
          wins: 7,
          hitRate: null,
          wilsonLow: null,
          wilsonHigh: null,
        }),
      }),
    );
    const hitRate = part("hit-rate");
    expect(hitRate).toHaveTextContent("Mean Reversion signals of strength 60–69: 12 resolved, too few for a rate (30 needed)");
    expect(hitRate).not.toHaveTextContent(/won|interval|%/);
  });

  it("says a custom strategy has no track record rather than too few signals", async () => {
    const { part } = await probabilities(
      makeAnalysis({
        decileRecord: makeDecileRecord({ strategy: "Custom", n: 0, wins: 0, hitRate: null, wilsonLow: null, wilsonHigh: null }),
      }),
    );
    const hitRate = part("hit-rate");
    expect(hitRate).toHaveTextContent("Custom strategies have no track record: only the four house rules' live signals are recorded.");
    expect(hitRate).not.toHaveTextContent(/resolved|too few/);
  });

  it("says the probability at issue was not recorded for a signal stored before it was", async () => {
    const { part } = await probabilities(makeAnalysis({ probabilityOfProfitAtIssue: null }));
    expect(within(part("risk-neutral")).getByText("At issue").nextElementSibling).toHaveTextContent("Not recorded");
  });
});

describe("SignalDetailDialog: implied volatility", () => {
  const fact = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;

  function withPrices(prices: ReturnType<typeof makeStockPrice>[]) {
    return mockFetch((url) => {
      if (url === "/api/stock-prices") return jsonResponse(prices);
      if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
      return jsonResponse([]);
    });
  }

  it("shows the symbol's IV, IV rank and IV percentile now, and links to its option chain", async () => {
    withPrices([makeStockPrice({ symbol: "AAPL", impliedVolatility: 0.2534, ivRank: 43.2, ivPercentile: 61.4 })]);
    renderDialog(makeSignal({ symbol: "AAPL" }));
    await waitFor(() => expect(fact("Implied Volatility (30-day)")).toHaveTextContent(/^25\.3%$/));
    expect(fact("IV Rank")).toHaveTextContent(/^43$/);
    expect(fact("IV Percentile")).toHaveTextContent(/^61$/);
    expect(screen.getByRole("link", { name: "Option chain for AAPL" })).toHaveAttribute("href", "/stocks/AAPL/options");
  });

  it("says why the rank is hidden", async () => {
    withPrices([makeStockPrice({ symbol: "AAPL", impliedVolatility: 0.2534, ivRank: null, ivPercentile: null })]);
    renderDialog(makeSignal({ symbol: "AAPL" }));
    await waitFor(() => expect(fact("Implied Volatility (30-day)")).toHaveTextContent(/^25\.3%$/));
    expect(fact("IV Rank")).toHaveTextContent("IV rank needs 200 recorded sessions");
    expect(fact("IV Rank")).toHaveTextContent("Needs 200 recorded sessions");
    expect(fact("IV Percentile")).toHaveTextContent(/^—$/);
  });
});
