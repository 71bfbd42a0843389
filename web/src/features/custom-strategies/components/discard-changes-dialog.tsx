import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/**
 * Asks before the builder's unsaved edits are replaced (another saved strategy, a new one, a
 * template): "Keep editing" (the default focus, and what Escape or the close button do) or
 * "Discard", which runs `onDiscard`. Laid out as every confirmation of the app (ConfirmDeleteDialog).
 */
export function DiscardChangesDialog({
  open,
  onOpenChange,
  description,
  onDiscard,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  description: string;
  onDiscard: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="max-w-md" role="alertdialog">
          <DialogHeader>
            <DialogTitle>Discard changes?</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Keep editing
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                onDiscard();
                onOpenChange(false);
              }}
            >
              Discard
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
