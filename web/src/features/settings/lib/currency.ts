import type { DisplayCurrency } from "@/lib/api/models";

/** The display currencies' names in the currency select. */
export const CURRENCY_LABELS: Record<DisplayCurrency, string> = {
  USD: "US Dollar ($)",
  EUR: "Euro (€)",
  GBP: "British Pound (£)",
};

/**
 * What converts and what never does (docs/currency.md): the terms and quotes of a US instrument
 * stay in its US dollars; money held, made or allowed follows the display currency.
 */
export const CURRENCY_SCOPE_NOTE =
  "Strikes, option prices and stock quotes stay in US dollars; values, P&L, capital and limits are shown in your currency.";
