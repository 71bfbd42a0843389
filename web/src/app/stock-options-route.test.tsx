import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStockPrice, signedInApi } from "@/test/fixtures";
import { makeHiddenIvHistory, makeOptionChain } from "@/test/options-fixtures";
import { jsonResponse, makeUser, mockFetch, problem, publicApi, renderWithProviders } from "@/test/utils";
import { AppRoutes } from "./router";

afterEach(() => vi.unstubAllGlobals());

function signedIn() {
  return mockFetch((url) => {
    if (url === "/api/auth/me") return jsonResponse(makeUser());
    if (url === "/api/stock-prices") return jsonResponse([makeStockPrice({ symbol: "AAPL", impliedVolatility: 0.2392, ivRank: null })]);
    if (url === "/api/stock-prices/AAPL/implied-volatility") return jsonResponse(makeHiddenIvHistory());
    if (url.startsWith("/api/stock-prices/AAPL/options")) {
      const asked = new URLSearchParams(url.split("?")[1] ?? "").get("expiration");
      return jsonResponse(makeOptionChain(asked ? { expiration: asked } : {}));
    }
    if (url.startsWith("/api/stock-prices/")) return problem(404, "Not Found");
    return signedInApi(url) ?? publicApi(url) ?? jsonResponse({});
  });
}

const chainCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/options"));

describe("/stocks/:symbol/options", () => {
  it("shows the stock's implied volatility and its chain at the expiration in the address", async () => {
    const fetchMock = signedIn();
    renderWithProviders(<AppRoutes />, { route: "/stocks/aapl/options?expiration=2027-01-15" });
    expect(await screen.findByRole("heading", { level: 1, name: "AAPL options" })).toBeInTheDocument();
    const breadcrumb = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(breadcrumb).toHaveTextContent("DashboardAAPL options");
    expect(within(breadcrumb).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/");
    expect(await screen.findByText("IV rank needs 200 recorded sessions in the last year; 3 recorded so far.")).toBeInTheDocument();
    expect(await screen.findByRole("table", { name: /expiring Jan 15, 2027/ })).toBeInTheDocument();
    expect(chainCalls(fetchMock)).toEqual(["/api/stock-prices/AAPL/options?expiration=2027-01-15"]);
    expect(await screen.findByText("Apple Inc.")).toBeInTheDocument();
    expect(document.title).toBe("AAPL options · Strikeline");
  });

  it("keeps the chosen expiration in the address", async () => {
    const fetchMock = signedIn();
    renderWithProviders(<AppRoutes />, { route: "/stocks/AAPL/options" });
    const select = await screen.findByRole("combobox", { name: "Expiration" });
    expect(select).toHaveValue("2026-12-18");
    await userEvent.setup().selectOptions(select, "2026-12-04");
    await waitFor(() =>
      expect(chainCalls(fetchMock)).toEqual(["/api/stock-prices/AAPL/options", "/api/stock-prices/AAPL/options?expiration=2026-12-04"]),
    );
    expect(await screen.findByRole("table", { name: /expiring Dec 4, 2026/ })).toBeInTheDocument();
  });

  it("says a symbol off the watchlist is not on it", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/stocks/ZZZZ/options" });
    expect(await screen.findByRole("heading", { level: 1, name: "ZZZZ options" })).toBeInTheDocument();
    // The implied volatility and the chain each say so.
    await waitFor(() => expect(screen.getAllByText("ZZZZ is not on the watchlist")).toHaveLength(2));
    expect(screen.getByText("Not on your watchlist.")).toBeInTheDocument();
  });

  it("shows 404 for what cannot be a ticker", async () => {
    signedIn();
    renderWithProviders(<AppRoutes />, { route: "/stocks/not%20a%20ticker/options" });
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
  });
});
