import { BILLING_INTERVALS, isOneOf, PAID_PLANS } from "@/lib/api/enums";
import type { PlanChoice } from "@/lib/api/models";

export type SubscribeParams = { ok: true; choice: PlanChoice } | { ok: false; problems: string[] };

/**
 * /subscribe's query: `plan` pro (default) or premium, `billing` monthly
 * (default) or yearly. Anything else is refused with what is wrong, rather than guessed.
 */
export function parseSubscribeParams(params: URLSearchParams): SubscribeParams {
  const plan = params.get("plan") ?? "pro";
  const billing = params.get("billing") ?? "monthly";
  const problems: string[] = [];
  if (!isOneOf(PAID_PLANS, plan)) {
    problems.push(plan === "free" ? "The Free plan needs no payment." : `“${plan}” is not a plan you can buy: choose Pro or Premium.`);
  }
  if (!isOneOf(BILLING_INTERVALS, billing)) problems.push(`“${billing}” is not a billing period: choose monthly or yearly.`);
  if (problems.length > 0 || !isOneOf(PAID_PLANS, plan) || !isOneOf(BILLING_INTERVALS, billing)) return { ok: false, problems };
  return { ok: true, choice: { plan, billing } };
}
