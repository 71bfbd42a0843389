import { NOTIFICATION_KINDS } from "@/lib/api/enums";
import type { NotificationKind } from "@/lib/api/models";
import { SettingSwitch } from "./setting-switch";

/** Each kind of notification, as the push and text switches name it. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, { label: string; description: string }> = {
  new_signals: {
    label: "New signals",
    description: "Signals that match your preferred strategies, and high-risk ones when those alerts are on.",
  },
  position_closed: { label: "Closed positions", description: "A position closed at its target, its stop or its expiry." },
  price_alert: { label: "Price alerts", description: "A stock crossed a price you set." },
  billing: { label: "Billing", description: "Payments, renewals and changes of plan." },
  webhook: { label: "Webhook problems", description: "A webhook endpoint was switched off after failing." },
  order: {
    label: "Orders (fills, refusals, cancellations)",
    description: "An order the automation sent for one of your accounts filled, was refused or was cancelled.",
  },
};

/**
 * One switch per kind of notification for a channel ("What to push", "What to text"): a switch
 * changed sends the whole chosen set, in the vocabulary's order.
 */
export function KindSwitches({
  legend,
  chosen,
  onChange,
}: {
  legend: string;
  chosen: readonly NotificationKind[];
  onChange: (kinds: NotificationKind[]) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-3 text-sm font-medium">{legend}</legend>
      <div className="divide-y">
        {NOTIFICATION_KINDS.map((kind) => (
          <SettingSwitch
            key={kind}
            label={NOTIFICATION_KIND_LABELS[kind].label}
            description={NOTIFICATION_KIND_LABELS[kind].description}
            checked={chosen.includes(kind)}
            onCheckedChange={(checked) => onChange(NOTIFICATION_KINDS.filter((k) => (k === kind ? checked : chosen.includes(k))))}
          />
        ))}
      </div>
    </fieldset>
  );
}
