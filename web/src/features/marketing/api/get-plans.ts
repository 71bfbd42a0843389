import type { BillingInterval } from "@/lib/api/models";

export { getPlans, plansQueryOptions, usePlans } from "@/lib/api/plans";

/** How a plan is billed: the schema's `BillingInterval`. */
export type Billing = BillingInterval;
