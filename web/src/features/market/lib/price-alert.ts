import { z } from "zod";
import { ALERT_DIRECTIONS } from "@/lib/api/enums";
import type { AlertDirection, AlertStatus, NewPriceAlert } from "@/lib/api/models";
import { formatContractPrice } from "@/lib/format";

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
 * "AAPL above $250.00" ("AAPL above US$250.00" when money is shown in another currency): an
 * alert compares the stock's US-dollar quote, so its prices are never converted.
 */
export function describeAlert(alert: { symbol: string; direction: AlertDirection; targetPrice: number }): string {
  return `${alert.symbol} ${DIRECTION_LABELS[alert.direction].toLowerCase()} ${formatContractPrice(alert.targetPrice)}`;
}

/**
 * Whether the alert's target is already reached at `price`, so the next price update would
 * trigger it at once. The server's rule: above fires when the price is at or above the target,
 * below when it is at or below.
 */
export function alreadyCrossed(alert: Pick<NewPriceAlert, "direction" | "targetPrice">, price: number): boolean {
  if (!Number.isFinite(price) || price <= 0) return false;
  return alert.direction === "above" ? price >= alert.targetPrice : price <= alert.targetPrice;
}

/** "AAPL is already above $380.00 (at $382.10 now): the alert would fire at once. Create it anyway?" (US dollars always). */
export function crossedWarning(alert: NewPriceAlert, price: number): string {
  return `${alert.symbol} is already ${DIRECTION_LABELS[alert.direction].toLowerCase()} ${formatContractPrice(alert.targetPrice)} (at ${formatContractPrice(price)} now): the alert would fire at once. Create it anyway?`;
}

/** Whether two alerts ask for the same thing. */
export function sameAlert(a: NewPriceAlert, b: NewPriceAlert): boolean {
  return a.symbol === b.symbol && a.direction === b.direction && a.targetPrice === b.targetPrice;
}
