import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { makeStockPrice } from "@/test/fixtures";
import { jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { MarketOverview, topGainers, topLosers } from "./market-overview";

afterEach(() => {
  vi.unstubAllGlobals();
  setMoneyDisplay(null);
});

const changes = [3.1, -2.4, 0.5, 7.2, -0.1, 1.9, -5.5, 0, 2.2, -1.1, 4.4, -3.3];
const prices = changes.map((c, i) => makeStockPrice({ symbol: `S${i}`, companyName: `Stock ${i}`, priceChangePercent: c }));

describe("MarketOverview", () => {
  it("ranks five gainers and five losers", () => {
    expect(topGainers(prices).map((p) => p.priceChangePercent)).toEqual([7.2, 4.4, 3.1, 2.2, 1.9]);
    expect(topLosers(prices).map((p) => p.priceChangePercent)).toEqual([-5.5, -3.3, -2.4, -1.1, -0.1]);
  });

  it("shows the tabs and updates prices", async () => {
    let fail = false;
    mockFetch((url) => {
      if (url === "/api/update-stock-prices") return fail ? problem(500, "Internal Server Error") : jsonResponse(prices);
      return jsonResponse(prices);
    });
    renderWithProviders(<MarketOverview />);
    const gainers = await screen.findByRole("list", { name: "Top gainers" });
    expect(within(gainers).getAllByRole("listitem")).toHaveLength(5);
    expect(within(gainers).getAllByRole("listitem")[0]).toHaveTextContent("+7.2%");

    const user = userEvent.setup();
    await user.click(screen.getByRole("tab", { name: "Top Losers" }));
    expect(within(await screen.findByRole("list", { name: "Top losers" })).getAllByRole("listitem")[0]).toHaveTextContent("-5.5%");
    await user.click(screen.getByRole("tab", { name: "All Stocks" }));
    expect(within(await screen.findByRole("region", { name: "All stocks table" })).getAllByRole("row")).toHaveLength(13);

    await user.click(screen.getByRole("button", { name: "Update Prices" }));
    expect(await screen.findByText("Prices Updated")).toBeInTheDocument();
    fail = true;
    await user.click(screen.getByRole("button", { name: "Update Prices" }));
    expect(await screen.findByText("Failed to update stock prices")).toBeInTheDocument();
  });

  it("shows quotes in US dollars, unconverted and labelled, when money is shown in euros; volume and change unchanged", async () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.92 });
    const stock = makeStockPrice({ symbol: "XOM", companyName: "Exxon Mobil", currentPrice: 105, priceChangePercent: 1.5 });
    mockFetch(() => jsonResponse([stock]));
    renderWithProviders(<MarketOverview />);
    const gainers = await screen.findByRole("list", { name: "Top gainers" });
    expect(within(gainers).getByRole("listitem")).toHaveTextContent("US$105.00+1.5%");
    expect(gainers).not.toHaveTextContent("€");
    await userEvent.setup().click(screen.getByRole("tab", { name: "All Stocks" }));
    const row = within(await screen.findByRole("region", { name: "All stocks table" })).getAllByRole("row")[1];
    expect(row).toHaveTextContent("US$105.00");
    expect(row).toHaveTextContent("48.3M");
    expect(row).toHaveTextContent("US$164.08 – US$260.10");
    expect(row).not.toHaveTextContent("€");
  });
});

describe("MarketOverview: implied volatility and the options view", () => {
  const stocks = [
    makeStockPrice({ symbol: "AAPL", priceChangePercent: 2, impliedVolatility: 0.2534, ivRank: 43.2, ivPercentile: 61 }),
    makeStockPrice({
      symbol: "NEW",
      companyName: "Newly Listed",
      priceChangePercent: 1,
      impliedVolatility: 0.31,
      ivRank: null,
      ivPercentile: null,
    }),
  ];

  it("shows each mover's IV and IV rank, and why a rank is hidden", async () => {
    mockFetch(() => jsonResponse(stocks));
    renderWithProviders(<MarketOverview />);
    const [aapl, fresh] = within(await screen.findByRole("list", { name: "Top gainers" })).getAllByRole("listitem");
    const summary = within(aapl).getByTestId("iv-summary");
    expect(summary).toHaveTextContent("IV 25.3% · IVR 43");
    expect(within(summary).getByText("Implied volatility 25.3%, IV rank 43, IV percentile 61")).toHaveClass("sr-only");
    const hidden = within(fresh).getByTestId("iv-summary");
    expect(hidden).toHaveTextContent("IV 31.0% · IVR —");
    expect(hidden).toHaveAttribute("title", "IV rank needs 200 recorded sessions");
    expect(within(hidden).getByText("Implied volatility 31.0%, IV rank needs 200 recorded sessions")).toBeInTheDocument();
  });

  it("links each ticker to its options view", async () => {
    mockFetch(() => jsonResponse(stocks));
    renderWithProviders(<MarketOverview />);
    const link = await screen.findByRole("link", { name: "AAPL options" });
    expect(link).toHaveAttribute("href", "/stocks/AAPL/options");
    await userEvent.setup().click(link);
    expect(screen.getByTestId("location")).toHaveTextContent("/stocks/AAPL/options");
  });

  it("lists IV and IV rank in the All Stocks table, a dash with its reason while hidden", async () => {
    mockFetch(() => jsonResponse(stocks));
    renderWithProviders(<MarketOverview />);
    await userEvent.setup().click(await screen.findByRole("tab", { name: "All Stocks" }));
    const table = within(await screen.findByRole("region", { name: "All stocks table" }));
    expect(table.getByRole("columnheader", { name: "IV · rank" })).toBeInTheDocument();
    const [, aapl, fresh] = table.getAllByRole("row");
    expect(aapl).toHaveTextContent("25.3%IVR IV rank 43");
    expect(within(aapl).getByRole("link", { name: "AAPL options" })).toHaveAttribute("href", "/stocks/AAPL/options");
    expect(fresh).toHaveTextContent("31.0%IVR IV rank —IV rank needs 200 recorded sessions");
    // The column's rank, and the short line shown on a phone (hidden from `sm` up).
    expect(within(fresh).getAllByTitle("IV rank needs 200 recorded sessions")).toHaveLength(2);
    expect(within(aapl).getByTestId("iv-summary")).toHaveClass("sm:hidden");
  });
});
