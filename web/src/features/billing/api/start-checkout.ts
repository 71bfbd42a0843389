import { queryOptions, useQuery } from "@tanstack/react-query";
import { createSubscription } from "@/lib/api/billing";
import type { PlanChoice } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * /subscribe's checkout: POST /api/create-subscription on load (the server answers the same
 * checkout again within a day, so a reload is safe). Never read again while the page is open
 * (a paid checkout would answer 409), and not kept once the page is left.
 */
export function checkoutQueryOptions(choice: PlanChoice) {
  return queryOptions({
    queryKey: queryKeys.checkout(choice),
    queryFn: () => createSubscription(choice),
    gcTime: 0,
    retry: false,
  });
}

export function useCheckout(choice: PlanChoice) {
  return useQuery(checkoutQueryOptions(choice));
}
