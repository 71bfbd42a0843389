import type { ComponentProps, ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api/client";
import { toast } from "@/lib/toast";

/**
 * Asks before deleting something for good: Cancel, or the destructive button that runs
 * `remove`, toasts `success` and closes, or toasts the server's reason (else `failure`) and
 * stays open. One dialog for every "delete with confirmation" in the app.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  descriptionClassName,
  confirmLabel,
  pendingLabel = "Deleting...",
  pending,
  remove,
  success,
  failure,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  descriptionClassName?: string;
  confirmLabel: string;
  /** The confirm button's text while `remove` runs. */
  pendingLabel?: string;
  pending: boolean;
  remove: () => Promise<unknown>;
  success: { title: string; description: string };
  failure: string;
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>["onCloseAutoFocus"];
}) {
  const confirm = async () => {
    try {
      await remove();
    } catch (error) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, failure) });
      return;
    }
    toast(success);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="max-w-md" role="alertdialog" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void confirm()} disabled={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
