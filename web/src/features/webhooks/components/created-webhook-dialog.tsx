import { TriangleAlertIcon } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { CreatedWebhook } from "@/lib/api/models";
import { EVENT_TYPE_LABELS } from "../lib/webhooks";

/**
 * A new endpoint's signing secret, shown this once (as a new API key is): a warning that it
 * cannot be seen again, a copy button and Done, which forgets it. A click outside does not
 * close the dialog, so the secret is not lost by accident.
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
    <Dialog open={created !== null} onOpenChange={(open) => !open && onDone()}>
      {created ? (
        <DialogContent className="max-w-lg" onInteractOutside={(event) => event.preventDefault()} onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle>Your webhook signing secret</DialogTitle>
            <DialogDescription className="break-all">
              {EVENT_TYPE_LABELS[created.endpoint.eventType] ?? created.endpoint.eventType} events to {created.endpoint.url}
            </DialogDescription>
          </DialogHeader>
          <div role="note" className="flex gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-foreground">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden />
            <p>Copy this secret now. It will not be shown again; if you lose it, delete the endpoint and add it again.</p>
          </div>
          <div className="grid gap-2">
            <div className="flex items-center justify-between gap-3">
              <span id="created-webhook-secret-label" className="text-sm font-medium">
                Signing secret
              </span>
              <CopyButton text={created.secret} label="signing secret" />
            </div>
            <pre
              tabIndex={0}
              aria-labelledby="created-webhook-secret-label"
              data-testid="created-webhook-secret"
              className="overflow-x-auto rounded-lg border bg-muted/60 p-3 font-mono text-sm break-all whitespace-pre-wrap select-all"
            >
              {created.secret}
            </pre>
            <p className="text-xs text-muted-foreground">
              To check a delivery, compute HMAC-SHA256 of <code className="font-mono text-foreground">id.timestamp.body</code> (the{" "}
              <code className="font-mono text-foreground">webhook-id</code> and <code className="font-mono text-foreground">webhook-timestamp</code>{" "}
              headers and the raw body) with the base64-decoded part after <code className="font-mono text-foreground">whsec_</code> as the key,
              and compare it with the <code className="font-mono text-foreground">v1,</code> value of{" "}
              <code className="font-mono text-foreground">webhook-signature</code>.
            </p>
          </div>
          <DialogFooter>
            <Button onClick={onDone}>Done</Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
