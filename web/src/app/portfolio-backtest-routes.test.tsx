import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedInApi } from "@/test/fixtures";
import { makeOrder } from "@/test/order-fixtures";
import { makeHeldStructure, makeManualPosition, makePortfolioMetrics, makePortfolioPositions } from "@/test/portfolio-fixtures";
import { jsonResponse, makeUser, mockFetch, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

afterEach(() => vi.unstubAllGlobals());

function signedIn(user = makeUser(), answers: (url: string) => Response | undefined = () => undefined) {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(user);
    return answers(url) ?? signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

describe("/portfolio and /backtest", () => {
  it("a new account's portfolio says there is nothing yet, in every section", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/portfolio" });
    expect(await screen.findByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeInTheDocument();
    expect(await screen.findByText("No portfolio data available")).toBeInTheDocument();
    expect(await screen.findByText("No positions found")).toBeInTheDocument();
    expect(await screen.findByText("No orders yet")).toBeInTheDocument();
    expect(await screen.findByText("No Manual Positions")).toBeInTheDocument();
    expect(await screen.findByText("No multi-leg positions yet")).toBeInTheDocument();
    expect(document.title).toBe("Portfolio Analysis · Strikeline");
  });

  it("the portfolio shows the analysis, the automated positions, their orders, the manual ones and the multi-leg ones", async () => {
    signedIn(makeUser(), (url) => {
      if (url === "/api/portfolio/metrics") return jsonResponse(makePortfolioMetrics());
      if (url === "/api/portfolio/positions") return jsonResponse(makePortfolioPositions(12));
      if (url === "/api/orders") return jsonResponse([makeOrder()]);
      if (url === "/api/manual-positions") return jsonResponse([makeManualPosition()]);
      if (url === "/api/portfolio/structures") return jsonResponse([makeHeldStructure()]);
      return undefined;
    });
    renderWithProviders(<AppRoutes />, { route: "/portfolio" });
    expect(await screen.findByText("Risk Assessment")).toBeInTheDocument();
    expect(await screen.findByText("Showing 1 to 10 of 12 positions")).toBeInTheDocument();
    const orders = await screen.findByRole("region", { name: "Orders table" });
    expect(within(orders).getByText("AAPL CALL $190 12/18")).toBeInTheDocument();
    // Below the automated positions.
    const positions = screen.getByRole("region", { name: "Automated positions table" });
    expect(positions.compareDocumentPosition(orders) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await screen.findByRole("article", { name: "MSFT PUT manual position" })).toBeInTheDocument();
    expect(await screen.findByRole("article", { name: "AAPL iron condor multi-leg position" })).toBeInTheDocument();
  });

  it("the backtest page tells a Free account what its plan covers", async () => {
    signedIn(makeUser({ subscriptionPlan: "free", subscriptionStatus: "active" }));
    renderWithProviders(<AppRoutes />, { route: "/backtest" });
    expect(await screen.findByRole("heading", { level: 1, name: "Strategy Backtesting" })).toBeInTheDocument();
    expect(screen.getByText(/The Free plan runs the overall backtest over the last year/)).toBeInTheDocument();
    expect(screen.getByText("No Backtest Results")).toBeInTheDocument();
  });

  it("the backtest page runs full history for a Pro account", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/backtest" });
    expect(await screen.findByRole("button", { name: "Run Backtest" })).toBeInTheDocument();
    expect(screen.getByLabelText("Start Date")).toHaveValue("");
    expect(screen.queryByText(/The Free plan/)).not.toBeInTheDocument();
  });
});
