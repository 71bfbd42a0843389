import { afterEach, describe, expect, it } from "vitest";
import { setMoneyDisplay } from "@/lib/money-display";
import { signalPage } from "@/test/fixtures";
import { jsonResponse, mockFetch } from "@/test/utils";
import { getSignalPage, signalsQueryKey } from "../api/get-signals";
import { ALL, cleanSymbol, EMPTY_FILTERS, filtersFromSearch, filtersToSearch, maxCostOptions, toSignalFilters } from "./filters";

/** The URL GET /api/signals is called with for these filters. */
async function signalsUrl(filters: Parameters<typeof getSignalPage>[0]): Promise<string> {
  const fetchMock = mockFetch(() => jsonResponse(signalPage([])));
  await getSignalPage(filters);
  return String(fetchMock.mock.calls[0][0]);
}

describe("signal filters", () => {
  afterEach(() => setMoneyDisplay(null));

  it("labels the cost bands in the display currency", () => {
    const labels = () => maxCostOptions().map((o) => o.label);
    expect(labels()).toEqual(["Any Cost", "Under $50", "$50 – $100", "$100 – $250", "$250 – $500", "Over $500"]);
    setMoneyDisplay({ currency: "EUR", perUsd: 0.8634 });
    expect(labels()).toEqual(["Any Cost", "Under €43.17", "€43.17 – €86.34", "€86.34 – €215.85", "€215.85 – €431.70", "Over €431.70"]);
  });

  it("leaves 'All' and a blank symbol out of the query", async () => {
    expect(toSignalFilters(EMPTY_FILTERS)).toEqual({});
    expect(await signalsUrl(toSignalFilters({ ...EMPTY_FILTERS, symbol: "   " }))).toBe("/api/signals?limit=50");
    expect(await signalsUrl(toSignalFilters({ ...EMPTY_FILTERS, strategy: "Mean Reversion", riskLevel: "low", status: ALL }))).toBe(
      "/api/signals?strategy=Mean+Reversion&riskLevel=low&limit=50",
    );
  });

  it("sends every filter in a fixed order", async () => {
    const filters = toSignalFilters({
      symbol: " msft ",
      strategy: "Volatility",
      signalType: "STRADDLE",
      status: "expired",
      maxCost: "over-500",
      riskLevel: "medium",
    });
    expect(await signalsUrl(filters)).toBe(
      "/api/signals?symbol=MSFT&strategy=Volatility&signalType=STRADDLE&status=expired&maxCost=over-500&riskLevel=medium&limit=50",
    );
  });

  it("makes equal keys for equal filters", () => {
    expect(signalsQueryKey({ status: "active", symbol: undefined })).toEqual(signalsQueryKey({ status: "active" }));
    expect(signalsQueryKey()).toEqual(["/api/signals", {}, "pages"]);
  });

  it("cleans symbol text to a ticker prefix", () => {
    expect(cleanSymbol("brk.b ")).toBe("BRK.B");
    expect(cleanSymbol("a a$pl")).toBe("AAPL");
    expect(cleanSymbol("ABCDEFGHIJKL")).toBe("ABCDEFGHIJ");
  });

  it("reads and writes the URL form, treating unknown values as All", () => {
    const state = filtersFromSearch(new URLSearchParams("strategy=Breakout&status=bogus&symbol=nv"));
    expect(state).toEqual({ ...EMPTY_FILTERS, strategy: "Breakout", symbol: "NV" });
    expect(filtersToSearch(state).toString()).toBe("symbol=NV&strategy=Breakout");
  });
});
