import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { InvestmentPreferencesUpdate, User } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * PATCH /api/user/preferences → 200 with the updated User (as GET /api/auth/me answers it);
 * 422 problem+json whose `errors` name each field that is not valid.
 */
export function updateInvestmentPreferences(body: InvestmentPreferencesUpdate): Promise<User> {
  return dataOf(api.PATCH("/api/user/preferences", { body }));
}

/** Saves the preferences, then refetches the user, the settings, the signals and the accounts list, which depend on them. */
export function useUpdateInvestmentPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvestmentPreferences,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
      // The settings page shows the risk tolerance too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.userSettings() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.signals.all() });
      // They are the current trading account's, which Settings › Trading accounts lists.
      void queryClient.invalidateQueries({ queryKey: queryKeys.tradingAccounts() });
    },
  });
}
