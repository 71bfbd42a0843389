import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { CURRENT_USER_QUERY_KEY, USER_SETTINGS_QUERY_KEY } from "@/lib/api/current-user";
import type { InvestmentPreferencesUpdate, User } from "@/lib/api/models";
import { LIVE_QUERY_KEYS } from "@/lib/live-events";

/**
 * PATCH /api/user/preferences → 200 with the updated User (as GET /api/auth/me answers it);
 * 422 problem+json whose `errors` name each field that is not valid.
 */
export function updateInvestmentPreferences(body: InvestmentPreferencesUpdate): Promise<User> {
  return dataOf(api.PATCH("/api/user/preferences", { body }));
}

/** Saves the preferences, then refetches the user, the settings and the signals (product spec, section 7). */
export function useUpdateInvestmentPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvestmentPreferences,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      // The settings page shows the risk tolerance too.
      void queryClient.invalidateQueries({ queryKey: USER_SETTINGS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.signals });
    },
  });
}
