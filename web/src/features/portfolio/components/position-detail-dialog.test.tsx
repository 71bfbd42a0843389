import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PositionDetail } from "@/lib/api/models";
import { makePositionDetail } from "@/test/portfolio-fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { PositionDetailDialog } from "./position-detail-dialog";

afterEach(() => vi.unstubAllGlobals());

function api(detail: PositionDetail | Response, { post = () => jsonResponse({}, 201) }: { post?: () => Response } = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/manual-positions" && init.method === "POST") return post();
    if (url.startsWith("/api/portfolio/position/") || url.startsWith("/api/manual-positions/")) {
      return detail instanceof Response ? detail : jsonResponse(detail);
    }
    return jsonResponse([]);
  });
}

function renderDialog(kind: "automated" | "manual" = "automated") {
  renderWithProviders(<PositionDetailDialog target={{ kind, id: "p1", symbol: "AAPL" }} open onOpenChange={() => {}} />);
}

describe("PositionDetailDialog", () => {
  it("shows the summary cards and the Details tab first", async () => {
    api(makePositionDetail());
    renderDialog();
    const dialog = within(await screen.findByRole("dialog", { name: "AAPL" }));
    expect(await dialog.findByText("Current Value", { selector: "p" })).toBeInTheDocument();
    const cards = dialog.getAllByTestId("detail-summary-card");
    expect(cards.map((c) => c.textContent)).toEqual([
      "Current Value$730.002 contracts",
      "P&L+$90.00+14.06%",
      "Days Held21Since Nov 2, 2026",
      "StatusOPENStrength 78/100",
    ]);
    expect(dialog.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Details", "Greeks", "Risk", "Performance"]);
    expect(dialog.getByRole("tab", { name: "Details" })).toHaveAttribute("aria-selected", "true");
    expect(dialog.getByText("Momentum")).toBeInTheDocument();
    expect(dialog.getByText("Price broke above the 20-day high on rising volume.")).toBeInTheDocument();
  });

  it("shows the Greeks to 4 decimals", async () => {
    api(makePositionDetail());
    renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Greeks" }));
    expect(screen.getByTestId("greek-delta")).toHaveTextContent("1.0412");
    expect(screen.getByTestId("greek-gamma")).toHaveTextContent("0.0313");
    expect(screen.getByTestId("greek-theta")).toHaveTextContent("-0.2146");
    expect(screen.getByTestId("greek-vega")).toHaveTextContent("0.8123");
    expect(screen.getByTestId("greek-rho")).toHaveTextContent("0.1000");
  });

  it("shows 'Unlimited' for a max gain the server sends as null, and the payoff chart", async () => {
    api(makePositionDetail());
    renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Risk" }));
    expect(screen.getByTestId("max-gain")).toHaveTextContent("Unlimited");
    expect(screen.getByText("6.40% of capital")).toBeInTheDocument();
    expect(screen.getByText("41.20%")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: /^Payoff chart: profit and loss of the whole position/ })).toBeInTheDocument();
  });

  it("shows a limited max gain in dollars", async () => {
    api(makePositionDetail({ riskMetrics: { ...makePositionDetail().riskMetrics, maxGain: 1234.5, riskRewardRatio: 1.9 } }));
    renderDialog();
    await userEvent.setup().click(await screen.findByRole("tab", { name: "Risk" }));
    expect(screen.getByTestId("max-gain")).toHaveTextContent("$1,234.50");
    expect(screen.getByText("1.90")).toBeInTheDocument();
  });

  it("shows the performance figures, '—' where there are none", async () => {
    api(
      makePositionDetail({
        performance: { totalReturn: 14.0625, annualizedReturn: -5, sharpeRatio: null, dailyReturn: null, volatility: 31.2 },
      }),
    );
    renderDialog();
    await userEvent.setup().click(await screen.findByRole("tab", { name: "Performance" }));
    const panel = within(screen.getByRole("tabpanel"));
    expect(panel.getByText("Total Return").nextSibling).toHaveTextContent("+14.06%");
    expect(panel.getByText("Annualized Return").nextSibling).toHaveTextContent("-5.00%");
    expect(panel.getByText("Daily Return").nextSibling).toHaveTextContent("—");
    expect(panel.getByText("Sharpe Ratio").nextSibling).toHaveTextContent("—");
    expect(panel.getByText("Volatility").nextSibling).toHaveTextContent("31.20%");
  });

  it("shows 'Failed to load position details' when the details cannot be loaded", async () => {
    api(problem(404, "Not Found", "No such position."));
    renderDialog("manual");
    expect(await screen.findByText("Failed to load position details")).toBeInTheDocument();
    expect(screen.getByText("No such position.")).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "Close" }).length).toBeGreaterThan(0);
  });

  it("falls back to 'Failed to fetch position details' without a server reason", async () => {
    api(new Response("boom", { status: 500 }));
    renderDialog();
    expect(await screen.findByText("Failed to fetch position details")).toBeInTheDocument();
  });

  it("adds an automated position to the manual positions", async () => {
    const fetchMock = api(makePositionDetail());
    renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Position Added")).toBeInTheDocument();
    expect(screen.getByText("Signal has been added to your manual portfolio")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/manual-positions")).toEqual({
      symbol: "AAPL",
      companyName: "Apple Inc.",
      type: "CALL",
      strikePrice: 250,
      expirationDate: "2026-12-18",
      quantity: 1,
      status: "open",
      entryPrice: 3.2,
      reasoning: "Added from automated signal: Momentum strategy signal, strength 78/100",
    });
  });

  it("says 'Failed to add position to portfolio' when that fails", async () => {
    api(makePositionDetail(), { post: () => problem(500, "Internal Server Error") });
    renderDialog();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Add to Portfolio" }));
    expect(await screen.findByText("Failed to add position to portfolio")).toBeInTheDocument();
  });
});
