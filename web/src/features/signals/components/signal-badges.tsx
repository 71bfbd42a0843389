import { LockIcon } from "lucide-react";
import { isOneOf, OPTION_TYPES, type OptionType, SIGNAL_STATUSES, type SignalStatus } from "@/lib/api/enums";
import { formatScore, NO_VALUE } from "@/lib/format";
import { cn } from "@/lib/utils";

const TYPE_CLASS: Record<OptionType, string> = {
  CALL: "bg-positive/12 text-positive-strong",
  PUT: "bg-destructive/12 text-destructive-strong",
  STRADDLE: "bg-primary/10 text-primary-strong",
};

const pill = "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap";

/** CALL (green), PUT (red), STRADDLE (blue); a lock for a locked signal (no type). */
export function SignalTypeBadge({ type, className }: { type: string | null | undefined; className?: string }) {
  if (type == null) {
    return (
      <span className={cn(pill, "bg-muted text-muted-foreground", className)}>
        <LockIcon className="size-3" aria-hidden />
        Locked
      </span>
    );
  }
  const tone = isOneOf(OPTION_TYPES, type) ? TYPE_CLASS[type] : "bg-muted text-muted-foreground";
  return <span className={cn(pill, "tracking-wide", tone, className)}>{type}</span>;
}

const STATUS_CLASS: Record<SignalStatus, string> = {
  active: "bg-positive/12 text-positive-strong",
  closed: "bg-muted text-muted-foreground",
  expired: "bg-muted text-muted-foreground",
};

/** The status, upper-cased; active is green, the others muted. */
export function SignalStatusBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  if (!status) return null;
  const tone = isOneOf(SIGNAL_STATUSES, status) ? STATUS_CLASS[status] : STATUS_CLASS.closed;
  return <span className={cn(pill, "text-[0.7rem] tracking-wide", tone, className)}>{status.toUpperCase()}</span>;
}

/** How many of the five strength dots are filled: one per 20 points of the 0–100 score, at most 5. */
export function confidenceDots(confidence: number): number {
  return Math.max(0, Math.min(5, Math.floor(confidence / 20)));
}

/**
 * A signal's strength: five dots, one filled per 20 points, and the score out of 100 ("74/100").
 * `confidence` is a heuristic score of how strongly the strategy's conditions are met, not a
 * probability, so it is never shown as a percentage.
 */
export function ConfidenceMeter({ confidence, className }: { confidence: number | null | undefined; className?: string }) {
  if (confidence == null) return <span className={cn("text-sm text-muted-foreground", className)}>{NO_VALUE}</span>;
  const filled = confidenceDots(confidence);
  const score = Math.round(confidence);
  return (
    <span
      role="img"
      aria-label={`Strength ${score} out of 100`}
      title={`Strength ${score} out of 100: how strongly the strategy's conditions are met, not a probability`}
      className={cn("inline-flex items-center gap-2", className)}
      data-testid="strength-meter"
    >
      <span className="flex gap-1" aria-hidden data-testid="confidence-dots" data-filled={filled}>
        {Array.from({ length: 5 }, (_, i) => (
          <span key={i} className={cn("size-1.5 rounded-full", i < filled ? "bg-primary" : "bg-muted-foreground/25")} />
        ))}
      </span>
      <span className="text-sm font-medium tabular" aria-hidden>
        {formatScore(confidence)}
      </span>
    </span>
  );
}
