import type { CustomStrategyDocument } from "@/lib/api/models";
import { percentText } from "./rule";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Which strike a document buys, in words: "at the money", "1 strike out of the money", "delta 0.30". */
export function strikeText(strike: CustomStrategyDocument["strike"]): string {
  if (strike.delta != null) return `delta ${strike.delta.toFixed(2)}`;
  const offset = strike.offset ?? 0;
  if (offset === 0) return "at the money";
  return `${plural(Math.abs(offset), "strike", "strikes")} ${offset > 0 ? "out of" : "in"} the money`;
}

/** How far out a document's expiration is, in words: "30+ days", or "21+ days, monthly" for the first third Friday that far out. */
export function expiryText(doc: CustomStrategyDocument): string {
  return doc.monthly ? `${doc.minDays}+ days, monthly` : `${doc.minDays}+ days`;
}

/** What a document opens, in one line: "CALL at the money, 30+ days". */
export function opensText(doc: CustomStrategyDocument): string {
  return `${doc.opens} ${strikeText(doc.strike)}, ${expiryText(doc)}`;
}

/** How a document closes, in one line: "+50% / −30%, after 10 days". */
export function exitsText(doc: CustomStrategyDocument): string {
  const { targetGain, stopLoss, maxDays } = doc.exits;
  const held = maxDays != null ? `closed after ${plural(maxDays, "day", "days")}` : "held to expiry";
  return `+${percentText(targetGain)}% / −${percentText(stopLoss)}%, ${held}`;
}

/**
 * A custom AI strategy's minimum model score, in one line: "model score ≥ 60"; null when the rule
 * alone decides. The model is calibrated on the house strategies' signals, not on a custom rule's
 * setups, so its figure there is a score out of 100, never a percentage (docs/decisions.md §20).
 */
export function modelText(doc: CustomStrategyDocument): string | null {
  return doc.minProbability != null ? `model score ≥ ${percentText(doc.minProbability)}` : null;
}

/**
 * The model's score of a setup (its `modelProbability`, 0–1) out of 100 ("62/100"), with a
 * decimal when rounding would put it on the wrong side of the `minimum` it is held to (59.6/100
 * does not clear 60). Not a chance of a win: on a custom rule's setups it is uncalibrated.
 */
export function modelScoreText(probability: number, minimum: number | null = null, clears = true): string {
  return `${modelScoreNumber(probability, minimum, clears)}/100`;
}

/** The number of `modelScoreText` without "/100": "62", "59.6". */
export function modelScoreNumber(probability: number, minimum: number | null = null, clears = true): string {
  const points = probability * 100;
  if (minimum === null) return `${Math.round(points)}`;
  const least = Number(percentText(minimum));
  for (let digits = 0; digits <= 4; digits++) {
    const shown = Number(points.toFixed(digits));
    if (shown >= least === clears) return `${shown}`;
  }
  return `${Number(points.toFixed(6))}`;
}
