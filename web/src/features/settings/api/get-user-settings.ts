import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import { USER_SETTINGS_QUERY_KEY } from "@/lib/api/current-user";
import type { UserSettings } from "@/lib/api/models";

export const userSettingsQueryKey = USER_SETTINGS_QUERY_KEY;

/** GET /api/user/preferences: theme, currency, notification and trading switches, risk tolerance. */
export function getUserSettings(): Promise<UserSettings> {
  return dataOf(api.GET("/api/user/preferences"));
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: userSettingsQueryKey, queryFn: getUserSettings });
}

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
