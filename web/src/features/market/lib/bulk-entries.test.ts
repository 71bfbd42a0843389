import { describe, expect, it } from "vitest";
import { bulkAddSummary, collectEntries, EMPTY_ROW, parseBulkText } from "./bulk-entries";

describe("parseBulkText", () => {
  it("reads 'SYMBOL, Company Name, Sector' lines, upper-casing the symbol", () => {
    expect(parseBulkText("aapl, Apple Inc., Technology\nJPM, JPMorgan Chase & Co., financial")).toEqual([
      { symbol: "AAPL", companyName: "Apple Inc.", sector: "Technology" },
      { symbol: "JPM", companyName: "JPMorgan Chase & Co.", sector: "Financial" },
    ]);
  });

  it("defaults the name to the symbol plus ' Company' and the sector to Technology", () => {
    expect(parseBulkText("nvda\nxom, Exxon Mobil\nko, , Consumer\nt,,")).toEqual([
      { symbol: "NVDA", companyName: "NVDA Company", sector: "Technology" },
      { symbol: "XOM", companyName: "Exxon Mobil", sector: "Technology" },
      { symbol: "KO", companyName: "KO Company", sector: "Consumer" },
      { symbol: "T", companyName: "T Company", sector: "Technology" },
    ]);
  });

  it("skips blank lines and lines without a symbol, and trims", () => {
    expect(parseBulkText("\n   \r\n  msft , Microsoft Corporation , real estate  \n\n, Nameless, Energy\n")).toEqual([
      { symbol: "MSFT", companyName: "Microsoft Corporation", sector: "Real Estate" },
    ]);
  });

  it("keeps commas inside a name when a sector follows", () => {
    expect(parseBulkText("crm, Salesforce, Inc., Technology")).toEqual([
      { symbol: "CRM", companyName: "Salesforce, Inc.", sector: "Technology" },
    ]);
  });
});

describe("collectEntries", () => {
  it("takes the rows with a symbol, then the bulk lines", () => {
    const rows = [
      { symbol: " amd ", companyName: "", sector: "Technology" as const },
      EMPTY_ROW,
      { symbol: "lly", companyName: "Eli Lilly and Company", sector: "Healthcare" as const },
    ];
    expect(collectEntries(rows, "1bad")).toEqual([
      { symbol: "AMD", sector: "Technology" },
      { symbol: "LLY", companyName: "Eli Lilly and Company", sector: "Healthcare" },
      { symbol: "1BAD", companyName: "1BAD Company", sector: "Technology" },
    ]);
    expect(collectEntries([EMPTY_ROW], "  \n ")).toEqual([]);
  });
});

describe("bulkAddSummary", () => {
  it("adds the failures only when there are some", () => {
    expect(bulkAddSummary(2, 0)).toBe("Successfully added 2 stocks.");
    expect(bulkAddSummary(1, 1)).toBe("Successfully added 1 stocks. 1 failed.");
  });
});
