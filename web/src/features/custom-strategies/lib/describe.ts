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

/** What a document opens, in one line: "CALL at the money, 30+ days". */
export function opensText(doc: CustomStrategyDocument): string {
  return `${doc.opens} ${strikeText(doc.strike)}, ${doc.minDays}+ days`;
}

/** How a document closes, in one line: "+50% / −30%, after 10 days". */
export function exitsText(doc: CustomStrategyDocument): string {
  const { targetGain, stopLoss, maxDays } = doc.exits;
  const held = maxDays != null ? `closed after ${plural(maxDays, "day", "days")}` : "held to expiry";
  return `+${percentText(targetGain)}% / −${percentText(stopLoss)}%, ${held}`;
}
