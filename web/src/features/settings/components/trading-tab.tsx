import { useId } from "react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { isOneOf, RISK_TOLERANCES } from "@/lib/api/enums";
import type { RiskTolerance } from "@/lib/api/models";
import { riskToleranceLabel } from "@/lib/format";
import { useUpdateUserSettings } from "../api/update-user-settings";
import { refreshInterval } from "../lib/schedule";
import { SettingSwitch } from "./setting-switch";
import { UserSettingsState } from "./user-settings-state";

const RISK_NOTES: Record<RiskTolerance, string> = {
  low: "Fewer, stronger setups and smaller positions.",
  medium: "A balance of opportunity and risk.",
  high: "More setups, including weaker and higher-risk ones.",
};

/** The risk tolerance select, saved as it changes, with a note on what the choice means. */
function RiskToleranceField({ current }: { current: string }) {
  const id = useId();
  const update = useUpdateUserSettings();
  const risk: RiskTolerance = isOneOf(RISK_TOLERANCES, current) ? current : "medium";
  return (
    <>
      <Label htmlFor={`${id}-risk`}>Risk tolerance</Label>
      <NativeSelect
        id={`${id}-risk`}
        className="sm:max-w-xs"
        value={risk}
        aria-describedby={`${id}-risk-note`}
        onChange={(event) => update.mutate({ riskTolerance: event.target.value as RiskTolerance })}
      >
        {RISK_TOLERANCES.map((value) => (
          <option key={value} value={value}>
            {riskToleranceLabel(value)}
          </option>
        ))}
      </NativeSelect>
      <p id={`${id}-risk-note`} className="text-[0.8rem] text-muted-foreground">
        {RISK_NOTES[risk]}
      </p>
    </>
  );
}

/**
 * Trading: Auto-update Signals, High-Risk Signal Alerts and the risk tolerance, each saved
 * on the server as it changes, like the other settings
 * (docs/decisions.md#12-settings-are-saved-on-the-server). `signalRefreshSeconds` is the
 * server's signal schedule (GET /api/public/stats).
 */
export function TradingTab({ signalRefreshSeconds }: { signalRefreshSeconds?: number }) {
  const update = useUpdateUserSettings();
  const every = refreshInterval(signalRefreshSeconds);

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="border-b pb-4">
          <CardTitle>Signals</CardTitle>
          <CardDescription>How signals reach you.</CardDescription>
        </CardHeader>
        <CardContent className="pt-5">
          <UserSettingsState rows={2}>
            {(data) => (
              <div className="divide-y">
                <SettingSwitch
                  label="Auto-update Signals"
                  description={
                    every
                      ? `Refresh signals every ${every}, as the server issues them; off, only when you press Refresh.`
                      : "Refresh signals on the server's schedule; off, only when you press Refresh."
                  }
                  checked={data.autoUpdateSignals}
                  onCheckedChange={(checked) => update.mutate({ autoUpdateSignals: checked })}
                />
                <SettingSwitch
                  label="High-Risk Signal Alerts"
                  description="Notify me of new signals with under a 30% chance of profit at issue."
                  checked={data.highRiskAlerts}
                  onCheckedChange={(checked) => update.mutate({ highRiskAlerts: checked })}
                />
              </div>
            )}
          </UserSettingsState>
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="border-b pb-4">
          <CardTitle>Risk Tolerance</CardTitle>
          <CardDescription>
            Automated positions follow it, with the rest of your{" "}
            <Link to="/preferences" className="font-medium text-primary-strong underline-offset-4 hover:underline">
              investment preferences
            </Link>
            .
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 pt-5">
          <UserSettingsState rows={1}>{(data) => <RiskToleranceField current={data.riskTolerance} />}</UserSettingsState>
        </CardContent>
      </Card>
    </div>
  );
}
