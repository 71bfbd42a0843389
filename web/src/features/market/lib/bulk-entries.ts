import { type Sector, SECTORS } from "@/lib/api/enums";
import type { WatchlistEntry } from "@/lib/api/models";

export const DEFAULT_SECTOR: Sector = "Technology";

/** A row of the Add Stocks form. */
export type StockRow = { symbol: string; companyName: string; sector: Sector };

export const EMPTY_ROW: StockRow = { symbol: "", companyName: "", sector: DEFAULT_SECTOR };

/** The sector in its listed spelling ("real estate" → "Real Estate"), or the text as typed. */
export function canonicalSector(text: string): string {
  const wanted = text.trim().toLowerCase();
  return SECTORS.find((s) => s.toLowerCase() === wanted) ?? text.trim();
}

/**
 * The bulk text: one entry per line, "SYMBOL, Company Name, Sector". The symbol is
 * upper-cased, the name defaults to the symbol plus " Company", the sector to Technology;
 * blank lines (and lines with no symbol) are skipped. With three or more fields the last is
 * the sector (matched to the listed spelling; anything else is sent as typed for the server
 * to refuse) and the ones between make the name, so "BRK.B, Berkshire Hathaway, Inc., Financial"
 * keeps its comma.
 */
export function parseBulkText(text: string): Required<WatchlistEntry>[] {
  const entries: Required<WatchlistEntry>[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const fields = line.split(",").map((f) => f.trim());
    const symbol = fields[0].toUpperCase();
    if (!symbol) continue;
    const nameFields = fields.length >= 3 ? fields.slice(1, -1) : fields.slice(1);
    const sectorText = fields.length >= 3 ? fields[fields.length - 1] : "";
    const companyName = nameFields.join(", ").trim() || `${symbol} Company`;
    entries.push({ symbol, companyName, sector: sectorText ? canonicalSector(sectorText) : DEFAULT_SECTOR });
  }
  return entries;
}

/**
 * The entries to send: the form rows with a symbol (upper-cased; a blank company name is
 * left for the server to fill in), then the bulk text's lines.
 */
export function collectEntries(rows: readonly StockRow[], bulkText: string): WatchlistEntry[] {
  const fromRows: WatchlistEntry[] = rows
    .filter((row) => row.symbol.trim())
    .map((row) => {
      const entry: WatchlistEntry = { symbol: row.symbol.trim().toUpperCase(), sector: row.sector };
      const name = row.companyName.trim();
      if (name) entry.companyName = name;
      return entry;
    });
  return [...fromRows, ...parseBulkText(bulkText)];
}

/** The bulk add's summary: 'Successfully added N stocks.' plus ' M failed.' when M > 0. */
export function bulkAddSummary(successful: number, failed: number): string {
  return `Successfully added ${successful} stocks.${failed > 0 ? ` ${failed} failed.` : ""}`;
}
