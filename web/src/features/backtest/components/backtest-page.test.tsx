import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { captureDownloads } from "@/test/fixtures";
import { makeOverallBacktest, makeStrategyBacktests } from "@/test/portfolio-fixtures";
import { PDF_BYTES } from "@/test/report-fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { TRADE_CSV_HEADER } from "../lib/export-trades";
import { BacktestPage } from "./backtest-page";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 23, 12, 0));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

type Answer = () => Response | Promise<Response>;

function api({
  overall = () => jsonResponse(makeOverallBacktest()),
  strategy = () => jsonResponse(makeStrategyBacktests()),
  report = () => problem(404, "Not Found"),
}: { overall?: Answer; strategy?: Answer; report?: Answer } = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/backtest" && init.method === "POST") return overall();
    if (url === "/api/backtest/report" && init.method === "POST") return report();
    if (url === "/api/backtest/strategy" && init.method === "POST") return strategy();
    return problem(404, "Not Found");
  });
}

const metric = (label: string) => within(screen.getByText(label, { selector: "dt" }).parentElement as HTMLElement).getByRole("definition");

describe("BacktestPage", () => {
  it("shows 'No Backtest Results' before any run, in both views", async () => {
    api();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    expect(screen.getByRole("heading", { level: 1, name: "Strategy Backtesting" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Overall Performance" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByText("No Backtest Results")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("tab", { name: "By Strategy" }));
    expect(screen.getByText("No Backtest Results")).toBeInTheDocument();
  });

  it("reads 'Running...' while the run is pending, then shows the results and toasts", async () => {
    let answer: (r: Response) => void = () => {};
    const fetchMock = api({ overall: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    const running = await screen.findByRole("button", { name: "Running..." });
    expect(running).toBeDisabled();
    expect(screen.getByText("Running the overall backtest...")).toBeInTheDocument();
    answer(jsonResponse(makeOverallBacktest()));
    expect(await screen.findByText("Backtest Complete")).toBeInTheDocument();
    expect(screen.getByText("Overall backtest has been completed successfully")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Run Backtest" })).toBeEnabled();
    // No option set: an empty body (every field of the request is optional).
    expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
  });

  it("shows the run's metrics and advanced metrics, charts and trades, labelled backtested, '—' for a missing figure", async () => {
    api({ overall: () => jsonResponse(makeOverallBacktest({ sharpeRatio: null, recoveryFactor: null })) });
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
    const results = within(await screen.findByTestId("overall-results"));
    expect(results.getAllByText("Backtested").length).toBeGreaterThan(0);
    expect(results.getByText(/Nov 24, 2025 – Nov 23, 2026 · 50 symbols · \$10,000\.00 starting capital/)).toBeInTheDocument();
    expect(metric("Total Trades")).toHaveTextContent("3");
    expect(metric("Win Rate")).toHaveTextContent("66.7%");
    expect(metric("Total P&L")).toHaveTextContent("+$1,840.50");
    expect(metric("Avg Hold Period")).toHaveTextContent("9.4 days");
    expect(metric("Profit Factor")).toHaveTextContent("1.92");
    expect(metric("Sharpe Ratio")).toHaveTextContent("—");
    expect(metric("Max Drawdown")).toHaveTextContent("-8.34%");
    expect(metric("Recovery Factor")).toHaveTextContent("—");
    expect(results.getByRole("img", { name: /^Equity curve \(backtested\): 40 points/ })).toBeInTheDocument();
    expect(results.getByRole("img", { name: /^Drawdown \(backtested\): 40 points/ })).toBeInTheDocument();
    const trades = results.getAllByTestId("trade-row");
    expect(trades).toHaveLength(3);
    expect(trades[0]).toHaveTextContent("AAPL");
    expect(trades[0]).toHaveTextContent("$3.20 → $4.80");
    expect(trades[0]).toHaveTextContent("Target");
    expect(trades[2]).toHaveTextContent("$12.40 → $14.90");
  });

  it("in euros: money and the equity axis convert, the trades' strikes and premiums stay in US dollars", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    api();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
    const results = within(await screen.findByTestId("overall-results"));
    expect(results.getByText(/· €9,200\.00 starting capital/)).toBeInTheDocument();
    expect(metric("Total P&L")).toHaveTextContent("+€1,693.26");
    const ticks = [...screen.getByTestId("equity-chart").querySelectorAll("text")].map((t) => t.textContent ?? "");
    const money = ticks.filter((t) => /\d/.test(t) && !/^[A-Z][a-z]{2} \d/.test(t));
    expect(money.length).toBeGreaterThan(1);
    for (const tick of money) expect(tick).toMatch(/^€[\d.]+K?$/);
    expect(results.getByRole("img", { name: /^Equity curve \(backtested\): 40 points from .* \(€9,200\.00\)/ })).toBeInTheDocument();
    const [first] = results.getAllByTestId("trade-row");
    expect(first).toHaveTextContent("US$250.00");
    expect(first).toHaveTextContent("US$3.20 → US$4.80");
    expect(first).toHaveTextContent("+€146.00");
    expect(first).not.toHaveTextContent("€230.00");
  });

  it("shows a locked trade with only its symbol, strategy and entry date", async () => {
    const result = makeOverallBacktest();
    const locked = { symbol: "TSLA", strategy: "Breakout", entryDate: "2026-06-01", locked: true };
    api({ overall: () => jsonResponse({ ...result, lockedTrades: 1, trades: [locked, ...result.trades] }) });
    renderWithProviders(<BacktestPage plan="free" multiLeg={false} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
    const row = (await screen.findAllByTestId("trade-row"))[0];
    expect(row).toHaveTextContent("TSLA");
    expect(row).toHaveTextContent("Breakout");
    expect(row).toHaveTextContent("Locked");
    expect(row).toHaveTextContent("Jun 1, 2026");
    expect(row).toHaveTextContent("— → —");
    expect(row).not.toHaveTextContent("$");
    expect(screen.getByTestId("locked-trades-note")).toHaveTextContent(
      "1 trade follows a signal your plan locks: listed as Locked and left out of every figure above.",
    );
  });

  it("exports the trades as CSV", async () => {
    api();
    const downloads = captureDownloads();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    await user.click(await screen.findByRole("button", { name: "Export CSV" }));
    expect(downloads.names).toEqual(["strikeline-backtest-2025-11-24-to-2026-11-23.csv"]);
    const [csv] = await downloads.texts();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(TRADE_CSV_HEADER.join(","));
    expect(lines).toHaveLength(4);
    expect(await screen.findByText("Trades Exported")).toBeInTheDocument();
    downloads.restore();
  });

  it("downloads the shown run as a PDF, posting the request that produced it", async () => {
    const downloads = captureDownloads();
    let answer: (r: Response) => void = () => {};
    const fetchMock = api({ report: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    expect(screen.queryByRole("button", { name: "Download PDF" })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Symbols"), "aapl, nvda");
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    await user.click(await screen.findByRole("button", { name: "Download PDF" }));
    expect(screen.getByRole("button", { name: "Preparing PDF…" })).toBeDisabled();
    answer(
      new Response(PDF_BYTES, {
        headers: { "Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="backtest-report-2026-11-23.pdf"' },
      }),
    );
    await waitFor(() => expect(downloads.names).toEqual(["backtest-report-2026-11-23.pdf"]));
    expect(bodyOf(fetchMock, "/api/backtest/report")).toEqual({ symbols: ["AAPL", "NVDA"] });
    expect(bodyOf(fetchMock, "/api/backtest/report")).toEqual(bodyOf(fetchMock, "/api/backtest"));
    // Options changed after the run do not change what the report covers.
    await user.clear(screen.getByLabelText("Symbols"));
    await user.type(screen.getByLabelText("Symbols"), "tsla");
    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/backtest/report")).toHaveLength(2));
    const last = fetchMock.mock.calls.filter(([u]) => String(u) === "/api/backtest/report")[1];
    expect(JSON.parse(String(last[1]?.body))).toEqual({ symbols: ["AAPL", "NVDA"] });
    answer(problem(429, "Too Many Requests", "Too many reports. Try again in 12 minute(s)."));
    expect(await screen.findByText("Too many reports. Try again in 12 minute(s).")).toBeInTheDocument();
  });

  it("sends the chosen dates, symbols and strategies", async () => {
    const fetchMock = api();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Start Date"), "2026-01-05");
    await user.type(screen.getByLabelText("End Date"), "2026-06-30");
    await user.type(screen.getByLabelText("Symbols"), "aapl, nvda");
    await user.click(screen.getByRole("checkbox", { name: "Breakout" }));
    await user.click(screen.getByRole("checkbox", { name: "Momentum" }));
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    await screen.findByText("Backtest Complete");
    expect(bodyOf(fetchMock, "/api/backtest")).toEqual({
      startDate: "2026-01-05",
      endDate: "2026-06-30",
      symbols: ["AAPL", "NVDA"],
      strategies: ["Momentum", "Breakout"],
    });
  });

  it("says what is wrong with the options before running", async () => {
    const fetchMock = api();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Start Date"), "2026-06-30");
    await user.type(screen.getByLabelText("End Date"), "2026-01-05");
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    expect(await screen.findByText("The start date must be before the end date.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("runs by strategy separately, one card per strategy", async () => {
    api();
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    await screen.findByTestId("overall-results");
    await user.click(screen.getByRole("tab", { name: "By Strategy" }));
    expect(screen.getByText("No Backtest Results")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    expect(await screen.findByText("Strategy Backtest Complete")).toBeInTheDocument();
    expect(screen.getByText("Strategy-based backtest has been completed successfully")).toBeInTheDocument();
    const cards = screen.getAllByTestId("strategy-result");
    expect(cards.map((c) => within(c).getByRole("heading").textContent)).toEqual([
      "Momentum Strategy",
      "Mean Reversion Strategy",
      "Breakout Strategy",
      "Volatility Strategy",
    ]);
    const momentum = within(cards[0]);
    expect(cards[0]).toHaveTextContent("10 trades · 50.0% win rate");
    expect(momentum.getByText("Total P&L").nextSibling).toHaveTextContent("+$400.00");
    expect(momentum.getByText("Avg P&L").nextSibling).toHaveTextContent("+$40.00");
    expect(momentum.getByText("Wins/Losses").nextSibling).toHaveTextContent("5 / 5");
    expect(momentum.getByText("Profit Factor").nextSibling).toHaveTextContent("1.20");
    expect(within(cards[3]).getByText("Profit Factor").nextSibling).toHaveTextContent("—");
    expect(within(cards[0]).getByText("Backtested")).toBeInTheDocument();
    // The overall results are still there.
    await user.click(screen.getByRole("tab", { name: "Overall Performance" }));
    expect(screen.getByTestId("overall-results")).toBeInTheDocument();
  });

  it("shows the server's plan limit in the page with a link to the plans", async () => {
    api({ strategy: () => problem(403, "Forbidden", "Backtests by strategy are part of Pro and Premium.") });
    renderWithProviders(<BacktestPage plan="free" multiLeg={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "By Strategy" }));
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    expect(await screen.findByText("Failed to run strategy backtest")).toBeInTheDocument();
    const alert = await screen.findByTestId("run-error");
    expect(alert).toHaveTextContent("Backtests by strategy are part of Pro and Premium.");
    expect(within(alert).getByRole("link", { name: "See plans and upgrade" })).toHaveAttribute("href", "/pricing");
  });

  it("toasts 'Failed to run backtest' when the overall run fails", async () => {
    api({ overall: () => new Response("boom", { status: 500 }) });
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
    expect(await screen.findByText("Error")).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText("Failed to run backtest").length).toBeGreaterThan(0));
    expect(within(screen.getByTestId("run-error")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("tells a Free account what its plan covers and lets the server choose the last year", async () => {
    const fetchMock = api();
    renderWithProviders(<BacktestPage plan="free" multiLeg={false} />);
    expect(screen.getByLabelText("Start Date")).toHaveValue("");
    expect(screen.getByText(/The Free plan runs the overall backtest over the last year/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/pricing");
    await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
    await screen.findByText("Backtest Complete");
    expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
  });

  it("lists the server's reasons when it refuses the options", async () => {
    api({
      overall: () =>
        problem(422, "Unprocessable Entity", "The request has invalid fields.", [
          { field: "symbols", message: '"ZZZZ" is not in the watchlist' },
        ]),
    });
    renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Symbols"), "zzzz");
    await user.click(screen.getByRole("button", { name: "Run Backtest" }));
    const alert = await screen.findByTestId("run-error");
    expect(alert).toHaveTextContent('"ZZZZ" is not in the watchlist');
    expect(await screen.findByText("Failed to run backtest")).toBeInTheDocument();
  });

  describe("custom strategy parameters", () => {
    it("are locked on Free and Pro, with a way to Premium, and never sent", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
      const locked = screen.getByTestId("custom-params-locked");
      expect(locked).toHaveTextContent("Custom strategy parameters");
      expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
      expect(screen.queryByRole("switch", { name: "Use custom parameters" })).not.toBeInTheDocument();
      await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
      expect(screen.getByTestId("params-used")).toHaveTextContent("Default parameters");
    });

    it("Premium: off by default; on, every parameter at its default, checked, sent, and the result labelled with them", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      const toggle = screen.getByRole("switch", { name: "Use custom parameters" });
      expect(toggle).not.toBeChecked();
      expect(screen.queryByLabelText("Momentum RSI low")).not.toBeInTheDocument();
      await user.click(toggle);
      const section = within(screen.getByTestId("custom-params"));
      expect(section.getAllByRole("spinbutton")).toHaveLength(14);
      expect(section.getByLabelText("Momentum RSI low")).toHaveValue(50);
      expect(section.getByLabelText("Momentum RSI low")).toHaveAccessibleDescription(
        "CALL when RSI is in the zone; PUT in its mirror. Default 50, 1–99.",
      );
      expect(section.getByRole("group", { name: "Breakout" })).toBeInTheDocument();

      // Out of range: said under the input, focused, and nothing is sent.
      await user.clear(section.getByLabelText("Oversold RSI"));
      await user.type(section.getByLabelText("Oversold RSI"), "60");
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      expect(section.getByLabelText("Oversold RSI")).toHaveAccessibleDescription("Must be between 1 and 50.");
      expect(section.getByLabelText("Oversold RSI")).toHaveFocus();
      expect(screen.getByText("Check the custom strategy parameters.")).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();

      await user.clear(section.getByLabelText("Oversold RSI"));
      await user.type(section.getByLabelText("Oversold RSI"), "25");
      await user.clear(section.getByLabelText("Target (ATR)"));
      await user.type(section.getByLabelText("Target (ATR)"), "3");
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({
        params: {
          momentumRsiLow: 50,
          momentumRsiHigh: 70,
          oversoldRsi: 25,
          overboughtRsi: 70,
          bollingerMultiplier: 2,
          breakoutLookback: 20,
          volumeMultiple: 1.5,
          hvRankThreshold: 20,
          hvPercentileThreshold: 25,
          targetAtr: 3,
          stopAtr: 1,
          straddleStopFraction: 0.5,
          minDaysDirectional: 21,
          minDaysStraddle: 30,
        },
      });
      expect(screen.getByTestId("params-used")).toHaveTextContent(
        "Custom parametersOversold RSI: 25 · Target (ATR): 3; the others at their defaults.",
      );
    });

    it("places the server's refusal of a parameter under its input", async () => {
      api({
        strategy: () =>
          problem(422, "Unprocessable Entity", "The request has invalid fields.", [
            { field: "params.momentumRsiHigh", message: "Must be between 51 and 99" },
          ]),
      });
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("tab", { name: "By Strategy" }));
      await user.click(screen.getByRole("switch", { name: "Use custom parameters" }));
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      expect(await screen.findByText("Failed to run strategy backtest")).toBeInTheDocument();
      expect(screen.getByLabelText("Momentum RSI high")).toHaveAccessibleDescription("Must be between 51 and 99");
      expect(screen.getByTestId("run-error")).toHaveTextContent("Must be between 51 and 99");
    });

    it("Reset puts the parameters back to the defaults and off", async () => {
      api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Use custom parameters" }));
      await user.clear(screen.getByLabelText("Stop (ATR)"));
      await user.type(screen.getByLabelText("Stop (ATR)"), "4");
      await user.click(screen.getByRole("button", { name: "Reset parameters to defaults" }));
      expect(screen.getByLabelText("Stop (ATR)")).toHaveValue(1);
      await user.click(screen.getByRole("button", { name: "Reset" }));
      expect(screen.getByRole("switch", { name: "Use custom parameters" })).not.toBeChecked();
    });
  });

  describe("vertical spreads", () => {
    /** A run's answer with a 5% call spread and a 5% put spread, and a straddle (never a spread). */
    const spreadResult = () => {
      const result = makeOverallBacktest();
      const [call, put, straddle] = result.trades;
      return {
        ...result,
        trades: [
          { ...call, strike: 105, shortStrike: 110.25, entryPrice: 1.85, exitPrice: 3.1 },
          { ...put, strike: 120, shortStrike: 114, entryPrice: 2.05, exitPrice: 0.9 },
          { ...straddle, shortStrike: null },
        ],
      };
    };

    it("are locked on Free and Pro, with a way to Premium, and never sent", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="pro" multiLeg={false} />);
      const locked = screen.getByTestId("spread-fields-locked");
      expect(locked).toHaveTextContent("Vertical spreads");
      expect(locked).toHaveTextContent("Premium");
      expect(within(locked).getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
      expect(screen.queryByRole("switch", { name: "Trade calls and puts as vertical spreads" })).not.toBeInTheDocument();
      expect(screen.queryByLabelText("Spread width (%)")).not.toBeInTheDocument();
      await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
    });

    it("Premium: off by default and not sent", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const toggle = screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" });
      expect(toggle).not.toBeChecked();
      expect(screen.queryByLabelText("Spread width (%)")).not.toBeInTheDocument();
      await userEvent.setup().click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
      expect(screen.queryByTestId("spread-used")).not.toBeInTheDocument();
    });

    it("Premium: on, the width (default 5%) is sent as a fraction, by strategy too, and the result says so", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      const width = screen.getByLabelText("Spread width (%)");
      expect(width).toHaveValue(5);
      expect(width).toHaveAccessibleDescription(/Default 5%, 1–50%\.$/);
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({ spreadWidth: 0.05 });
      expect(screen.getByTestId("spread-used")).toHaveTextContent("Vertical spreads, 5% wide");

      await user.click(screen.getByRole("tab", { name: "By Strategy" }));
      await user.clear(width);
      await user.type(width, "12.5");
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Strategy Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest/strategy")).toEqual({ spreadWidth: 0.125 });
    });

    it("Premium: a width outside 1–50% is said under the input, focused, and nothing is sent", async () => {
      const fetchMock = api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      const width = screen.getByLabelText("Spread width (%)");
      await user.clear(width);
      await user.type(width, "60");
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      expect(width).toHaveAccessibleDescription("The spread width must be between 1% and 50%.");
      expect(width).toHaveAttribute("aria-invalid", "true");
      expect(width).toHaveFocus();
      expect(screen.getByText("Check the spread width.")).toBeInTheDocument();
      await user.clear(width);
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      expect(width).toHaveAccessibleDescription("Enter the spread width in percent, between 1% and 50%.");
      expect(fetchMock).not.toHaveBeenCalled();
      // Switched off, the width is neither checked nor sent.
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      await screen.findByText("Backtest Complete");
      expect(bodyOf(fetchMock, "/api/backtest")).toEqual({});
    });

    it("places the server's refusal of the width under its input", async () => {
      api({
        overall: () =>
          problem(422, "Unprocessable Entity", "The request has invalid fields.", [
            { field: "spreadWidth", message: "From 0.01 to 0.5 (1% to 50% of the strike)" },
          ]),
      });
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      expect(await screen.findByText("Failed to run backtest")).toBeInTheDocument();
      expect(screen.getByLabelText("Spread width (%)")).toHaveAccessibleDescription("From 0.01 to 0.5 (1% to 50% of the strike)");
    });

    it("shows a spread trade's two strikes, long first, and its net premium", async () => {
      api({ overall: () => jsonResponse(spreadResult()) });
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      await user.click(screen.getByRole("button", { name: "Run Backtest" }));
      const [call, put, straddle] = await screen.findAllByTestId("trade-row");
      expect(within(call).getByTestId("spread-legs")).toHaveTextContent("$105.00 / $110.25 call spread");
      expect(call).toHaveTextContent("$1.85 → $3.10");
      expect(within(put).getByTestId("spread-legs")).toHaveTextContent("$120.00 / $114.00 put spread");
      expect(within(straddle).queryByTestId("spread-legs")).not.toBeInTheDocument();
      expect(straddle).toHaveTextContent("$180.00");
      expect(screen.getByText(/A spread shows its long and short strikes, and its net premium as the price\./)).toBeInTheDocument();
    });

    it("Reset switches spreads off and the width back to 5%", async () => {
      api();
      renderWithProviders(<BacktestPage plan="premium" multiLeg />);
      const user = userEvent.setup();
      await user.click(screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }));
      await user.clear(screen.getByLabelText("Spread width (%)"));
      await user.type(screen.getByLabelText("Spread width (%)"), "20");
      await user.click(screen.getByRole("button", { name: "Reset" }));
      const toggle = screen.getByRole("switch", { name: "Trade calls and puts as vertical spreads" });
      expect(toggle).not.toBeChecked();
      await user.click(toggle);
      expect(screen.getByLabelText("Spread width (%)")).toHaveValue(5);
    });
  });
});
