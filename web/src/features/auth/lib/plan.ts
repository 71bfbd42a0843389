import type { User } from "@/lib/api/models";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days left in a trial, rounded up; null when the user is not trialing. */
export function trialDaysLeft(user: Pick<User, "subscriptionStatus" | "subscriptionExpiresAt">, now: number): number | null {
  if (user.subscriptionStatus !== "trialing" || !user.subscriptionExpiresAt) return null;
  const end = Date.parse(user.subscriptionExpiresAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / DAY_MS));
}

const PLAN_NAMES: Record<User["subscriptionPlan"], string> = { free: "Free", pro: "Pro", premium: "Premium" };

/** "Pro trial, 12 days left", "Premium plan, payment past due", or the plan's name ("Free plan", "Premium plan"). */
export function planLabel(user: User, now: number): string {
  const days = trialDaysLeft(user, now);
  const name = PLAN_NAMES[user.subscriptionPlan] ?? user.subscriptionPlan;
  if (days !== null) return `${name} trial, ${days} ${days === 1 ? "day" : "days"} left`;
  if (user.subscriptionStatus === "past_due") return `${name} plan, payment past due`;
  return `${name} plan`;
}

/** The name the app greets the user by: first name, else username. */
export function displayName(user: Pick<User, "firstName" | "username">): string {
  return user.firstName?.trim() || user.username;
}

/** One or two letters for an avatar. */
export function initials(user: Pick<User, "firstName" | "lastName" | "username">): string {
  const first = user.firstName?.trim()?.[0];
  const last = user.lastName?.trim()?.[0];
  if (first) return (first + (last ?? "")).toUpperCase();
  return user.username.slice(0, 2).toUpperCase();
}

/**
 * Whether `holder` (the signed-in user, or a plan of the catalogue) includes AI
 * recommendations in the app, as the server's one entitlement check lists it in `capabilities`
 * (docs/decisions.md#4-plans-are-enforced-by-the-server). The pages ask this before calling GET
 * /api/ai/recommendations, so an account without them never gets a 403 for it.
 */
export function includesAiRecommendations(holder: Pick<User, "capabilities">): boolean {
  return holder.capabilities.includes("aiRecommendations");
}

/**
 * Whether `holder` may use the strategy builder (Premium), as the server's one entitlement
 * check lists it in `capabilities`. The builder asks this before calling /api/structures/*,
 * so an account without it sees the feature locked and never gets a 403.
 */
export function includesStrategyBuilder(holder: Pick<User, "capabilities">): boolean {
  return holder.capabilities.includes("strategyBuilder");
}

/**
 * Whether `holder` may use the portfolio optimiser (Premium), as the server's one entitlement
 * check lists it in `capabilities`. The Portfolio page shows it locked otherwise, so an account
 * without it never gets a 403 from POST /api/portfolio/optimise.
 */
export function includesPortfolioOptimisation(holder: Pick<User, "capabilities">): boolean {
  return holder.capabilities.includes("portfolioOptimisation");
}

/**
 * Whether `holder` may write, judge and save custom strategies (Premium), as the server's one
 * entitlement check lists it in `capabilities`. /custom-strategies shows the feature locked
 * otherwise (saved strategies stay listed, to read and delete), so an account without it never
 * gets a 403 from POST /api/strategies/custom or its preview.
 */
export function includesCustomStrategies(holder: Pick<User, "capabilities">): boolean {
  return holder.capabilities.includes("customStrategies");
}
