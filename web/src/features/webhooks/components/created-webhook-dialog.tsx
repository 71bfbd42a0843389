import { ShownOnceDialog } from "@/components/shown-once-dialog";
import type { CreatedWebhook } from "@/lib/api/models";
import { EVENT_TYPE_LABELS } from "../lib/webhooks";

/**
 * A new endpoint's signing secret, shown this once (as a new API key is), with how to check
 * a delivery's signature with it.
 */
export function CreatedWebhookDialog({
  created,
  onDone,
  onCloseAutoFocus,
}: {
  created: CreatedWebhook | null;
  onDone: () => void;
  /** Where focus goes once it closes (it has no trigger of its own to go back to). */
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <ShownOnceDialog
      secret={created?.secret ?? null}
      onDone={onDone}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Your webhook signing secret"
      descriptionClassName="break-all"
      description={
        created ? `${EVENT_TYPE_LABELS[created.endpoint.eventType] ?? created.endpoint.eventType} events to ${created.endpoint.url}` : null
      }
      warning="Copy this secret now. It will not be shown again; if you lose it, delete the endpoint and add it again."
      label="Signing secret"
      copyLabel="signing secret"
      id="created-webhook-secret-label"
      testId="created-webhook-secret"
    >
      <p className="text-xs text-muted-foreground">
        To check a delivery, compute HMAC-SHA256 of <code className="font-mono text-foreground">id.timestamp.body</code> (the{" "}
        <code className="font-mono text-foreground">webhook-id</code> and{" "}
        <code className="font-mono text-foreground">webhook-timestamp</code> headers and the raw body) with the base64-decoded part after{" "}
        <code className="font-mono text-foreground">whsec_</code> as the key, and compare it with the{" "}
        <code className="font-mono text-foreground">v1,</code> value of <code className="font-mono text-foreground">webhook-signature</code>
        .
      </p>
    </ShownOnceDialog>
  );
}
