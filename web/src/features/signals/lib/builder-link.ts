import type { LegInput, Signal } from "@/lib/api/models";
import { strategyBuilderPath } from "@/lib/strategy-link";

/**
 * The signal's contract as the strategy builder's legs: a CALL one long call, a PUT one long
 * put, each at the signal's entry price (premium per share); a STRADDLE a long call and a long
 * put at the strike, without entry prices, since the signal's entry price is the two together
 * and the builder prices each leg at the model. Null when the signal has no contract to show
 * (a locked signal, or no type, strike or expiration).
 */
export function signalLegs(signal: Signal): LegInput[] | null {
  const { signalType, strikePrice, expirationDate } = signal;
  if (signal.locked || !signalType || strikePrice == null || !expirationDate) return null;
  const leg = (instrument: LegInput["instrument"]): LegInput => ({
    instrument,
    side: "long",
    quantity: 1,
    strike: strikePrice,
    expirationDate,
  });
  if (signalType === "STRADDLE") return [leg("call"), leg("put")];
  const single = leg(signalType === "CALL" ? "call" : "put");
  if (signal.entryPrice != null) single.entryPrice = signal.entryPrice;
  return [single];
}

/** The strategy builder with the signal's legs filled in ("/strategy-builder?s=…"), or null (see `signalLegs`). */
export function builderLinkForSignal(signal: Signal): string | null {
  const legs = signalLegs(signal);
  return legs ? strategyBuilderPath({ symbol: signal.symbol, legs }) : null;
}
