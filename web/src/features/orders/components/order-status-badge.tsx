import type { OrderState } from "@/lib/api/enums";
import { cn } from "@/lib/utils";
import { orderStateLabel } from "../lib/orders";

/**
 * Each state's colours: standing (new, accepted) blue, partially filled amber, filled green,
 * rejected red, cancelled muted. The text says the state, so the colour is never the only cue.
 */
const STATE_CLASS: Record<OrderState, string> = {
  new: "bg-primary/10 text-primary-strong",
  accepted: "bg-primary/10 text-primary-strong",
  partially_filled: "bg-amber-500/12 text-amber-800 dark:text-amber-300",
  filled: "bg-positive/12 text-positive-strong",
  cancelled: "bg-muted text-muted-foreground",
  rejected: "bg-destructive/12 text-destructive-strong",
};

/** An order's status: "Filled", "Partially filled", "Rejected", … in its state's colour. */
export function OrderStatusBadge({ status, className }: { status: OrderState; className?: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap",
        STATE_CLASS[status] ?? "bg-muted text-muted-foreground",
        className,
      )}
    >
      {orderStateLabel(status)}
    </span>
  );
}
