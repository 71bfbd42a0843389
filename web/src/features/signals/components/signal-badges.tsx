import { LockIcon } from "lucide-react";
import { isOneOf, OPTION_TYPES, type OptionType, SIGNAL_STATUSES, type SignalStatus } from "@/lib/api/enums";
import type { Signal } from "@/lib/api/models";
import { formatScore, NO_VALUE } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useStrategyLabel } from "../hooks/use-strategy-label";

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

type StrategyOf = Pick<Signal, "strategy" | "customStrategyId">;

/** Said to screen readers after a custom strategy's name, which could otherwise pass for a house rule's. */
const OWN = " (your custom strategy)";

/**
 * The signal's strategy as text: a house rule's name; for a custom strategy's signal, the name of
 * the user's strategy that issued it (else "Custom").
 */
export function SignalStrategyName({ signal }: { signal: StrategyOf }) {
  const label = useStrategyLabel(signal);
  return (
    <>
      {label.text}
      {label.name ? <span className="sr-only">{OWN}</span> : null}
    </>
  );
}

/**
 * The strategy as a tag: the house rules on the secondary tone; a custom strategy, one of the
 * user's own, outlined on the card's background (neutral in both themes), under its name (else
 * "Custom"), cut to the width it has.
 */
export function SignalStrategyBadge({ signal, className }: { signal: StrategyOf; className?: string }) {
  const label = useStrategyLabel(signal);
  return (
    <span
      className={cn(
        "inline-flex max-w-full min-w-0 items-center rounded-md px-2 py-0.5 text-xs font-medium",
        label.custom ? "bg-transparent text-foreground ring-1 ring-border ring-inset" : "bg-secondary text-secondary-foreground",
        className,
      )}
      title={label.custom ? `${label.text}${OWN}` : undefined}
      data-testid="strategy-badge"
    >
      <span className="truncate">{label.text}</span>
      {label.name ? <span className="sr-only">{OWN}</span> : null}
    </span>
  );
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
