import { describeIv, formatIv, formatIvScore, IV_RANK_NEEDS, type IvFigures } from "@/lib/options";
import { NO_VALUE } from "@/lib/format";
import { cn } from "@/lib/utils";

/**
 * An IV rank (0–100) as a whole number; while the server hides it (fewer than 200 recorded
 * sessions) an em dash that says why: on hover (`title`) and to screen readers.
 */
export function IvRankValue({ rank, className }: { rank: number | null | undefined; className?: string }) {
  if (rank != null && Number.isFinite(rank)) return <span className={cn("tabular", className)}>{formatIvScore(rank)}</span>;
  return (
    <span title={IV_RANK_NEEDS} className={cn("text-muted-foreground", className)}>
      <span aria-hidden>{NO_VALUE}</span>
      <span className="sr-only">{IV_RANK_NEEDS}</span>
    </span>
  );
}

/**
 * A stock's volatility in one short line, "IV 25.3% · IVR 43" (a list row, a card), read
 * out in full ("Implied volatility 25.3%, IV rank 43, IV percentile 67"). While the rank is
 * hidden: "IVR —", its reason on hover and to screen readers.
 */
export function IvSummary({ figures, className }: { figures: IvFigures; className?: string }) {
  const hidden = figures.ivRank == null;
  return (
    <span className={cn("tabular", className)} title={hidden ? IV_RANK_NEEDS : undefined} data-testid="iv-summary">
      <span aria-hidden>
        IV {formatIv(figures.impliedVolatility)} · IVR {formatIvScore(figures.ivRank)}
      </span>
      <span className="sr-only">{describeIv(figures)}</span>
    </span>
  );
}
