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

/** Product spec, section 8: the settings could not be read. */
export const FETCH_SETTINGS_FAILED = "Failed to fetch preferences";

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
