import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { OrderView } from "@/lib/api/models";
import { contractLabels } from "../lib/orders";

/**
 * Asks before cancelling a standing order: "Keep order", or "Cancel order" (disabled, and
 * "Cancelling...", while the cancel is sent). What already filled stays.
 */
export function CancelOrderDialog({
  order,
  pending,
  onConfirm,
  onOpenChange,
}: {
  /** The order to cancel; null when the dialog is closed. */
  order: OrderView | null;
  pending: boolean;
  onConfirm: (order: OrderView) => void;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={order != null} onOpenChange={onOpenChange}>
      {order ? (
        <DialogContent className="max-w-md" role="alertdialog">
          <DialogHeader>
            <DialogTitle>Cancel this order?</DialogTitle>
            <DialogDescription>
              {contractLabels(order).join(" + ")}, {order.filledUnits} of {order.quantity} filled. The broker is told to stop it; what
              already filled stays in your portfolio.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Keep order
            </Button>
            <Button variant="destructive" onClick={() => onConfirm(order)} disabled={pending}>
              {pending ? "Cancelling..." : "Cancel order"}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
