import { CheckIcon, InfoIcon, Loader2Icon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { QueryLoading, QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage, rateLimited } from "@/lib/api/client";
import type { CustomStrategyDocument, Preview, PreviewProposal, SymbolPreview } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice } from "@/lib/format";
import { cn } from "@/lib/utils";
import { usePreview } from "../api/custom-strategies";
import { modelScoreNumber, modelScoreText } from "../lib/describe";
import { percentText } from "../lib/rule";

/** How many of the symbols that fire are shown before "Show all". */
export const FIRING_SHOWN = 5;
/** How many of the symbols that do not fire are shown, closest first. */
export const CLOSEST_SHOWN = 5;

function Conditions({ symbol }: { symbol: SymbolPreview }) {
  return (
    <ul className="grid gap-1" aria-label={`${symbol.symbol} conditions`}>
      {symbol.conditions.map((c, i) => (
        <li key={i} className="flex items-start gap-1.5 text-[0.8rem]" data-testid="judged-condition">
          {c.holds ? (
            <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-positive-strong" aria-hidden />
          ) : (
            <XIcon className="mt-0.5 size-3.5 shrink-0 text-destructive-strong" aria-hidden />
          )}
          <span className="sr-only">{c.holds ? "Holds: " : "Does not hold: "}</span>
          <span className={cn("min-w-0 break-words", c.holds ? "text-foreground" : "text-muted-foreground")}>{c.text}</span>
        </li>
      ))}
    </ul>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-[0.7rem] text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium tabular">{value}</dd>
    </div>
  );
}

/** Whether a symbol's setup would become a signal: it fires, can be priced, and clears the minimum model score (if any). */
const wouldIssue = (symbol: SymbolPreview) => symbol.triggered && symbol.proposal != null && symbol.proposal.clearsThreshold;

/**
 * What the model says of a proposal, under a minimum or not: "Model score 62/100", and whether it
 * clears the minimum. A score out of 100, not a chance: the model is calibrated on the house
 * strategies' signals, not on a custom rule's setups (docs/decisions.md §20).
 */
function ModelLine({ proposal, threshold }: { proposal: PreviewProposal; threshold: number | null }) {
  const probability = proposal.modelProbability ?? null;
  if (probability === null && threshold === null) return null;
  const minimumText = threshold !== null ? `${percentText(threshold)}/100` : "";
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[0.8rem]" data-testid="model-line">
      {probability !== null ? (
        <span className="font-medium tabular" data-testid="model-score">
          Model score <span aria-hidden="true">{modelScoreText(probability, threshold, proposal.clearsThreshold)}</span>
          <span className="sr-only">{modelScoreNumber(probability, threshold, proposal.clearsThreshold)} out of 100</span>
        </span>
      ) : null}
      {threshold === null ? null : proposal.clearsThreshold ? (
        <Badge variant="soft" className="whitespace-normal">
          Clears your minimum of {minimumText}
        </Badge>
      ) : (
        <Badge variant="outline" className="whitespace-normal text-muted-foreground" data-testid="below-threshold">
          {probability !== null ? `Below your minimum of ${minimumText}` : "No model score yet"}
          <span className="sr-only">: no signal</span>
        </Badge>
      )}
    </p>
  );
}

function Firing({ symbol, threshold }: { symbol: SymbolPreview; threshold: number | null }) {
  const p = symbol.proposal;
  // Fired, but held back by the model's minimum score: shown muted, and not counted as issuing.
  const held = threshold !== null && p != null && !p.clearsThreshold;
  return (
    <li
      className={cn("grid gap-1.5 rounded-lg border p-3", held ? "border-dashed bg-muted/40" : "border-positive/40 bg-positive/5")}
      data-testid="firing-symbol"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold">{symbol.symbol}</span>
        <span className={cn("text-xs font-medium", held ? "text-muted-foreground" : "text-positive-strong")}>
          Fires · strength {symbol.confidence}/100
        </span>
      </div>
      {p ? (
        <>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <OptionTypeBadge type={p.signalType} />
            <span className="tabular">{formatContractPrice(p.strikePrice)} strike</span>
            <span className="text-muted-foreground">expires {formatShortDate(p.expirationDate)}</span>
          </p>
          <dl className="grid grid-cols-3 gap-2">
            <Figure label="Entry" value={formatContractPrice(p.entryPrice)} />
            <Figure label="Target" value={formatContractPrice(p.targetPrice)} />
            <Figure label="Stop" value={formatContractPrice(p.stopLoss)} />
          </dl>
          <ModelLine proposal={p} threshold={threshold} />
        </>
      ) : (
        <p className="text-[0.8rem] text-muted-foreground">It fires, but no listed contract can be priced now.</p>
      )}
      <details className="group text-[0.8rem]">
        <summary className="w-fit cursor-pointer rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
          What it read
        </summary>
        <div className="mt-1.5">
          <Conditions symbol={symbol} />
        </div>
      </details>
    </li>
  );
}

function Closest({ symbol }: { symbol: SymbolPreview }) {
  return (
    <li className="grid gap-1.5 rounded-lg border p-3" data-testid="closest-symbol">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold">{symbol.symbol}</span>
        <span className="text-xs text-muted-foreground">Quiet · strength {symbol.confidence}/100</span>
      </div>
      <Conditions symbol={symbol} />
    </li>
  );
}

