import type { IndicatorInfo, IndicatorKind, IndicatorName, RuleLanguage } from "@/lib/api/models";

/**
 * What a custom strategy's rule can read (docs/strategies.md §11), as the builder shows it. The
 * indicators, their kinds and labels and the rule's limits are the server's
 * (`GET /api/strategies/custom/language`, `RuleLanguage`); only the wording around them (group
 * headings, units) is the builder's, keyed by the server's five kinds.
 */

/** The first character in upper case: the server's "upper Bollinger band" as a select shows it. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An indicator of the language, or undefined when this server does not read `name`. */
export function indicatorInfo(language: RuleLanguage, name: IndicatorName): IndicatorInfo | undefined {
  return language.indicators.find((i) => i.name === name);
}

/** The kind of `name`, or undefined when this server does not read it. */
export function kindOf(language: RuleLanguage, name: IndicatorName): IndicatorKind | undefined {
  return indicatorInfo(language, name)?.kind;
}

/** How the server's reasoning names `name` ("close", "EMA(20)"); the name itself when it does not read it. */
export function labelOf(language: RuleLanguage, name: IndicatorName): string {
  return indicatorInfo(language, name)?.label ?? name;
}

/** How a select names `name`: the server's label, capitalised ("Close", "Upper Bollinger band"). */
export function displayLabel(language: RuleLanguage, name: IndicatorName): string {
  return capitalise(labelOf(language, name));
}

/** `value` when it names an indicator of the language (a select's value, checked). */
export function isIndicator(language: RuleLanguage, value: string): value is IndicatorName {
  return language.indicators.some((i) => i.name === value);
}

/** Each kind's heading in the indicator selects. */
export const KIND_HEADINGS: Record<IndicatorKind, string> = {
  price: "Prices (dollars)",
  momentum: "MACD",
  points: "0–100 readings (points)",
  volatility: "Volatility (percent)",
  volume: "Volume (shares)",
};

export type KindGroup = { kind: IndicatorKind; label: string; indicators: readonly IndicatorInfo[] };

/** The language's indicators grouped by kind: the kinds in the order they first appear, each group in the server's order. */
export function kindGroups(language: RuleLanguage): KindGroup[] {
  const groups = new Map<IndicatorKind, IndicatorInfo[]>();
  for (const info of language.indicators) groups.set(info.kind, [...(groups.get(info.kind) ?? []), info]);
  return [...groups].map(([kind, indicators]) => ({ kind, label: KIND_HEADINGS[kind], indicators }));
}

/** A kind as the server's message says it ("RSI(14) is a 0–100 reading, close is a price"). */
export const KIND_DESCRIPTIONS: Record<IndicatorKind, string> = {
  price: "a price",
  momentum: "a MACD value",
  points: "a 0–100 reading",
  volatility: "a volatility",
  volume: "a volume",
};

/** The unit a number compared with an indicator of `kind` is in. */
export const NUMBER_UNITS: Record<IndicatorKind, string> = {
  price: "In dollars a share.",
  momentum: "In dollars, around 0 (MACD values).",
  points: "In points, 0–100.",
  volatility: "In percent: 25 means 25%.",
  volume: "In shares.",
};

/** The short unit shown beside the number ("$", "pts", "%", "shares"). */
export const NUMBER_SUFFIXES: Record<IndicatorKind, string> = {
  price: "$",
  momentum: "$",
  points: "pts",
  volatility: "%",
  volume: "shares",
};
