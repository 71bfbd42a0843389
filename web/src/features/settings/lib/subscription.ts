import type { Plan, SubscriptionStatus, User } from "@/lib/api/models";

const DAY_MS = 24 * 60 * 60 * 1000;

export const PLAN_NAMES: Record<Plan, string> = { free: "Free", pro: "Pro", premium: "Premium" };

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: "Active",
  trialing: "Trial",
  canceled: "Canceled",
  past_due: "Past due",
};

/** Whole days until `subscriptionExpiresAt`, rounded up, never below 0; null without a date or when not trialing. */
export function trialDaysLeft(user: Pick<User, "subscriptionStatus" | "subscriptionExpiresAt">, now: number): number | null {
  if (user.subscriptionStatus !== "trialing" || !user.subscriptionExpiresAt) return null;
  const end = Date.parse(user.subscriptionExpiresAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / DAY_MS));
}

/** "1 day", "12 days" */
export function days(n: number): string {
  return `${n} ${n === 1 ? "day" : "days"}`;
}
