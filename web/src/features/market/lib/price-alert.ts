import { z } from "zod";
import { ALERT_DIRECTIONS } from "@/lib/api/enums";
import type { AlertDirection, AlertStatus, NewPriceAlert } from "@/lib/api/models";
import { formatUsdCents } from "@/lib/format";

/** The price-alert form's fields, as typed (the price stays text until sent). */
export type PriceAlertValues = {
  symbol: string;
  direction: AlertDirection;
  targetPrice: string;
};

export const PRICE_ALERT_FIELDS = ["symbol", "direction", "targetPrice"] as const satisfies readonly (keyof PriceAlertValues)[];

export function priceAlertDefaults(symbol = ""): PriceAlertValues {
  return { symbol, direction: "above", targetPrice: "" };
}

export const DIRECTION_LABELS: Record<AlertDirection, string> = { above: "Above", below: "Below" };
export const ALERT_STATUS_LABELS: Record<AlertStatus, string> = { active: "Active", triggered: "Triggered" };

/** The server's largest target, in dollars. */
export const MAX_TARGET_PRICE = 1_000_000;

/** The server's ticker rule: a letter, then letters, digits, '.' or '-', 10 at most (upper-cased). */
const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;
const PRICE = /^\d+(\.\d{1,2})?$|^\.\d{1,2}$/;

/** The rules of POST /api/price-alerts, checked before sending (the server checks them again). */
export const priceAlertSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, "Enter a stock symbol")
    .refine((s) => SYMBOL.test(s.toUpperCase()), "Use a ticker such as AAPL or BRK.B"),
  direction: z.enum(ALERT_DIRECTIONS, { message: "Choose Above or Below" }),
  targetPrice: z.string().superRefine((text, ctx) => {
    const trimmed = text.trim();
    const value = Number(trimmed);
    const issue = !trimmed
      ? "Enter the target price"
      : !Number.isFinite(value) || value <= 0
        ? "The target price must be above 0"
        : value > MAX_TARGET_PRICE
          ? "At most $1,000,000"
          : !PRICE.test(trimmed)
            ? "Use at most two decimals"
            : null;
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  }),
});

/** The request body: the symbol upper-cased, the price parsed. */
export function toNewPriceAlert(values: PriceAlertValues): NewPriceAlert {
  return { symbol: values.symbol.trim().toUpperCase(), direction: values.direction, targetPrice: Number(values.targetPrice.trim()) };
}

/**
 * Dollars as US dollars, exactly ("$250.00"). Alerts compare the US-dollar quote, so their
 * prices are not converted to the display currency.
 */
export function formatUsd(dollars: number): string {
  return formatUsdCents(Math.round(dollars * 100));
}

/** "AAPL above $250.00". */
export function describeAlert(alert: { symbol: string; direction: AlertDirection; targetPrice: number }): string {
  return `${alert.symbol} ${DIRECTION_LABELS[alert.direction].toLowerCase()} ${formatUsd(alert.targetPrice)}`;
}
