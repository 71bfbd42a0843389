import { describe, expect, it } from "vitest";
import { signalsQueryKey, signalsSearch } from "../api/get-signals";
import { ALL, cleanSymbol, EMPTY_FILTERS, filtersFromSearch, filtersToSearch, toSignalFilters } from "./filters";

describe("signal filters", () => {
  it("leaves 'All' and a blank symbol out of the query", () => {
    expect(toSignalFilters(EMPTY_FILTERS)).toEqual({});
    expect(signalsSearch(toSignalFilters({ ...EMPTY_FILTERS, symbol: "   " }))).toBe("");
    expect(
      signalsSearch(toSignalFilters({ ...EMPTY_FILTERS, strategy: "Mean Reversion", riskLevel: "low", status: ALL })),
    ).toBe("?strategy=Mean+Reversion&riskLevel=low");
  });

  it("sends every filter in a fixed order", () => {
    const filters = toSignalFilters({
      symbol: " msft ",
      strategy: "Volatility",
      signalType: "STRADDLE",
      status: "expired",
      maxCost: "over-500",
      riskLevel: "medium",
    });
    expect(signalsSearch(filters)).toBe(
      "?symbol=MSFT&strategy=Volatility&signalType=STRADDLE&status=expired&maxCost=over-500&riskLevel=medium",
    );
  });

  it("makes equal keys for equal filters", () => {
    expect(signalsQueryKey({ status: "active", symbol: undefined })).toEqual(signalsQueryKey({ status: "active" }));
    expect(signalsQueryKey()).toEqual(["/api/signals", {}]);
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
