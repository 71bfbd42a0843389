import { BotIcon, ChevronDownIcon, CrownIcon, LockIcon, SparklesIcon } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { ANALYZER_TEXT } from "@/lib/ai";
import { ApiError } from "@/lib/api/client";
import type { Recommendation, RecommendationKind, RecommendationRiskLevel } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatScore } from "@/lib/format";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useAiRecommendations } from "../api/get-ai-recommendations";

/** The panel's texts: on a plan without AI, with no recommendations, and when they fail to load. */
export const ASSISTANT_UPGRADE = "Upgrade to Pro for AI-powered insights";
export const ASSISTANT_EMPTY = "No AI recommendations available";
export const FETCH_RECOMMENDATIONS_FAILED = "Failed to fetch AI recommendations";

const KIND_LABEL: Record<RecommendationKind, string> = { trade: "Trade", portfolio: "Portfolio", risk: "Risk" };

/** Risk levels read Low, Medium, High: the server's `moderate` reads Medium (as on /portfolio). */
const RISK_LABEL: Record<RecommendationRiskLevel, string> = { low: "Low", moderate: "Medium", high: "High" };
const RISK_CLASS: Record<RecommendationRiskLevel, string> = {
  low: "text-positive-strong",
  moderate: "text-foreground",
  high: "text-destructive-strong",
};

/** `BUY_CALL` → "BUY CALL": green for calls, red for puts, blue for anything else. */
function ActionBadge({ action }: { action: string }) {
  const words = action.split("_").filter(Boolean);
  const tone = words.includes("CALL")
    ? "bg-positive/12 text-positive-strong"
    : words.includes("PUT")
      ? "bg-destructive/12 text-destructive-strong"
      : "bg-primary/10 text-primary-strong";
  return (
    <span
      data-testid="recommendation-action"
      className={cn(
        "inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-[0.7rem] font-semibold tracking-wide whitespace-nowrap",
        tone,
      )}
    >
      {words.join(" ")}
    </span>
  );
}

/** The groups in the server's order (risk first, then the positions held, then trades). */
function groupByKind(recommendations: readonly Recommendation[]): [RecommendationKind, Recommendation[]][] {
  const groups = new Map<RecommendationKind, Recommendation[]>();
  for (const r of recommendations) groups.set(r.type, [...(groups.get(r.type) ?? []), r]);
  return [...groups.entries()];
}

function RecommendationRow({ recommendation: r }: { recommendation: Recommendation }) {
  const [open, setOpen] = useState(false);
  const whyId = useId();
  // The recommendation's `confidence` (0–1) is a heuristic score, not a calibrated
  // probability, so it is shown as a strength out of 100, never as a percentage.
  const strength = Math.round(Math.max(0, Math.min(1, r.confidence)) * 100);
  return (
    <li data-testid="recommendation" data-kind={r.type} className="grid gap-1.5 py-3 first:pt-0 last:pb-0">
      <h4 className="text-sm leading-snug font-semibold">{r.title}</h4>
      <p className="flex flex-wrap items-center gap-x-2.5 gap-y-1 text-xs text-muted-foreground">
        <ActionBadge action={r.action} />
        {r.symbol ? (
          <span className="rounded bg-primary/10 px-1.5 py-0.5 font-mono font-semibold text-primary-strong">{r.symbol}</span>
        ) : null}
        <span>
          Strength <span className="font-semibold text-foreground tabular">{formatScore(strength)}</span>
        </span>
        <span>
          Risk <span className={cn("font-semibold", RISK_CLASS[r.riskLevel])}>{RISK_LABEL[r.riskLevel] ?? r.riskLevel}</span>
        </span>
      </p>
      <p className="text-sm text-muted-foreground">{r.suggestion}</p>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={whyId}
        aria-label={`Why: ${r.title}`}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex w-fit items-center gap-1 rounded-sm text-xs font-medium text-primary-strong outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronDownIcon className={cn("size-3.5 transition-transform motion-reduce:transition-none", open && "rotate-180")} aria-hidden />
        Why
      </button>
      <div id={whyId} hidden={!open} className="grid gap-2 rounded-md bg-muted/50 p-2.5 text-xs text-muted-foreground">
        <p className="leading-relaxed text-foreground">{r.reasoning}</p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1">
          {r.type === "trade" && r.suggestedStrike != null ? (
            <div className="flex gap-1">
              <dt>Strike</dt>
              <dd className="font-semibold text-foreground tabular">{formatContractPrice(r.suggestedStrike)}</dd>
            </div>
          ) : null}
          {r.type === "trade" && r.expiration ? (
            <div className="flex gap-1">
              <dt>Expiration</dt>
              <dd className="font-semibold text-foreground">{formatShortDate(r.expiration)}</dd>
            </div>
          ) : null}
          <div className="flex gap-1">
            <dt>Timeframe</dt>
            <dd className="font-semibold text-foreground">{r.timeframe}</dd>
          </div>
        </dl>
        <p>{ANALYZER_TEXT[r.analyzer] ?? ANALYZER_TEXT.builtin}</p>
      </div>
    </li>
  );
}

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center">
      <div className="flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <BotIcon className="size-5" aria-hidden />
      </div>
      <p className="text-sm font-medium">{title}</p>
      {children}
    </div>
  );
}

