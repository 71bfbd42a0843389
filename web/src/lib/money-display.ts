import { useSyncExternalStore } from "react";
import type { DisplayCurrency } from "./api/models";

/**
 * The currency money is shown in. Amounts are stored and sent in US dollars; with another
 * display currency `formatCurrency` (lib/format.ts) converts them at `perUsd` (units of the
 * currency one dollar buys, from GET /api/exchange-rates). Set by the settings feature's
 * `UserSettingsSync` while signed in; dollars otherwise.
 */
export type MoneyDisplay = { readonly currency: DisplayCurrency; readonly perUsd: number };

export const USD_DISPLAY: MoneyDisplay = Object.freeze({ currency: "USD", perUsd: 1 });

let current: MoneyDisplay = USD_DISPLAY;
const listeners = new Set<() => void>();

/**
 * Shows money in `next` from now on (null: US dollars). A rate that is not a positive finite
 * number falls back to dollars. Subscribers are told of a change.
 */
export function setMoneyDisplay(next: MoneyDisplay | null): void {
  const valid = next && next.currency !== "USD" && Number.isFinite(next.perUsd) && next.perUsd > 0 ? next : USD_DISPLAY;
  if (valid.currency === current.currency && valid.perUsd === current.perUsd) return;
  current = valid === USD_DISPLAY ? USD_DISPLAY : Object.freeze({ currency: valid.currency, perUsd: valid.perUsd });
  for (const listener of listeners) listener();
}

/** The currency money is shown in now, and its rate per US dollar. */
export function getMoneyDisplay(): MoneyDisplay {
  return current;
}

export function subscribeMoneyDisplay(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The display currency, re-rendering on a change. The route table reads it, so a change
 * re-renders every page and every amount formatted during render follows.
 */
export function useMoneyDisplay(): MoneyDisplay {
  return useSyncExternalStore(subscribeMoneyDisplay, getMoneyDisplay, getMoneyDisplay);
}
