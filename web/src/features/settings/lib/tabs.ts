/** The settings page's tabs, in order; `value` is the `?tab=` of a link to one. */
export const SETTINGS_TABS = [
  { value: "general", label: "General" },
  { value: "trading", label: "Trading" },
  { value: "accounts", label: "Trading accounts" },
  { value: "notifications", label: "Notifications" },
  { value: "reports", label: "Reports" },
  { value: "api-keys", label: "API Keys" },
  { value: "subscription", label: "Subscription" },
  { value: "security", label: "Security" },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]["value"];

export const DEFAULT_SETTINGS_TAB: SettingsTab = "general";

/** The tab a `?tab=` value names; the first tab for a missing or unknown one. */
export function parseSettingsTab(value: string | null): SettingsTab {
  return SETTINGS_TABS.find((tab) => tab.value === value)?.value ?? DEFAULT_SETTINGS_TAB;
}
