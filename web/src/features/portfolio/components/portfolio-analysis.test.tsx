import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makePortfolioMetrics } from "@/test/portfolio-fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { PortfolioAnalysis } from "./portfolio-analysis";

afterEach(() => vi.unstubAllGlobals());

const row = (label: string) => screen.getByText(label).nextSibling;

describe("PortfolioAnalysis", () => {
  it("shows 6 placeholder cards and 'Loading portfolio data...' while loading", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderWithProviders(<PortfolioAnalysis />);
    expect(screen.getByText("Loading portfolio data...")).toBeInTheDocument();
    expect(screen.getAllByTestId("portfolio-card-skeleton")).toHaveLength(6);
  });

  it("shows the summary cards with percentages to 2 decimals", async () => {
    mockFetch(() => jsonResponse(makePortfolioMetrics()));
    renderWithProviders(<PortfolioAnalysis />);
    const cards = await screen.findAllByTestId("summary-card");
    expect(cards.map((c) => c.textContent)).toEqual([
      "Total Value$12,450.32+8.46% total P&L",
      "Net P&L+$965.40After $23.40 commissions",
      "Win Rate62.50%Of 8 closed positions",
      "Avg Hold Period6.4 daysPer closed position",
    ]);
  });

  it("shows the risk assessment", async () => {
    mockFetch(() => jsonResponse(makePortfolioMetrics()));
    renderWithProviders(<PortfolioAnalysis />);
    expect(await screen.findByTestId("risk-level")).toHaveTextContent("Medium");
    const bar = screen.getByRole("progressbar", { name: "Risk score" });
    expect(bar).toHaveAttribute("aria-valuenow", "46");
    expect(screen.getByText("46/100")).toBeInTheDocument();
    expect(screen.getByText("Three positions in technology (62% of value)")).toBeInTheDocument();
    expect(screen.getByText("Spread new positions across more sectors")).toBeInTheDocument();
  });

  it("shows a very high risk level as Very High, in the alarm tone", async () => {
    const metrics = makePortfolioMetrics();
    mockFetch(() => jsonResponse({ ...metrics, riskAssessment: { ...metrics.riskAssessment, riskLevel: "very_high", riskScore: 91 } }));
    renderWithProviders(<PortfolioAnalysis />);
    const badge = await screen.findByTestId("risk-level");
    expect(badge).toHaveTextContent("Very High");
    expect(screen.getByRole("progressbar", { name: "Risk score" })).toHaveAttribute("aria-valuenow", "91");
  });

  it("shows the performance metrics and statistics, '—' for a metric without enough history", async () => {
    mockFetch(() =>
      jsonResponse(
        makePortfolioMetrics({
          metrics: { sharpeRatio: null, calmarRatio: 0.5, maxDrawdown: -0.0834, recoveryFactor: null, volatility: 0.2234 },
        }),
      ),
    );
    renderWithProviders(<PortfolioAnalysis />);
    await screen.findByText("Performance Metrics");
    expect(row("Profit Factor")).toHaveTextContent("1.84");
    expect(row("Sharpe Ratio")).toHaveTextContent("—");
    expect(row("Calmar Ratio")).toHaveTextContent("0.50");
    expect(row("Max Drawdown")).toHaveTextContent("-8.34%");
    expect(row("Recovery Factor")).toHaveTextContent("—");
    expect(row("Volatility")).toHaveTextContent("22.34%");
    expect(row("Open Positions")).toHaveTextContent("10");
    expect(row("Closed Positions")).toHaveTextContent("8");
    expect(row("Largest Win")).toHaveTextContent("+$420.00");
    expect(row("Largest Loss")).toHaveTextContent("-$310.50");
    expect(row("Consecutive Wins")).toHaveTextContent("3");
    expect(row("Total Commissions")).toHaveTextContent("$23.40");
  });

  it("draws the value chart from the history", async () => {
    mockFetch(() => jsonResponse(makePortfolioMetrics()));
    renderWithProviders(<PortfolioAnalysis />);
    const chart = await screen.findByRole("img", { name: /^Portfolio value chart: 30 points from Jun 1, 2026/ });
    expect(within(chart).getByText(/^Portfolio value chart/, { selector: "title" })).toBeInTheDocument();
  });

  it("shows '—' for the win rate and hold period before any position closed", async () => {
    const metrics = makePortfolioMetrics();
    mockFetch(() =>
      jsonResponse({
        ...metrics,
        summary: {
          ...metrics.summary,
          winRate: null,
          avgHoldingPeriod: null,
          closedPositions: 0,
          profitFactor: null,
          largestWin: 0,
          largestLoss: 0,
        },
      }),
    );
    renderWithProviders(<PortfolioAnalysis />);
    const cards = await screen.findAllByTestId("summary-card");
    expect(cards[2]).toHaveTextContent("Win Rate—Of 0 closed positions");
    expect(cards[3]).toHaveTextContent("Avg Hold Period—No closed positions yet");
    // No position closed: no largest win or loss, rather than a zero amount.
    expect(row("Largest Win")).toHaveTextContent(/^—$/);
    expect(row("Largest Loss")).toHaveTextContent(/^—$/);
  });

  it("says 'No portfolio data available' with no positions at all", async () => {
    const metrics = makePortfolioMetrics();
    mockFetch(() => jsonResponse({ ...metrics, summary: { ...metrics.summary, openPositions: 0, closedPositions: 0 }, history: [] }));
    renderWithProviders(<PortfolioAnalysis />);
    expect(await screen.findByText("No portfolio data available")).toBeInTheDocument();
    expect(screen.queryByTestId("summary-card")).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch portfolio data' when the figures cannot be loaded", async () => {
    mockFetch(() => problem(500, "Internal Server Error"));
    renderWithProviders(<PortfolioAnalysis />);
    expect(await screen.findByText("Failed to fetch portfolio data")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
