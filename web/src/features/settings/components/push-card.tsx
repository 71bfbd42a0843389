import { BellRingIcon, MonitorSmartphoneIcon, Trash2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { LockedFeature } from "@/components/locked-feature";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api/client";
import type { PushDevices, PushSubscriptionView, UserSettings } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { savePushSubscription, useDeletePushSubscription, usePushDevices, useRefreshPushDevices } from "../api/push-subscriptions";
import { useUpdateUserSettings } from "../api/update-user-settings";
import { type BrowserPush, browserPush } from "../lib/browser-push";
import { KindSwitches } from "./kind-switches";
import { UserSettingsState } from "./user-settings-state";

function Locked() {
  return (
    <LockedFeature title="Included in Pro and Premium" plan="Pro" testId="push-locked">
      Signals, price alerts and closed positions on your desktop or phone the moment they happen, even with Strikeline closed.
    </LockedFeature>
  );
}

/** This browser: whether it gets push notifications, and the button that changes that. */
function ThisBrowser({ devices, browser }: { devices: PushDevices; browser: BrowserPush }) {
  const refresh = useRefreshPushDevices();
  const removeDevice = useDeletePushSubscription();
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const availability = browser.availability();

  useEffect(() => {
    let live = true;
    browser
      .currentEndpoint()
      .then((found) => live && setEndpoint(found))
      .catch(() => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, [browser]);

  const stored = devices.subscriptions.find((d) => d.endpoint === endpoint);
  const on = Boolean(endpoint && stored);

  async function turnOn() {
    setBusy(true);
    try {
      const subscription = await browser.subscribe(devices.publicKey);
      await savePushSubscription(subscription);
      setEndpoint(subscription.endpoint);
      await refresh();
      toast({ title: "Push notifications on", description: "This browser will show Strikeline's notifications." });
    } catch (error) {
      const fallback =
        error instanceof Error && error.name === "PushPermissionError" ? error.message : "Push notifications could not be turned on.";
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, fallback) });
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    try {
      await browser.unsubscribe();
      if (stored) await removeDevice.mutateAsync(stored.id);
      setEndpoint(null);
      toast({ title: "Push notifications off", description: "This browser will no longer show Strikeline's notifications." });
    } catch (error) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Push notifications could not be turned off.") });
    } finally {
      setBusy(false);
    }
  }

  const status =
    availability === "unsupported"
      ? "This browser does not support push notifications."
      : availability === "blocked"
        ? "Notifications are blocked for this site. Allow them in your browser's site settings to turn push on."
        : on
          ? "On: this browser shows Strikeline's notifications."
          : "Off for this browser.";
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4" data-testid="push-this-browser">
      <div className="grid gap-1">
        <p className="inline-flex items-center gap-2 text-sm font-medium">
          <BellRingIcon className="size-4 text-muted-foreground" aria-hidden />
          This browser
          {on ? <Badge variant="soft">On</Badge> : null}
        </p>
        <p className="text-sm text-muted-foreground" role="status">
          {endpoint === undefined && availability === "available" ? "Checking this browser…" : status}
        </p>
      </div>
      {availability === "available" && endpoint !== undefined ? (
        on ? (
          <Button variant="outline" size="sm" onClick={() => void turnOff()} disabled={busy}>
            {busy ? "Turning off…" : "Turn off for this browser"}
          </Button>
        ) : (
          <Button size="sm" onClick={() => void turnOn()} disabled={busy}>
            {busy ? "Turning on…" : "Turn on for this browser"}
          </Button>
        )
      ) : null}
    </div>
  );
}

/** The browsers that get push notifications, each with a way to remove it. */
function DeviceList({ devices }: { devices: PushSubscriptionView[] }) {
  const remove = useDeletePushSubscription();
  if (devices.length === 0) return <p className="text-sm text-muted-foreground">No browser gets push notifications yet.</p>;
  return (
    <ul className="divide-y rounded-lg border" aria-label="Browsers with push notifications">
      {devices.map((device) => (
        <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="grid min-w-0 gap-0.5">
            <p className="inline-flex items-center gap-2 text-sm font-medium">
              <MonitorSmartphoneIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              {device.label}
            </p>
            <p className="text-xs text-muted-foreground">
              Added {formatShortDate(device.createdAt)} · via {device.service}
              {device.lastDeliveredAt ? ` · last notification ${formatShortDate(device.lastDeliveredAt)}` : ""}
            </p>
          </div>
          <Button
            variant="ghost"
            size="sm"
            onClick={() =>
              remove.mutate(device.id, {
                onError: (error) =>
                  toast({ variant: "destructive", title: "Error", description: errorMessage(error, "The browser could not be removed.") }),
              })
            }
            disabled={remove.isPending && remove.variables === device.id}
            aria-label={`Remove ${device.label}`}
          >
            <Trash2Icon aria-hidden />
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** Which kinds of notification are pushed, saved to the account as they change. */
function PushEvents({ settings }: { settings: UserSettings }) {
  const update = useUpdateUserSettings();
  return <KindSwitches legend="What to push" chosen={settings.pushEvents} onChange={(pushEvents) => update.mutate({ pushEvents })} />;
}

/**
 * Settings › Notifications › Push notifications (Pro and up, as the one entitlement check lists
 * `pushNotifications`): this browser on or off, the kinds pushed, and every subscribed browser.
 * A plan without push sees it locked, and can still remove the browsers it had. `browser` is
 * this browser's push manager (a stand-in in tests).
 */
export function PushCard({ available, browser = browserPush }: { available: boolean; browser?: BrowserPush }) {
  const devices = usePushDevices();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Push notifications</CardTitle>
        <CardDescription>Notifications on your desktop or phone, from the browsers you turn them on in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        {available ? null : <Locked />}
        <QueryState
          query={devices}
          loadingLabel="Loading your browsers"
          skeleton={<SkeletonRows count={2} className="h-12 w-full" />}
          errorTitle="Failed to fetch push notification browsers"
          errorLayout="banner"
        >
          {(data) => (
            <div className="grid gap-5">
              {available ? <ThisBrowser devices={data} browser={browser} /> : null}
              {available ? <UserSettingsState rows={5}>{(settings) => <PushEvents settings={settings} />}</UserSettingsState> : null}
              {available || data.subscriptions.length > 0 ? (
                <section aria-labelledby="push-browsers" className="grid gap-2">
                  <h3 id="push-browsers" className="text-sm font-medium">
                    Your browsers{" "}
                    <span className="font-normal text-muted-foreground">
                      ({data.subscriptions.length} of {data.maxSubscriptions})
                    </span>
                  </h3>
                  <DeviceList devices={data.subscriptions} />
                </section>
              ) : null}
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