/** What the upgrade brings, from the plan catalogue (the AI features of the first plan with them). */
function Offer({ features }: { features: readonly string[] }) {
  if (features.length === 0) return null;
  return (
    <div className="grid gap-1.5 text-left">
      <p className="text-xs text-muted-foreground">Pro adds:</p>
      <ul data-testid="assistant-offer" className="grid gap-1 text-xs">
        {features.map((feature) => (
          <li key={feature} className="flex items-center gap-1.5">
            <LockIcon className="size-3 shrink-0 text-muted-foreground" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The AI Investment Assistant (a Pro feature): up to 6 recommendations, grouped by what they are
 * about, each with its reasoning behind "Why". `included` says whether the user's plan has them
 * (the plan in force, `User.subscriptionPlan`): without them nothing is requested and the panel
 * offers the upgrade, with `offer` (the AI features that come with it, from the plan catalogue).
 * A 403 all the same (the plan changed meanwhile) offers the upgrade too; with no
 * recommendations it says so; any other failure is toasted.
 */
export function AiAssistantPanel({ included, offer = [] }: { included: boolean; offer?: readonly string[] }) {
  const query = useAiRecommendations(undefined, { enabled: included });
  const forbidden = !included || (query.error instanceof ApiError && query.error.status === 403);
  const failed = query.isError && !forbidden;

  const shown = useRef(0);
  useEffect(() => {
    if (failed && query.errorUpdatedAt !== shown.current) {
      shown.current = query.errorUpdatedAt;
      toast({ variant: "destructive", title: "Error", description: FETCH_RECOMMENDATIONS_FAILED });
    }
  }, [failed, query.errorUpdatedAt]);

  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <div className="flex items-start justify-between gap-3">
          <div className="grid gap-1">
            <h2 className="text-base leading-tight font-semibold">AI Investment Assistant</h2>
            <CardDescription>
              {forbidden ? ASSISTANT_UPGRADE : "Trade, portfolio and risk ideas from your signals and positions."}
            </CardDescription>
          </div>
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-primary/10 px-2.5 py-1 text-xs font-semibold text-primary-strong">
            <SparklesIcon className="size-3" aria-hidden />
            Pro Feature
          </span>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 pt-4">
        {forbidden ? (
          <Message title={ASSISTANT_UPGRADE}>
            <Offer features={offer} />
            <Button asChild size="sm">
              <Link to="/pricing">
                <CrownIcon aria-hidden />
                Upgrade to Pro
              </Link>
            </Button>
          </Message>
        ) : (
          <QueryState
            query={{ ...query, isError: failed }}
            loadingLabel="Loading AI recommendations"
            skeleton={<SkeletonRows count={3} className="h-20 w-full rounded-lg" />}
            skeletonClassName="gap-2"
            errorTitle={FETCH_RECOMMENDATIONS_FAILED}
            isEmpty={(list) => list.length === 0}
            empty={
              <Message title={ASSISTANT_EMPTY}>
                <p className="max-w-xs text-xs text-muted-foreground">
                  Ideas appear here as your signals and positions give the assistant something to read.
                </p>
              </Message>
            }
          >
            {(recommendations) =>
              groupByKind(recommendations).map(([kind, items]) => (
                <section key={kind} className="grid gap-2">
                  <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                    {KIND_LABEL[kind] ?? kind}
                    <span className="sr-only"> recommendations</span>
                  </h3>
                  <ul className="divide-y">
                    {items.map((r) => (
                      <RecommendationRow key={r.id} recommendation={r} />
                    ))}
                  </ul>
                </section>
              ))
            }
          </QueryState>
        )}
      </CardContent>
    </Card>
  );
}
