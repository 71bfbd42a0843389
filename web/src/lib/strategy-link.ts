import type { ExerciseStyle, LegInput } from "@/lib/api/models";

// The strategy builder's shareable links: `/strategy-builder?s=` holds the position as base64url
// JSON (symbol, legs as the API takes them, exercise, horizon date, shift in points). Version 1.
// Shared, so a feature can link to a position in the builder without importing the builder
// (features/strategy-builder/lib/builder.ts turns it into the editor's state and back).

/** The builder's route. */
export const STRATEGY_BUILDER_PATH = "/strategy-builder";
/** The search parameter that holds the position. */
export const STRATEGY_LINK_PARAM = "s";

/** What a link carries. */
export type StrategyLink = {
  symbol: string;
  legs: LegInput[];
  /** Absent for American. */
  exercise?: ExerciseStyle;
  /** YYYY-MM-DD; absent for today. */
  horizonDate?: string;
  /** Volatility points added to every leg; absent for none. */
  shift?: number;
};

/** The JSON a link's parameter holds. */
export type StrategyLinkJson = StrategyLink & { v: 1 };

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(value: string): string {
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** `link` as the `s` search parameter's value. */
export function encodeStrategyLink(link: StrategyLink): string {
  const json: StrategyLinkJson = { v: 1, symbol: link.symbol, legs: link.legs };
  if (link.exercise) json.exercise = link.exercise;
  if (link.horizonDate) json.horizonDate = link.horizonDate;
  if (link.shift) json.shift = link.shift;
  return toBase64Url(JSON.stringify(json));
}

/** The JSON an `s` parameter holds, unchecked (the builder checks it), or null when it is not base64url JSON. */
export function parseStrategyLink(param: string | null): unknown {
  if (!param) return null;
  try {
    return JSON.parse(fromBase64Url(param));
  } catch {
    return null;
  }
}

/** The builder's address with `link` in it: "/strategy-builder?s=…". */
export function strategyBuilderPath(link: StrategyLink): string {
  return `${STRATEGY_BUILDER_PATH}?${STRATEGY_LINK_PARAM}=${encodeStrategyLink(link)}`;
}
