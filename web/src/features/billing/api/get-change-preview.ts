import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { PlanChoice } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/billing/change/preview?plan=…&billing=…: what changing to `choice` would charge
 * today, the credit kept, and what the next period then charges and when (US cents), computed
 * by the code that `POST /api/billing/change` charges with. Nothing changes. 422 naming `plan`
 * for Free or the current plan, 409 without a paid plan.
 */
export function getChangePreview(choice: PlanChoice) {
  return dataOf(api.GET("/api/billing/change/preview", { params: { query: choice } }));
}

/** The preview's figures, as the server answers them. */
export type ChangePreview = Awaited<ReturnType<typeof getChangePreview>>;

/**
 * Kept under the subscription's key, so whatever reads the subscription again (a change made
 * here or in another tab) reads the previews again too. Read afresh each time the dialog opens:
 * the proration moves with the clock. Without a choice, nothing is read and there is no data.
 */
export function changePreviewQueryOptions(choice: PlanChoice | null) {
  return queryOptions({
    queryKey: [...queryKeys.subscription(), "change-preview", choice?.plan ?? null, choice?.billing ?? null] as const,
    queryFn: choice ? () => getChangePreview(choice) : skipToken,
    staleTime: 0,
    gcTime: 60_000,
  });
}

/** The preview of `choice`; idle (pending, nothing read, no data) while nothing is chosen. */
export function useChangePreview(choice: PlanChoice | null) {
  return useQuery(changePreviewQueryOptions(choice));
}
