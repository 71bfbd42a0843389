import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { UserSettings } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/user/preferences: theme, currency, notification and trading switches, risk tolerance. */
export function getUserSettings(): Promise<UserSettings> {
  return dataOf(api.GET("/api/user/preferences"));
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.userSettings(), queryFn: getUserSettings });
}

/** The settings could not be read. */
export const FETCH_SETTINGS_FAILED = "Failed to fetch preferences";

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
