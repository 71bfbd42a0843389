import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useUpdateUserSettings } from "../api/update-user-settings";
import { SettingSwitch } from "./setting-switch";
import { UserSettingsState } from "./user-settings-state";

/**
 * Notifications: emailNotifications, signalAlerts and portfolioSummary, each saved as it
 * changes (docs/decisions.md#12-settings-are-saved-on-the-server; optimistic, put back with the
 * toast "Failed to update settings. Please try again." when the save fails).
 */
export function NotificationsTab() {
  const update = useUpdateUserSettings();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Notifications</CardTitle>
        <CardDescription>What Strikeline tells you about, saved to your account as you switch.</CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <UserSettingsState>
          {(data) => (
            <div className="divide-y">
              <SettingSwitch
                label="Email Notifications"
                description="Account and signal news by email."
                checked={data.emailNotifications}
                onCheckedChange={(checked) => update.mutate({ emailNotifications: checked })}
              />
              <SettingSwitch
                label="Signal Alerts"
                description="An alert when a new signal is issued."
                checked={data.signalAlerts}
                onCheckedChange={(checked) => update.mutate({ signalAlerts: checked })}
              />
              <SettingSwitch
                label="Portfolio Summary"
                description="A daily summary of your portfolio's value and P&L."
                checked={data.portfolioSummary}
                onCheckedChange={(checked) => update.mutate({ portfolioSummary: checked })}
              />
            </div>
          )}
        </UserSettingsState>
      </CardContent>
    </Card>
  );
}
