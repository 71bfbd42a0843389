import { Badge } from "@/components/ui/badge";
import { isOneOf, POSITION_STATUSES, type PositionStatus } from "@/lib/api/enums";
import { cn } from "@/lib/utils";

/** An automated position's status, upper-cased (OPEN, CLOSED, …): open is green, any other muted. */
export function PositionStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-[0.7rem] font-semibold tracking-wide whitespace-nowrap",
        status === "open" ? "bg-positive/12 text-positive-strong" : "bg-muted text-muted-foreground",
        className,
      )}
    >
      {status.toUpperCase()}
    </span>
  );
}

const MANUAL_VARIANT = { open: "default", closed: "secondary", expired: "destructive" } as const satisfies Record<PositionStatus, string>;

/** A manual position's status, upper-cased: open, closed and expired as the default, secondary and destructive badges. */
export function ManualStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge
      variant={isOneOf(POSITION_STATUSES, status) ? MANUAL_VARIANT[status] : "secondary"}
      data-status={status}
      // A slightly deeper red in the dark theme keeps the white text at 4.5:1.
      className={cn("font-semibold tracking-wide", status === "expired" && "dark:bg-destructive/85", className)}
    >
      {status.toUpperCase()}
    </Badge>
  );
}
