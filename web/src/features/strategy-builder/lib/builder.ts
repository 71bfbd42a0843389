import { EXERCISE_STYLES, INSTRUMENTS, SIDES } from "@/lib/api/enums";
import type { AnalysisRequest, ExerciseStyle, Instrument, LegInput, Side, TemplateName } from "@/lib/api/models";
import type { ChainPick } from "@/lib/options";
import { encodeStrategyLink, parseStrategyLink } from "@/lib/strategy-link";

/** At most this many legs (the server's limit). */
export const MAX_LEGS = 8;
/** The volatility shift's range, in volatility points (the request takes fractions: 5 points = 0.05). */
export const SHIFT_POINTS_LIMIT = 50;

/** One leg as the editor holds it: the inputs' text, parsed when the request is built. */
export type LegDraft = {
  key: number;
  instrument: Instrument;
  side: Side;
  quantity: string;
  strike: string;
  expirationDate: string;
  entryPrice: string;
  /** Implied volatility in percent ("32.5"); empty for the stock's estimate. */
  volatility: string;
};

/** Everything the builder analyses, and what a shared link carries. */
export type BuilderState = {
  symbol: string;
  legs: LegDraft[];
  exercise: ExerciseStyle;
  /** YYYY-MM-DD; empty for today. */
  horizonDate: string;
  /** Volatility points added to every leg (−50 to 50). */
  shiftPoints: number;
};

export const EMPTY_STATE: BuilderState = { symbol: "", legs: [], exercise: "american", horizonDate: "", shiftPoints: 0 };

let nextKey = 1;
/** A fresh key for a leg (React's list key; never sent). */
export function legKey(): number {
  return nextKey++;
}

/** The leg field a draft's input edits, as the server names it in `legs[i].field`. */
export type LegField = "instrument" | "side" | "quantity" | "strike" | "expirationDate" | "entryPrice" | "volatility";

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
/** 0.3 → "30" (percent, without floating-point noise). */
const percentText = (fraction: number | null | undefined) =>
  fraction === null || fraction === undefined ? "" : String(Number((fraction * 100).toFixed(4)));

/** A leg from the server (a template's, a shared link's) as the editor holds it. */
export function draftOf(leg: LegInput): LegDraft {
  return {
    key: legKey(),
    instrument: leg.instrument,
    side: leg.side,
    quantity: String(leg.quantity),
    strike: text(leg.strike),
    expirationDate: leg.expirationDate ?? "",
    entryPrice: text(leg.entryPrice),
    volatility: percentText(leg.volatility),
  };
}

/** A new leg: one long call, its terms to fill in (the strike and expiry of the last option leg, if any). */
export function newDraft(previous: readonly LegDraft[]): LegDraft {
  const option = [...previous].reverse().find((l) => l.instrument !== "stock");
  return {
    key: legKey(),
    instrument: "call",
    side: "long",
    quantity: "1",
    strike: option?.strike ?? "",
    expirationDate: option?.expirationDate ?? "",
    entryPrice: "",
    volatility: "",
  };
}

/**
 * A leg from a contract picked on the chain: one contract of its right, bought at the ask
 * (long) or sold at the bid (short), its strike, expiration, entry price and implied
 * volatility as the chain quoted them.
 */
export function draftFromPick(pick: ChainPick): LegDraft {
  return {
    key: legKey(),
    instrument: pick.right,
    side: pick.side,
    quantity: "1",
    strike: String(pick.strike),
    expirationDate: pick.expiration,
    entryPrice: pick.price.toFixed(2),
    volatility: percentText(pick.impliedVolatility),
  };
}

export type LegErrors = Partial<Record<LegField, string>>;

const number = (value: string): number | null => {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : Number.NaN;
};

/**
 * A draft as the request's leg, or what is missing or malformed in it (the server judges the
 * ranges: strikes in whole cents, dates, quantities' limits).
 */
export function legOf(draft: LegDraft): { leg: LegInput } | { errors: LegErrors } {
  const errors: LegErrors = {};
  const quantity = number(draft.quantity);
  if (quantity === null || !Number.isInteger(quantity) || quantity < 1) errors.quantity = "Enter a whole number of at least 1.";
  const entryPrice = number(draft.entryPrice);
  if (Number.isNaN(entryPrice) || (entryPrice !== null && entryPrice < 0))
    errors.entryPrice = "Enter a price in dollars, or leave it empty.";
  const leg: LegInput = { instrument: draft.instrument, side: draft.side, quantity: quantity ?? 0 };
  if (entryPrice !== null && !Number.isNaN(entryPrice)) leg.entryPrice = entryPrice;
  if (draft.instrument !== "stock") {
    const strike = number(draft.strike);
    if (strike === null || Number.isNaN(strike) || strike <= 0) errors.strike = "Enter the strike in dollars.";
    else leg.strike = strike;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.expirationDate)) errors.expirationDate = "Choose the expiration date.";
    else leg.expirationDate = draft.expirationDate;
    const volatility = number(draft.volatility);
    if (Number.isNaN(volatility) || (volatility !== null && volatility <= 0)) errors.volatility = "Enter a percentage, or leave it empty.";
    else if (volatility !== null) leg.volatility = Number((volatility / 100).toFixed(6));
  }
  return Object.keys(errors).length > 0 ? { errors } : { leg };
}

