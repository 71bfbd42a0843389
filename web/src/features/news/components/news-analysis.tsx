import { LockIcon, SparklesIcon } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import type { NewsAnalysis, TradeIdea } from "@/lib/api/models";
import { ANALYZER_TEXT } from "@/lib/ai";
import { formatScore } from "@/lib/format";
import { cn } from "@/lib/utils";
import { ANALYSIS_RISK_LABEL, TRADE_IDEA_TEXT } from "../lib/news";

const IDEA_CLASS: Record<TradeIdea, string> = {
  CALL: "bg-positive/12 text-positive-strong",
  PUT: "bg-destructive/12 text-destructive-strong",
  STRADDLE: "bg-primary/10 text-primary-strong",
  HOLD: "bg-muted text-muted-foreground",
};

const RISK_CLASS = { LOW: "text-positive-strong", MEDIUM: "text-foreground", HIGH: "text-destructive-strong" } as const;

/** CALL (green), PUT (red), STRADDLE (blue) or HOLD (grey). */
function TradeIdeaBadge({ idea }: { idea: TradeIdea }) {
  return (
    <span
      data-testid="trade-idea"
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold tracking-wide",
        IDEA_CLASS[idea] ?? IDEA_CLASS.HOLD,
      )}
    >
      <span className="sr-only">Recommendation: {TRADE_IDEA_TEXT[idea] ?? idea} </span>
      <span aria-hidden>{idea}</span>
    </span>
  );
}

/**
 * The analysis's `confidence` (0–100) as a small bar and a score out of 100 ("64/100"). It is a
 * heuristic strength, not a calibrated probability, so it is never shown as a percentage.
 */
function StrengthBar({ value }: { value: number }) {
  const score = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <span className="flex items-center gap-2" role="img" aria-label={`Strength ${score} out of 100`}>
      <span aria-hidden className="h-1.5 w-full max-w-20 min-w-10 overflow-hidden rounded-full bg-muted-foreground/20">
        <span className="block h-full rounded-full bg-primary" style={{ width: `${score}%` }} />
      </span>
      <span aria-hidden className="font-semibold tabular">
        {formatScore(score)}
      </span>
    </span>
  );
}

/** An article's AI analysis: the trade it points to, how strong the case is, for how long, how risky, and why. */
export function NewsAnalysisBlock({ analysis }: { analysis: NewsAnalysis }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      data-testid="news-analysis"
      className="grid gap-3 rounded-lg border bg-muted/40 p-3.5 dark:bg-muted/25"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="inline-flex items-center gap-1.5 text-sm font-semibold">
          <SparklesIcon className="size-3.5 text-primary-strong" aria-hidden />
          AI analysis
        </h3>
        <TradeIdeaBadge idea={analysis.signalRecommendation} />
      </div>
      <dl className="grid grid-cols-3 gap-3 text-xs">
        <div className="grid min-w-0 content-start gap-1">
          <dt className="text-muted-foreground">Strength</dt>
          <dd>
            <StrengthBar value={analysis.confidence} />
          </dd>
        </div>
        <div className="grid min-w-0 content-start gap-1">
          <dt className="text-muted-foreground">Timeframe</dt>
          <dd className="font-semibold">{analysis.timeframe}</dd>
        </div>
        <div className="grid min-w-0 content-start gap-1">
          <dt className="text-muted-foreground">Risk</dt>
          <dd className={cn("font-semibold", RISK_CLASS[analysis.riskLevel])}>
            {ANALYSIS_RISK_LABEL[analysis.riskLevel] ?? analysis.riskLevel}
          </dd>
        </div>
      </dl>
      <p className="text-sm leading-relaxed" data-testid="analysis-reasoning">
        {analysis.reasoning}
      </p>
      <p className="text-xs text-muted-foreground">{ANALYZER_TEXT[analysis.analyzer] ?? ANALYZER_TEXT.builtin}</p>
    </section>
  );
}

/** The Free plan's place for the analysis: what it is, and the way to it. */
export function LockedAnalysis() {
  return (
    <div
      data-testid="analysis-locked"
      className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg border border-dashed px-3.5 py-2.5 text-sm"
    >
      <p className="inline-flex items-center gap-2 text-muted-foreground">
        <LockIcon className="size-3.5" aria-hidden />
        AI analysis is a Pro feature
      </p>
      <Link
        to="/pricing"
        className="rounded-sm font-medium text-primary-strong underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        Upgrade
      </Link>
    </div>
  );
}
