/** "Just now" under a minute, else "N min ago". */
export function formatLastUpdate(updatedAt: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - updatedAt) / 60_000);
  return minutes < 1 ? "Just now" : `${minutes} min ago`;
}

/** Badge text for a count: "9+" above 9. */
export function formatBadgeCount(count: number): string {
  return count > 9 ? "9+" : String(count);
}

/** Placeholder for a figure that has no data yet. */
export const NO_VALUE = "—";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money in US dollars with two decimals: $1,000.00 */
export function formatCurrency(value: number): string {
  return usd.format(value);
}

const RISK_LABELS: Record<string, string> = { low: "Conservative", medium: "Moderate", high: "Aggressive" };

/** Risk tolerance is stored as low | medium | high and shown as Conservative, Moderate, Aggressive. */
export function riskToleranceLabel(value: string): string {
  return RISK_LABELS[value] ?? value;
}