/** The analysis request for `state`, or each leg's errors when one cannot be sent. Null with no symbol or no legs. */
export function requestOf(state: BuilderState): { request: AnalysisRequest } | { legErrors: LegErrors[] } | null {
  if (!state.symbol || state.legs.length === 0) return null;
  const results = state.legs.map(legOf);
  if (results.some((r) => "errors" in r)) return { legErrors: results.map((r) => ("errors" in r ? r.errors : {})) };
  const request: AnalysisRequest = {
    symbol: state.symbol,
    legs: results.map((r) => ("leg" in r ? r.leg : (undefined as never))),
    exercise: state.exercise,
  };
  if (state.horizonDate) request.horizonDate = state.horizonDate;
  if (state.shiftPoints !== 0) request.volatilityShift = state.shiftPoints / 100;
  return { request };
}

/**
 * The name the server gives a saved position left unnamed: the template's name with the
 * ticker ("AAPL iron condor"), else "AAPL custom (3 legs)".
 */
export function defaultStructureName(symbol: string, template: TemplateName | undefined, legCount: number): string {
  return template ? `${symbol} ${template.replace(/-/g, " ")}` : `${symbol} custom (${legCount} legs)`;
}

/** A server field path split: `legs[1].strike` → { leg: 1, field: "strike" }; other fields → { field }. */
export function fieldPath(path: string): { leg: number; field: string } | { field: string } {
  const match = /^legs\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (match) return { leg: Number(match[1]), field: match[2] ?? "" };
  return { field: path };
}

// Shared links: `?s=` holds the state as base64url JSON, in the format of @/lib/strategy-link
// (which other features use to open a position here).

/** The legs of `state` as the API takes them, leaving out what cannot be parsed yet (empty terms stay absent). */
function sharedLeg(draft: LegDraft): LegInput {
  const result = legOf(draft);
  if ("leg" in result) return result.leg;
  const partial: LegInput = { instrument: draft.instrument, side: draft.side, quantity: Number(draft.quantity) || 1 };
  const strike = Number(draft.strike);
  if (draft.instrument !== "stock" && draft.strike && Number.isFinite(strike)) partial.strike = strike;
  if (draft.instrument !== "stock" && draft.expirationDate) partial.expirationDate = draft.expirationDate;
  return partial;
}

/** `state` as the `s` search parameter. */
export function encodeState(state: BuilderState): string {
  return encodeStrategyLink({
    symbol: state.symbol,
    legs: state.legs.map(sharedLeg),
    exercise: state.exercise !== "american" ? state.exercise : undefined,
    horizonDate: state.horizonDate || undefined,
    shift: state.shiftPoints !== 0 ? state.shiftPoints : undefined,
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const optionalNumber = (value: unknown) => value === undefined || value === null || (typeof value === "number" && Number.isFinite(value));

function isLeg(value: unknown): value is LegInput {
  return (
    isObject(value) &&
    (INSTRUMENTS as readonly unknown[]).includes(value.instrument) &&
    (SIDES as readonly unknown[]).includes(value.side) &&
    typeof value.quantity === "number" &&
    optionalNumber(value.strike) &&
    optionalNumber(value.entryPrice) &&
    optionalNumber(value.volatility) &&
    (value.expirationDate === undefined || value.expirationDate === null || typeof value.expirationDate === "string")
  );
}

/** The state a shared link's `s` parameter holds, or null when it is missing or not one. */
export function decodeState(param: string | null): BuilderState | null {
  const value = parseStrategyLink(param);
  if (!isObject(value) || value.v !== 1 || typeof value.symbol !== "string" || !Array.isArray(value.legs)) return null;
  const legs = value.legs.slice(0, MAX_LEGS);
  if (!legs.every(isLeg)) return null;
  const exercise = (EXERCISE_STYLES as readonly unknown[]).includes(value.exercise) ? (value.exercise as ExerciseStyle) : "american";
  const horizonDate = typeof value.horizonDate === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value.horizonDate) ? value.horizonDate : "";
  const shift = typeof value.shift === "number" && Number.isFinite(value.shift) ? value.shift : 0;
  return {
    symbol: value.symbol.toUpperCase().slice(0, 12),
    legs: legs.map(draftOf),
    exercise,
    horizonDate,
    shiftPoints: Math.max(-SHIFT_POINTS_LIMIT, Math.min(SHIFT_POINTS_LIMIT, Math.round(shift))),
  };
}
