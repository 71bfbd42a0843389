import type { ReactNode } from "react";
import { TriangleAlertIcon } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/**
 * A secret the server shows this once (a new API key, a webhook's signing secret): a warning
 * that it cannot be seen again, the value with a copy button (a check for 2 seconds) and
 * Done, which forgets it. A click outside does not close the dialog, so the secret is not
 * lost by accident. Open while `secret` is not null. One dialog for every such secret.
 */
export function ShownOnceDialog({
  secret,
  onDone,
  title,
  description,
  descriptionClassName,
  warning,
  label,
  copyLabel,
  id,
  testId,
  children,
  onCloseAutoFocus,
}: {
  secret: string | null;
  onDone: () => void;
  title: string;
  description: ReactNode;
  descriptionClassName?: string;
  /** What to do now, and if it is lost. */
  warning: string;
  /** What the value is, as its label. */
  label: string;
  /** What the copy button copies ("Copy …"). */
  copyLabel: string;
  /** The label's element id. */
  id: string;
  testId: string;
  /** Shown below the value. */
  children?: ReactNode;
  /** Where focus goes once it closes, when it has no trigger of its own to go back to. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => !open && onDone()}>
      {secret !== null ? (
        <DialogContent className="max-w-lg" onInteractOutside={(event) => event.preventDefault()} onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
          </DialogHeader>
          <div role="note" className="flex gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-foreground">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-400" aria-hidden />
            <p>{warning}</p>
          </div>
          <div className="grid gap-2">
            <div className="flex items-center justify-between gap-3">
              <span id={id} className="text-sm font-medium">
                {label}
              </span>
              <CopyButton text={secret} label={copyLabel} />
            </div>
            <pre
              tabIndex={0}
              aria-labelledby={id}
              data-testid={testId}
              className="overflow-x-auto rounded-lg border bg-muted/60 p-3 font-mono text-sm break-all whitespace-pre-wrap select-all"
            >
              {secret}
            </pre>
            {children}
          </div>
          <DialogFooter>
            <Button onClick={onDone}>Done</Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
