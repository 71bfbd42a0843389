import { isOneOf, ORDER_STATES, type OrderState, STANDING_ORDER_STATES } from "@/lib/api/enums";
import type { OrderLegView, OrderView } from "@/lib/api/models";
import { formatContractPrice, formatMoney, NO_VALUE } from "@/lib/format";

/** Each state as the status badge reads it. */
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  new: "New",
  accepted: "Accepted",
  partially_filled: "Partially filled",
  filled: "Filled",
  cancelled: "Cancelled",
  rejected: "Rejected",
};

/** The badge's text for a state; a state this build does not know reads as sent. */
export function orderStateLabel(status: string): string {
  return isOneOf(ORDER_STATES, status) ? ORDER_STATE_LABELS[status] : status;
}

/** Whether the order still stands (new, accepted, partially filled): only such an order can be cancelled. */
export function isStanding(order: Pick<OrderView, "status">): boolean {
  return isOneOf(STANDING_ORDER_STATES, order.status);
}

/** The Orders card's filters: every order, those still standing, those filled, those that ended unfilled or part filled. */
export const ORDER_FILTERS = ["all", "open", "filled", "ended"] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** Each filter's chip. */
export const ORDER_FILTER_LABELS: Record<OrderFilter, string> = {
  all: "All",
  open: "Open",
  filled: "Filled",
  ended: "Rejected or cancelled",
};

/** Whether `order` is in `filter` (a state this build does not know is only in "All"). */
export function inFilter(order: Pick<OrderView, "status">, filter: OrderFilter): boolean {
  switch (filter) {
    case "all":
      return true;
    case "open":
      return isStanding(order);
    case "filled":
      return order.status === "filled";
    case "ended":
      return order.status === "rejected" || order.status === "cancelled";
  }
}

const monthDay = new Intl.DateTimeFormat("en-US", { month: "numeric", day: "numeric", timeZone: "UTC" });

/** An expiration as options are quoted: "2026-12-18" → "12/18" (a calendar date, not a moment). */
export function formatExpiry(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : monthDay.format(date);
}

/** A strike in US dollars, never converted, without empty cents: 190 → "$190", 187.5 → "$187.50". */
export function formatStrike(strike: number): string {
  return formatContractPrice(strike).replace(/\.00$/, "");
}

/**
 * One leg on one line: "AAPL CALL $190 12/18"; a sold leg starts with "Sell", a leg of more
 * than one contract per unit with its ratio ("Sell 2 × AAPL PUT $180 12/18").
 */
export function legLabel(underlying: string, leg: OrderLegView): string {
  const side = leg.side === "sell" ? "Sell " : "";
  const ratio = leg.ratio > 1 ? `${leg.ratio} × ` : "";
  return `${side}${ratio}${underlying} ${leg.right.toUpperCase()} ${formatStrike(leg.strike)} ${formatExpiry(leg.expiration)}`;
}

/** Every leg of the order, one label each (a straddle has two). */
export function contractLabels(order: Pick<OrderView, "underlying" | "legs">): string[] {
  return order.legs.map((leg) => legLabel(order.underlying, leg));
}

/**
 * The first fill's net price per share, in US dollars as contract prices are (positive paid,
 * negative received); "—" before anything filled.
 */
export function fillPrice(order: Pick<OrderView, "fills">): string {
  const first = order.fills[0];
  return first ? formatContractPrice(first.netPrice) : NO_VALUE;
}

/** The commission of every fill, in the display currency (money paid); "—" before anything filled. */
export function commission(order: Pick<OrderView, "fills">): string {
  if (order.fills.length === 0) return NO_VALUE;
  return formatMoney(order.fills.reduce((sum, fill) => sum + fill.commission, 0));
}

/** Why a rejected or cancelled order ended so; "—" for any other, or when the server gave no reason. */
export function orderReason(order: Pick<OrderView, "status" | "reason">): string {
  return (order.status === "rejected" || order.status === "cancelled") && order.reason ? order.reason : NO_VALUE;
}
