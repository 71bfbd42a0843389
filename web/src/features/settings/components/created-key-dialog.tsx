import { TriangleAlertIcon } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { CreatedApiKey } from "@/lib/api/models";

/**
 * A new key, shown in full this once (product spec, section 4): a warning that it cannot be
 * seen again, a copy button (a check for 2 seconds) and Done, which forgets it. A click
 * outside does not close the dialog, so the key is not lost by accident.
 */
export function CreatedKeyDialog({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <Dialog open={created !== null} onOpenChange={(open) => !open && onDone()}>
      {created ? (
        <DialogContent className="max-w-lg" onInteractOutside={(event) => event.preventDefault()}>
          <DialogHeader>
            <DialogTitle>Your new API key</DialogTitle>
            <DialogDescription>
              {created.apiKey.name}: send it as <code className="font-mono text-xs text-foreground">Authorization: Bearer &lt;key&gt;</code>.
            </DialogDescription>
          </DialogHeader>
          <div
            role="note"
            className="flex gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-foreground"
          >
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden />
            <p>Copy this key now. It is not stored and cannot be shown again; if you lose it, create a new one.</p>
          </div>
          <div className="grid gap-2">
            <div className="flex items-center justify-between gap-3">
              <span id="created-key-label" className="text-sm font-medium">
                API key
              </span>
              <CopyButton text={created.key} label="API key" />
            </div>
            <pre
              tabIndex={0}
              aria-labelledby="created-key-label"
              data-testid="created-api-key"
              className="overflow-x-auto rounded-lg border bg-muted/60 p-3 font-mono text-sm break-all whitespace-pre-wrap select-all"
            >
              {created.key}
            </pre>
          </div>
          <DialogFooter>
            <Button onClick={onDone}>Done</Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
