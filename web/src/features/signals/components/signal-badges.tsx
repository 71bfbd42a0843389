import { LockIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import type { SignalStatus, SignalType } from "../api/types";

const TYPE_CLASS: Record<SignalType, string> = {
  CALL: "bg-positive/12 text-positive-strong",
  PUT: "bg-destructive/12 text-destructive-strong",
  STRADDLE: "bg-primary/10 text-primary-strong",
};

const pill = "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap";

/** CALL (green), PUT (red), STRADDLE (blue); a lock for a locked signal. */
export function SignalTypeBadge({ type, className }: { type: SignalType | null; className?: string }) {
  if (type == null) {
    return (
      <span className={cn(pill, "bg-muted text-muted-foreground", className)}>
        <LockIcon className="size-3" aria-hidden />
        Locked
      </span>
    );
  }
  return <span className={cn(pill, "tracking-wide", TYPE_CLASS[type], className)}>{type}</span>;
}

const STATUS_CLASS: Record<SignalStatus, string> = {
  active: "bg-positive/12 text-positive-strong",
  closed: "bg-muted text-muted-foreground",
  expired: "bg-muted text-muted-foreground",
};

/** The status, upper-cased; active is green, the others muted. */
export function SignalStatusBadge({ status, className }: { status: SignalStatus; className?: string }) {
  return <span className={cn(pill, "text-[0.7rem] tracking-wide", STATUS_CLASS[status] ?? STATUS_CLASS.closed, className)}>{status.toUpperCase()}</span>;
}

/** How many of the five confidence dots are filled: one per 20 percent, at most 5. */
export function confidenceDots(confidence: number): number {
  return Math.max(0, Math.min(5, Math.floor(confidence / 20)));
}

/** Five dots, one filled per 20 % of confidence, and the percentage. */
export function ConfidenceMeter({ confidence, className }: { confidence: number; className?: string }) {
  const filled = confidenceDots(confidence);
  return (
    <span className={cn("inline-flex items-center gap-2", className)}>
      <span className="flex gap-1" aria-hidden data-testid="confidence-dots" data-filled={filled}>
        {Array.from({ length: 5 }, (_, i) => (
          <span key={i} className={cn("size-1.5 rounded-full", i < filled ? "bg-primary" : "bg-muted-foreground/25")} />
        ))}
      </span>
      <span className="text-sm font-medium tabular">{confidence}%</span>
    </span>
  );
}