/** `threshold`: the document's `minProbability` (null: the rule alone decides). */
function Answer({ preview, threshold }: { preview: Preview; threshold: number | null }) {
  const [showAll, setShowAll] = useState(false);
  const allFiring = preview.symbols.filter((s) => s.triggered);
  const firing = showAll ? allFiring : allFiring.slice(0, FIRING_SHOWN);
  const hidden = allFiring.length - firing.length;
  const closest = preview.symbols.filter((s) => !s.triggered).slice(0, CLOSEST_SHOWN);
  const waiting = preview.notEnoughHistory.length;
  const noModel = threshold !== null && preview.modelVersion == null;
  return (
    <div className="grid gap-4">
      {noModel ? (
        <p role="note" className="flex items-start gap-2 rounded-lg border bg-muted/50 p-3 text-[0.8rem]" data-testid="no-model-notice">
          <InfoIcon className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />
          No model ships yet, so this strategy issues no signals until one does.
        </p>
      ) : null}
      {firing.length > 0 ? (
        <div className="grid gap-2">
          <ul className="grid gap-2" aria-label="Stocks where the rule fires">
            {firing.map((s) => (
              <Firing key={s.symbol} symbol={s} threshold={threshold} />
            ))}
          </ul>
          {hidden > 0 || showAll ? (
            <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => setShowAll((v) => !v)}>
              {showAll ? "Show fewer" : `Show all ${allFiring.length} that fire`}
            </Button>
          ) : null}
        </div>
      ) : null}
      {closest.length > 0 ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">{firing.length > 0 ? "Closest of the rest" : "Closest to firing"}</h3>
          <ul className="grid gap-2" aria-label="Closest stocks that do not fire">
            {closest.map((s) => (
              <Closest key={s.symbol} symbol={s} />
            ))}
          </ul>
        </div>
      ) : null}
      {waiting > 0 ? (
        <p className="text-[0.8rem] text-muted-foreground">
          Not judged, without a year of history yet: {preview.notEnoughHistory.join(", ")}.
        </p>
      ) : null}
    </div>
  );
}

function retryAfter(error: unknown): string | null {
  const limited = rateLimited(error);
  if (!limited) return null;
  const wait = limited.retryAfter !== null ? `in ${Math.ceil(limited.retryAfter / 60)} min` : "shortly";
  return `Too many previews this hour: try again ${wait}.`;
}

/**
 * "Fires on 3 of 50 stocks today", said again to screen readers when it changes; under a model
 * score minimum, how many of those would become signals too ("; 1 would issue a signal").
 */
function countText(preview: Preview | undefined, threshold: number | null): string {
  if (!preview) return "";
  const judged = preview.symbols.length;
  const fires = `Fires on ${preview.firing} of ${judged} ${judged === 1 ? "stock" : "stocks"} today`;
  if (threshold === null) return fires;
  const issuing = preview.symbols.filter(wouldIssue).length;
  return `${fires}; ${issuing === 0 ? "none" : issuing} would issue ${issuing > 1 ? "signals" : "a signal"}`;
}

/**
 * Today: what the rule (`document`, the draft once it has stopped changing; null while it has
 * mistakes, `complete` false, or before the first pause) says on each tracked stock now. The stocks where it fires first, with what it would open; then the
 * closest of the others, each condition ✓ or ✗ with the values it read.
 */
export function TodayPanel({
  document,
  complete,
  className,
}: {
  document: CustomStrategyDocument | null;
  complete: boolean;
  className?: string;
}) {
  const id = useId();
  const preview = usePreview(document ? { document } : null);
  const threshold = document?.minProbability ?? null;
  const asOf = preview.data?.symbols[0]?.asOf;
  const skeleton = (
    <div className="grid gap-2">
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-16 w-full" />
    </div>
  );
  return (
    <Card className={cn("min-w-0", className)} data-testid="today-panel">
      <CardHeader className="gap-1 pb-3">
        <div className="flex items-center justify-between gap-2">
          <h2 id={`${id}-title`} className="text-base leading-tight font-semibold">
            Today
          </h2>
          {complete && (!document || preview.isFetching) ? (
            <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="preview-loading">
              <Loader2Icon className="size-3.5 animate-spin" aria-hidden />
              Judging…
            </span>
          ) : null}
        </div>
        <p role="status" aria-live="polite" className="text-sm font-medium" data-testid="firing-count">
          {complete && document ? countText(preview.data, threshold) : ""}
        </p>
        <p className="text-[0.8rem] text-muted-foreground">
          {asOf ? `On each tracked stock's latest bar (${formatShortDate(asOf)}). ` : ""}
          Not live signals: what the rule says now.
        </p>
      </CardHeader>
      <CardContent>
        {!complete ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground" data-testid="preview-waiting">
            Fix the marked fields to see what the rule says today.
          </p>
        ) : !document ? (
          <QueryLoading label="Judging the rule on each stock">{skeleton}</QueryLoading>
        ) : (
          <div className={cn("transition-opacity", preview.isPlaceholderData && "opacity-60")} aria-busy={preview.isFetching || undefined}>
            <QueryState
              query={preview}
              loadingLabel="Judging the rule on each stock"
              skeleton={skeleton}
              errorTitle={(error) => (error instanceof ApiError && error.status === 422 ? "The rule was refused" : "The preview failed")}
              errorDetail={(error) =>
                retryAfter(error) ??
                (error instanceof ApiError && error.status === 422 && error.fieldErrors.length > 0
                  ? error.fieldErrors.map((f) => f.message).join(" ")
                  : errorMessage(error, "Try again in a moment."))
              }
              errorLayout="banner"
            >
              {(data) => <Answer preview={data} threshold={threshold} />}
            </QueryState>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
