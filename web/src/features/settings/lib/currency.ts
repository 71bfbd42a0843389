import type { DisplayCurrency } from "@/lib/api/models";

/** The display currencies' names in the currency select. */
export const CURRENCY_LABELS: Record<DisplayCurrency, string> = {
  USD: "US Dollar ($)",
  EUR: "Euro (€)",
  GBP: "British Pound (£)",
};
