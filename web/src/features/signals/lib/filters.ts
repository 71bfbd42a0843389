import {
  CONFIDENCE_BANDS,
  type ConfidenceBand,
  isOneOf,
  MAX_COSTS,
  type MaxCost,
  OPTION_TYPES,
  type OptionType,
  SIGNAL_STATUSES,
  type SignalStatus,
  TRADED_STRATEGIES,
  type TradedStrategy,
} from "@/lib/api/enums";
import { formatCurrency } from "@/lib/format";
import type { SignalFilters } from "../api/get-signals";

/** The "All" option of every select. Never sent: the query leaves the filter out. */
export const ALL = "all";
export type All = typeof ALL;

/** What the filter bar shows: the symbol text and each select, "all" meaning no filter. */
export type FilterState = {
  symbol: string;
  strategy: TradedStrategy | All;
  signalType: OptionType | All;
  status: SignalStatus | All;
  maxCost: MaxCost | All;
  riskLevel: ConfidenceBand | All;
};

export const EMPTY_FILTERS: FilterState = {
  symbol: "",
  strategy: ALL,
  signalType: ALL,
  status: ALL,
  maxCost: ALL,
  riskLevel: ALL,
};

type Option<T extends string> = { value: T | All; label: string };

/** The four house rules, and "Custom": the signals of the user's own custom strategies (only they see them). */
export const STRATEGY_OPTIONS: Option<TradedStrategy>[] = [
  { value: ALL, label: "All Strategies" },
  ...TRADED_STRATEGIES.map((s) => ({ value: s, label: s === "Custom" ? "My custom" : s })),
];

export const TYPE_OPTIONS: Option<OptionType>[] = [
  { value: ALL, label: "All Types" },
  ...OPTION_TYPES.map((t) => ({ value: t, label: t })),
];

export const STATUS_OPTIONS: Option<SignalStatus>[] = [
  { value: ALL, label: "All Statuses" },
  { value: "active", label: "Active" },
  { value: "closed", label: "Closed" },
  { value: "expired", label: "Expired" },
];

/** The server's cost bands per contract, in US dollars: above `from`, at most `to`; null for open-ended. */
const MAX_COST_BANDS: Record<MaxCost, readonly [number | null, number | null]> = {
  "under-50": [null, 50],
  "50-100": [50, 100],
  "100-250": [100, 250],
  "250-500": [250, 500],
  "over-500": [500, null],
};

/** An amount of a band in the display currency, without ".00": "$50", "€43.17". */
const bandAmount = (usd: number) => formatCurrency(usd).replace(/\.00$/, "");

/**
 * "Under $50", "$50 – $100", … ("Under €43.17" in euros): a contract's cost is money, so the
 * bands (set in dollars by the server) read in the display currency, like every other amount.
 * Made when shown, so a change of display currency is followed.
 */
export function maxCostLabel(band: MaxCost): string {
  const [from, to] = MAX_COST_BANDS[band];
  if (from === null) return `Under ${bandAmount(to ?? 0)}`;
  if (to === null) return `Over ${bandAmount(from)}`;
  return `${bandAmount(from)} – ${bandAmount(to)}`;
}

/** The cost select's options, labelled in the display currency now. */
export function maxCostOptions(): Option<MaxCost>[] {
  return [{ value: ALL, label: "Any Cost" }, ...MAX_COSTS.map((c) => ({ value: c, label: maxCostLabel(c) }))];
}

export const RISK_OPTIONS: Option<ConfidenceBand>[] = [
  { value: ALL, label: "All Risk Levels" },
  { value: "low", label: "Low (strength under 30/100)" },
  { value: "medium", label: "Medium (strength 30–70/100)" },
  { value: "high", label: "High (strength over 70/100)" },
];

/** Symbol text as a ticker prefix: upper case, letters, digits, "." and "-" only, at most 10. */
export function cleanSymbol(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9.-]/g, "")
    .slice(0, 10);
}

/** The API filters for what the bar shows: "All" and a blank symbol are left out. */
export function toSignalFilters(state: FilterState): SignalFilters {
  const filters: SignalFilters = {};
  const symbol = cleanSymbol(state.symbol.trim());
  if (symbol) filters.symbol = symbol;
  if (state.strategy !== ALL) filters.strategy = state.strategy;
  if (state.signalType !== ALL) filters.signalType = state.signalType;
  if (state.status !== ALL) filters.status = state.status;
  if (state.maxCost !== ALL) filters.maxCost = state.maxCost;
  if (state.riskLevel !== ALL) filters.riskLevel = state.riskLevel;
  return filters;
}

/** Whether any filter is set. */
export function hasFilters(state: FilterState): boolean {
  return Object.keys(toSignalFilters(state)).length > 0;
}

function pick<T extends string>(value: string | null, allowed: readonly T[]): T | All {
  return isOneOf(allowed, value) ? value : ALL;
}

/** Filters read from a URL's query (the /signals page keeps them there); unknown values read as "All". */
export function filtersFromSearch(params: URLSearchParams): FilterState {
  return {
    symbol: cleanSymbol(params.get("symbol") ?? ""),
    strategy: pick(params.get("strategy"), TRADED_STRATEGIES),
    signalType: pick(params.get("signalType"), OPTION_TYPES),
    status: pick(params.get("status"), SIGNAL_STATUSES),
    maxCost: pick(params.get("maxCost"), MAX_COSTS),
    riskLevel: pick(params.get("riskLevel"), CONFIDENCE_BANDS),
  };
}

/** The filters as URL query parameters, "All" and a blank symbol left out. */
export function filtersToSearch(state: FilterState): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(toSignalFilters(state))) params.set(key, value);
  return params;
}
