import { cn } from "@/lib/utils";

const TYPE_CLASS: Record<string, string> = {
  CALL: "bg-positive/12 text-positive-strong",
  PUT: "bg-destructive/12 text-destructive-strong",
  STRADDLE: "bg-primary/10 text-primary-strong",
};

/** CALL (green), PUT (red), STRADDLE (blue), as on the signal cards. */
export function OptionTypeBadge({ type, className }: { type: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold tracking-wide whitespace-nowrap",
        TYPE_CLASS[type] ?? "bg-muted text-muted-foreground",
        className,
      )}
    >
      {type}
    </span>
  );
}
