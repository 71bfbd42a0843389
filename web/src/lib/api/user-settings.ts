import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { UserSettings } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * GET /api/user/preferences: theme, currency, notification and trading switches, risk tolerance.
 * Shared (lib/api) because more than the settings feature reads it: the signals follow the
 * "Auto-update Signals" switch.
 */
export function getUserSettings(): Promise<UserSettings> {
  return dataOf(api.GET("/api/user/preferences"));
}

export function userSettingsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.userSettings(), queryFn: getUserSettings });
}

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}

/**
 * Whether the signals update by themselves (Settings › Trading › "Auto-update Signals"): on
 * unless the user switched it off, so on while the settings load or fail to.
 */
export function useAutoUpdateSignals(): boolean {
  return useUserSettings().data?.autoUpdateSignals !== false;
}
