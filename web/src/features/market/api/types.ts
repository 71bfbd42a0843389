/**
 * The market API as the issue-4 contract gives it (hand-written until the server's OpenAPI
 * document lists these endpoints). Money in dollars, dates YYYY-MM-DD, instants RFC 3339.
 */

/** One symbol of the shared watchlist. */
export type StockPrice = {
  id: string;
  symbol: string;
  companyName: string;
  sector: string;
  currentPrice: number;
  priceChange: number;
  priceChangePercent: number;
  volume: number;
  previousClose: number;
  high52Week: number;
  low52Week: number;
  marketCap: number | null;
  lastUpdated: string;
};

/** The sectors a watchlist entry can have (product spec, section 5). */
export const SECTORS = [
  "Technology",
  "Healthcare",
  "Financial",
  "Consumer",
  "Energy",
  "Industrial",
  "Utilities",
  "Real Estate",
  "Materials",
  "Communications",
] as const;
export type Sector = (typeof SECTORS)[number];

/** A watchlist entry to add; the server fills in what is left out. */
export type WatchlistEntry = { symbol: string; companyName?: string; sector?: string };

export type BulkAddRequest = { symbols: WatchlistEntry[] };

export type BulkAddResult = { symbol: string; ok: boolean; reason: string | null; stock: StockPrice | null };

export type BulkAddResponse = {
  results: BulkAddResult[];
  summary: { successful: number; failed: number };
};

/** One trading day. */
export type PriceBar = { date: string; open: number; high: number; low: number; close: number; volume: number };
