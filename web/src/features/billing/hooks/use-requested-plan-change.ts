import { useSearchParams } from "react-router";
import { BILLING_INTERVALS, isOneOf, PAID_PLANS } from "@/lib/api/enums";
import type { PlanChoice } from "@/lib/api/models";

/** `?change=premium-yearly` (from the pricing page): the change of plan to offer. */
function parseChange(value: string | null): PlanChoice | null {
  const [plan, billing] = (value ?? "").split("-");
  return isOneOf(PAID_PLANS, plan) && isOneOf(BILLING_INTERVALS, billing) ? { plan, billing } : null;
}

/**
 * The change of plan a link asked for (`/settings?tab=subscription&change=premium-yearly`, see
 * `changePlanPath`), and a way to drop it from the URL once Change plan has opened with it.
 */
export function useRequestedPlanChange(): { requestedChange: PlanChoice | null; clear: () => void } {
  const [params, setParams] = useSearchParams();
  const clear = () =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("change");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  return { requestedChange: parseChange(params.get("change")), clear };
}
