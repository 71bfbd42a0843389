import type { DisplayCurrency } from "./api/models";
import { getMoneyDisplay } from "./money-display";

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

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** The formatter of `currency` (two decimals, or compact), made once. */
function moneyFormat(currency: DisplayCurrency, compact = false): Intl.NumberFormat {
  const key = `${currency}${compact ? ":compact" : ""}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      "en-US",
      compact
        ? { style: "currency", currency, notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 }
        : { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 },
    );
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * Amounts arrive in US dollars; they are shown in the display currency (`setMoneyDisplay`,
 * lib/money-display.ts), converted at its rate. Two kinds never convert (docs/currency.md):
 * prices of a contract or its underlying (`formatContractPrice`) and billing (`formatUsdCents`).
 */
function display(usdValue: number, compact = false): string {
  const { currency, perUsd } = getMoneyDisplay();
  return moneyFormat(currency, compact).format(usdValue * perUsd);
}

/** Money in the display currency with two decimals: $1,000.00 (€920.00 in euros at 0.92). */
export function formatCurrency(value: number): string {
  return display(value);
}

/** Money in the display currency, compact, for chart axes: $12.3K */
export function formatCompactCurrency(value: number): string {
  return display(value, true);
}

/**
 * How a chart shows money, through the same path as every other amount: values with two
 * decimals and compact axis ticks in the display currency, the ticks picked round in that
 * currency (`tickScale`, its units per dollar): €80K, €90K rather than €86.3K for $100K.
 */
export function moneyAxis(): { formatValue: (value: number) => string; formatTick: (value: number) => string; tickScale: number } {
  return { formatValue: formatCurrency, formatTick: formatCompactCurrency, tickScale: getMoneyDisplay().perUsd };
}

const RISK_LABELS: Record<string, string> = { low: "Conservative", medium: "Moderate", high: "Aggressive" };

/** Risk tolerance is stored as low | medium | high and shown as Conservative, Moderate, Aggressive. */
export function riskToleranceLabel(value: string): string {
  return RISK_LABELS[value] ?? value;
}

const usdPrices = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * A price set in the instrument's currency, US dollars, and never converted: a strike, an
 * option's premium or quote (entry, now, exit, target, stop, per share), the underlying's
 * price, a breakeven. "$105.00" while money is shown in dollars; "US$105.00" when it is shown
 * in another currency, so the two on one screen cannot be confused. "—" when there is no
 * figure; with its sign when `signed` ("+US$1.20"). Amounts that are money held, made or
 * allowed (values, P&L, capital, costs, limits) convert instead: `formatCurrency`.
 */
export function formatContractPrice(value: number | null | undefined, { signed = false } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const text = usdPrices.format(Math.abs(value)).replace("$", getMoneyDisplay().currency === "USD" ? "$" : "US$");
  if (Math.round(Math.abs(value) * 100) === 0) return text;
  return value < 0 ? `-${text}` : signed ? `+${text}` : text;
}

/** Money with its sign: +$45.00, -$12.50, $0.00; "—" when there is no figure. */
export function formatSignedCurrency(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const text = formatCurrency(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text;
}

/** A percentage with one decimal (or `digits`): 78.0% */
export function formatPercent(value: number, digits = 1): string {
  return `${value.toFixed(digits)}%`;
}

/** A percentage with its sign: +12.3%, -1.2%, 0.0%; "—" when there is no figure. */
export function formatSignedPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const text = Math.abs(value).toFixed(digits);
  const zero = Number(text) === 0;
  return zero ? `${text}%` : `${value > 0 ? "+" : "-"}${text}%`;
}

const counts = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A whole count with thousands separators: 12345 → "12,345". */
export function formatCount(value: number): string {
  return counts.format(value);
}

/** Share volume in millions with one decimal: 12,345,678 → "12.3M". */
export function formatVolume(value: number): string {
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** "positive", "negative" or "neutral" for a signed figure. */
export function signOf(value: number | null | undefined): "positive" | "negative" | "neutral" {
  if (value === null || value === undefined || value === 0 || !Number.isFinite(value)) return "neutral";
  return value > 0 ? "positive" : "negative";
}

/** Text colour for a gain, a loss or neither (the -strong shades keep 4.5:1 in both themes). */
export const SIGN_TEXT_CLASS = {
  positive: "text-positive-strong",
  negative: "text-destructive-strong",
  neutral: "text-muted-foreground",
} as const;

const hasValue = (value: number | null | undefined): value is number => value != null && Number.isFinite(value);

/** A plain figure (a ratio such as Sharpe or profit factor, an RSI, a Greek) with two decimals (or `digits`), or "—" when there is none. */
export function formatRatio(value: number | null | undefined, digits = 2): string {
  return hasValue(value) ? value.toFixed(digits) : NO_VALUE;
}

/** A percentage, or "—" when there is none: 62.50% */
export function formatPercentOrDash(value: number | null | undefined, digits = 1): string {
  return hasValue(value) ? formatPercent(value, digits) : NO_VALUE;
}

/**
 * A heuristic score out of 100, rounded: 74 → "74/100"; "—" when there is none. A signal's
 * `confidence` is such a score (how strongly its strategy's conditions are met), not a
 * probability, so it is never shown as a percentage (docs/decisions.md#20-a-percentage-is-a-probability).
 */
export function formatScore(value: number | null | undefined): string {
  return hasValue(value) ? `${Math.round(value)}/100` : NO_VALUE;
}

/** A fraction shown as a percentage (−0.1234 → "-12.34%"), or "—" when there is none. */
export function formatFractionPercent(value: number | null | undefined, digits = 2): string {
  if (!hasValue(value)) return NO_VALUE;
  const text = formatPercent(value * 100, digits);
  return Number(text.replace("%", "")) === 0 ? formatPercent(0, digits) : text;
}

/** A whole number of days: "1 day", "12 days". */
export function formatDayCount(count: number): string {
  return `${count} ${count === 1 ? "day" : "days"}`;
}

/** A holding period in days with one decimal ("4.5 days"), or "—" when there is none. */
export function formatDays(value: number | null | undefined): string {
  if (!hasValue(value)) return NO_VALUE;
  const text = value.toFixed(1);
  return `${text} ${text === "1.0" ? "day" : "days"}`;
}

/** Money with two decimals, or "—" when there is none; with its sign when `signed`. */
export function formatMoney(value: number | null | undefined, { signed = false } = {}): string {
  if (!hasValue(value)) return NO_VALUE;
  return signed ? formatSignedCurrency(value) : formatCurrency(value);
}

/**
 * Billing money: whole US cents, shown exactly in US dollars whatever the display currency
 * (billing is always in USD): 143000 → "$1,430.00", 4900 → "$49.00", -250 → "-$2.50".
 */
export function formatUsdCents(cents: number): string {
  if (!Number.isFinite(cents)) return NO_VALUE;
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const text = `$${counts.format(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
  return whole < 0 ? `-${text}` : text;
}
