import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { api, dataOf } from "@/lib/api/client";
import type { SubscriptionView } from "@/lib/api/models";
import { announceToOtherTabs } from "@/lib/live-events";

/** POST /api/billing/resume: takes a cancellation back before the period ends. 409 when not cancelled or too late. */
export function resumeSubscription(): Promise<SubscriptionView> {
  return dataOf(api.POST("/api/billing/resume"));
}

export function useResumeSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: (subscription) => {
      void refreshAfterBillingChange(queryClient, subscription);
      // The user's other open tabs follow at once.
      announceToOtherTabs("billing");
    },
  });
}
