import type { BillingInterval, CardView, Plan, SubscriptionView } from "@/lib/api/models";
import { formatDayCount, formatUsdCents } from "@/lib/format";

export const PLAN_NAMES: Record<Plan, string> = { free: "Free", pro: "Pro", premium: "Premium" };

const longDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });
const shortDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });

/** "December 23, 2026"; null without a (valid) instant. */
export function longDateOf(instant: string | null | undefined): string | null {
  if (!instant) return null;
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? null : longDate.format(date);
}

/** "Dec 23, 2026"; "—" without a (valid) instant. */
export function shortDateOf(instant: string | null | undefined): string {
  if (!instant) return "—";
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? "—" : shortDate.format(date);
}

/** "Visa •••• 4242" */
export function cardLabel(card: CardView): string {
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : "Card";
  return `${brand} •••• ${card.last4}`;
}

/** A plan's price for a billing period, in US cents (the catalogue's prices are whole dollars). */
export function priceCents(plan: { monthlyPrice: number; yearlyPrice: number }, billing: BillingInterval): number {
  return (billing === "yearly" ? plan.yearlyPrice : plan.monthlyPrice) * 100;
}

/** "$1,430.00/year" */
export function priceLabel(plan: { monthlyPrice: number; yearlyPrice: number }, billing: BillingInterval): string {
  return `${formatUsdCents(priceCents(plan, billing))}/${billing === "yearly" ? "year" : "month"}`;
}

export type StatusTone = "soft" | "destructive" | "secondary";

/**
 * The subscription's state in a badge and a sentence: Trial with its days left, Active (with
 * the renewal), Past due with the grace period's end, Cancels on <date>, Canceled.
 */
export function describeSubscription(sub: SubscriptionView, name: string): { badge: string; tone: StatusTone; note: string } {
  const end = longDateOf(sub.currentPeriodEnd);
  switch (sub.status) {
    case "trialing": {
      const left = sub.trialDaysLeft ?? 0;
      return {
        badge: "Trial",
        tone: "soft",
        note: `${name} trial, ${formatDayCount(left)} left${end ? ` (until ${end})` : ""}. Afterwards the account moves to Free unless you subscribe.`,
      };
    }
    case "past_due": {
      const grace = longDateOf(sub.graceEndsAt);
      return {
        badge: "Past due",
        tone: "destructive",
        note: `The last payment did not go through. ${name} stays${grace ? ` until ${grace}` : " for a grace period"} while the card on file is retried once a day; if no payment succeeds by then, the account moves to Free.`,
      };
    }
    case "canceled":
      return {
        badge: "Canceled",
        tone: "secondary",
        note: "Your subscription has ended and the account is on the Free plan. Choose a plan to subscribe again.",
      };
    default:
      if (sub.plan === "free") return { badge: "Active", tone: "soft", note: "The Free plan has no end date and no charges." };
      if (sub.cancelAtPeriodEnd) {
        return {
          badge: end ? `Cancels on ${end}` : "Cancelling",
          tone: "secondary",
          note: `${name} stays until ${end ?? "the end of the period you paid for"}. Then the account moves to Free and nothing more is charged. You can resume before then.`,
        };
      }
      if (sub.nextBilling) {
        const on = longDateOf(sub.nextBilling.date);
        return {
          badge: "Active",
          tone: "soft",
          note: `Renews on ${on}: ${formatUsdCents(sub.nextBilling.amountCents)}${sub.card ? ` will be charged to ${cardLabel(sub.card)}` : " will be charged"}.`,
        };
      }
      return { badge: "Active", tone: "soft", note: end ? `Active until ${end}.` : "Active." };
  }
}
