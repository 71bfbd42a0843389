export { getUserSettings, userSettingsQueryOptions, useUserSettings } from "@/lib/api/user-settings";

/** The settings could not be read. */
export const FETCH_SETTINGS_FAILED = "Failed to fetch preferences";
