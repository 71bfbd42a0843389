import type { ParamsRequest } from "@/lib/api/models";

/** A custom strategy parameter's name in the request (`BacktestRequest.params`, Premium). */
export type ParamKey = keyof ParamsRequest;

export type ParamGroup = "Momentum" | "Mean Reversion" | "Breakout" | "Volatility" | "Exits" | "Expiry";

type ParamSpec = {
  label: string;
  group: ParamGroup;
  /** The live engine's value, used when the field is left out. */
  defaultValue: number;
  min: number;
  max: number;
  step: number;
  integer?: boolean;
  hint: string;
};

/**
 * Every parameter of `ParamsRequest` with the engine's default and allowed range
 * (docs/strategies.md, "Custom parameters"; the server checks the same ranges and names the
 * field it refuses, `params.<name>`). A Record, so a parameter added to the schema fails the
 * type check here until it is described.
 */
export const PARAMS: Record<ParamKey, ParamSpec> = {
  momentumRsiLow: {
    label: "Momentum RSI low",
    group: "Momentum",
    defaultValue: 50,
    min: 1,
    max: 99,
    step: 1,
    hint: "CALL when RSI is in the zone; PUT in its mirror.",
  },
  momentumRsiHigh: {
    label: "Momentum RSI high",
    group: "Momentum",
    defaultValue: 70,
    min: 1,
    max: 99,
    step: 1,
    hint: "At least 1 above the low.",
  },
  oversoldRsi: {
    label: "Oversold RSI",
    group: "Mean Reversion",
    defaultValue: 30,
    min: 1,
    max: 50,
    step: 1,
    hint: "CALL when RSI is below it.",
  },
  overboughtRsi: {
    label: "Overbought RSI",
    group: "Mean Reversion",
    defaultValue: 70,
    min: 50,
    max: 99,
    step: 1,
    hint: "PUT when RSI is above it.",
  },
  bollingerMultiplier: {
    label: "Bollinger width (σ)",
    group: "Mean Reversion",
    defaultValue: 2,
    min: 0.5,
    max: 4,
    step: 0.1,
    hint: "Standard deviations of the 20-day bands.",
  },
  breakoutLookback: {
    label: "Breakout look-back (bars)",
    group: "Breakout",
    defaultValue: 20,
    min: 5,
    max: 250,
    step: 1,
    integer: true,
    hint: "Bars of the prior range and volume.",
  },
  volumeMultiple: {
    label: "Breakout volume multiple",
    group: "Breakout",
    defaultValue: 1.5,
    min: 1.01,
    max: 5,
    step: 0.01,
    hint: "Volume above this multiple of the average.",
  },
  hvRankThreshold: {
    label: "HV rank below",
    group: "Volatility",
    defaultValue: 20,
    min: 1,
    max: 50,
    step: 1,
    hint: "HV20 rank threshold.",
  },
  hvPercentileThreshold: {
    label: "HV percentile below",
    group: "Volatility",
    defaultValue: 25,
    min: 1,
    max: 50,
    step: 1,
    hint: "HV20 percentile threshold.",
  },
  targetAtr: {
    label: "Target (ATR)",
    group: "Exits",
    defaultValue: 2,
    min: 0.25,
    max: 10,
    step: 0.25,
    hint: "ATRs in the trade's direction.",
  },
  stopAtr: {
    label: "Stop (ATR)",
    group: "Exits",
    defaultValue: 1,
    min: 0.25,
    max: 10,
    step: 0.25,
    hint: "ATRs against a directional trade.",
  },
  straddleStopFraction: {
    label: "Straddle stop (fraction)",
    group: "Exits",
    defaultValue: 0.5,
    min: 0.05,
    max: 0.95,
    step: 0.05,
    hint: "Fraction of the entry premium kept.",
  },
  minDaysDirectional: {
    label: "CALL/PUT expiry (days)",
    group: "Expiry",
    defaultValue: 21,
    min: 1,
    max: 365,
    step: 1,
    integer: true,
    hint: "Minimum days to expiry.",
  },
  minDaysStraddle: {
    label: "Straddle expiry (days)",
    group: "Expiry",
    defaultValue: 30,
    min: 1,
    max: 365,
    step: 1,
    integer: true,
    hint: "Minimum days to expiry.",
  },
};

export const PARAM_KEYS = Object.keys(PARAMS) as ParamKey[];
export const PARAM_GROUPS: readonly ParamGroup[] = ["Momentum", "Mean Reversion", "Breakout", "Volatility", "Exits", "Expiry"];

/** The parameters as typed (text, so a half-typed number can be shown and checked). */
export type ParamValues = Record<ParamKey, string>;

export const DEFAULT_PARAM_VALUES = Object.fromEntries(PARAM_KEYS.map((k) => [k, String(PARAMS[k].defaultValue)])) as ParamValues;

export type ParamErrors = Partial<Record<ParamKey, string>>;

const trim = (n: number) => String(Number(n.toFixed(4)));

/** What is wrong with each parameter: a number, whole where it must be, within its range; the RSI zone's high above its low. */
export function paramIssues(values: ParamValues): ParamErrors {
  const errors: ParamErrors = {};
  for (const key of PARAM_KEYS) {
    const spec = PARAMS[key];
    const text = values[key].trim();
    const value = Number(text);
    if (text === "" || !Number.isFinite(value)) errors[key] = "Enter a number.";
    else if (spec.integer && !Number.isInteger(value)) errors[key] = "Enter a whole number.";
    else if (value < spec.min || value > spec.max) errors[key] = `Must be between ${trim(spec.min)} and ${trim(spec.max)}.`;
  }
  if (!errors.momentumRsiLow && !errors.momentumRsiHigh && Number(values.momentumRsiHigh) < Number(values.momentumRsiLow) + 1) {
    errors.momentumRsiHigh = "Must be at least 1 above the Momentum RSI low.";
  }
  return errors;
}

/** The request's `params`: every parameter, as numbers (call after `paramIssues` found none). */
export function toParamsRequest(values: ParamValues): ParamsRequest {
  return Object.fromEntries(PARAM_KEYS.map((k) => [k, Number(values[k])])) as ParamsRequest;
}

/** The server names a refused parameter `params.<name>`: the input it belongs under, or null. */
export function paramKeyOfField(field: string): ParamKey | null {
  const name = field.startsWith("params.") ? field.slice("params.".length) : "";
  return (PARAM_KEYS as string[]).includes(name) ? (name as ParamKey) : null;
}

/** The parameters a run used, for its label: the ones that differ from the defaults ("Momentum RSI low: 55"). */
export function changedParams(
  params: ParamsRequest | null | undefined,
): { key: ParamKey; label: string; value: string; group: ParamGroup }[] {
  if (!params) return [];
  return PARAM_KEYS.flatMap((key) => {
    const value = params[key];
    if (value === null || value === undefined || value === PARAMS[key].defaultValue) return [];
    return [{ key, label: PARAMS[key].label, value: trim(value), group: PARAMS[key].group }];
  });
}
