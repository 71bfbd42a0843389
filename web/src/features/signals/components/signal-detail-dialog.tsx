import { BriefcaseBusinessIcon, LayersIcon, TableIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { IvRankValue } from "@/components/iv-figures";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import type { Signal, SignalAnalysis } from "@/lib/api/models";
import { useStockQuote } from "@/lib/api/stock-prices";
import { formatDateTime, formatShortDate } from "@/lib/dates";
import {
  formatContractPrice,
  formatCurrency,
  formatPercent,
  formatRatio,
  formatSignedCurrency,
  formatSignedPercent,
  formatVolume,
  NO_VALUE,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { formatIv, formatIvScore, IV_RANK_MINIMUM_SESSIONS, stockOptionsPath } from "@/lib/options";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useAddSignalToPortfolio } from "../api/add-signal-to-portfolio";
import { useSignalAnalysis } from "../api/get-signal-analysis";
import { useStrategyLabel } from "../hooks/use-strategy-label";
import { builderLinkForSignal } from "../lib/builder-link";
import { PayoffChart } from "@/components/charts/payoff-chart";
import { PriceChart } from "./price-chart";
import { ShareMenu } from "./share-menu";
import { SignalProbabilities } from "./signal-probabilities";
import { ConfidenceMeter, SignalStatusBadge, SignalTypeBadge } from "./signal-badges";

const CLOSE_REASONS: Record<NonNullable<Signal["closeReason"]>, string> = {
  target: "Target reached",
  stop: "Stop hit",
  expiry: "Expired",
  time: "Time limit reached",
};

function Fact({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0 rounded-lg bg-muted/50 px-3 py-2.5", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-sm font-medium tabular">{children}</dd>
    </div>
  );
}

/** "Nov 23, 2026, 2:35 PM", or "N/A" when the time is missing or unreadable. */
export function createdText(createdAt: string | null | undefined): string {
  if (!createdAt || Number.isNaN(Date.parse(createdAt))) return "N/A";
  return formatDateTime(createdAt);
}

/**
 * The symbol's implied volatility, IV rank and IV percentile now, from the watchlist's query
 * (the one the cards read). While rank and percentile are hidden, the rank says why.
 */
function VolatilityFacts({ symbol }: { symbol: string }) {
  const { data: quote, isPending } = useStockQuote(symbol);
  if (isPending) {
    return (
      <Fact label="Implied Volatility" className="col-span-2 sm:col-span-3">
        <Skeleton className="h-5 w-40" />
      </Fact>
    );
  }
  const hidden = quote != null && quote.ivRank == null;
  return (
    <>
      <Fact label="Implied Volatility (30-day)">{formatIv(quote?.impliedVolatility)}</Fact>
      <Fact label="IV Rank">
        {quote ? <IvRankValue rank={quote.ivRank} /> : NO_VALUE}
        {hidden ? (
          <span aria-hidden className="block text-xs font-normal text-muted-foreground">
            Needs {IV_RANK_MINIMUM_SESSIONS} recorded sessions
          </span>
        ) : null}
      </Fact>
      <Fact label="IV Percentile">{quote ? formatIvScore(quote.ivPercentile) : NO_VALUE}</Fact>
    </>
  );
}

/**
 * The strategy's name; under a custom strategy's, that it is the user's own (only they see its
 * signals), or that it has since been deleted.
 */
function StrategyFact({ signal }: { signal: Signal }) {
  const label = useStrategyLabel(signal);
  return (
    <>
      <span className="break-words">{label.text}</span>
      {label.custom ? (
        <span className="block text-xs font-normal text-muted-foreground">
          {label.deleted ? "Your custom strategy, since deleted" : "Your custom strategy"}
        </span>
      ) : null}
    </>
  );
}

function SignalFacts({ signal }: { signal: Signal }) {
  const changeSign = SIGN_TEXT_CLASS[signOf(signal.priceChange)];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      <Fact label="Type">
        <SignalTypeBadge type={signal.signalType} />
      </Fact>
      <Fact label="Strategy">
        <StrategyFact signal={signal} />
      </Fact>
      <Fact label="Strength">
        <ConfidenceMeter confidence={signal.confidence} />
      </Fact>
      <Fact label="Status">{signal.status ? signal.status.toUpperCase() : NO_VALUE}</Fact>
      <Fact label="Expiration">{signal.expirationDate ? formatShortDate(signal.expirationDate) : NO_VALUE}</Fact>
      <Fact label="Strike Price">{formatContractPrice(signal.strikePrice)}</Fact>
      <Fact label="Current Price">{formatContractPrice(signal.currentPrice)}</Fact>
      <Fact label="Price Change">
        <span className={changeSign}>
          {formatContractPrice(signal.priceChange, { signed: true })} ({formatSignedPercent(signal.priceChangePercent)})
        </span>
      </Fact>
      <Fact label="Entry Price">{formatContractPrice(signal.entryPrice)}</Fact>
      <Fact label="Option Price">{formatContractPrice(signal.currentOptionPrice)}</Fact>
      {signal.pnl != null ? (
        <Fact label="P&L per contract">
          <span className={SIGN_TEXT_CLASS[signOf(signal.pnl)]}>{formatSignedCurrency(signal.pnl)}</span>
        </Fact>
      ) : null}
      {signal.pnlPercent != null ? (
        <Fact label="P&L %">
          <span className={SIGN_TEXT_CLASS[signOf(signal.pnlPercent)]}>{formatSignedPercent(signal.pnlPercent)}</span>
        </Fact>
      ) : null}
      {signal.targetPrice != null ? <Fact label="Target (option)">{formatContractPrice(signal.targetPrice)}</Fact> : null}
      {signal.stopLoss != null ? <Fact label="Stop Loss (option)">{formatContractPrice(signal.stopLoss)}</Fact> : null}
      {signal.rsi != null ? <Fact label="RSI">{formatRatio(signal.rsi, 1)}</Fact> : null}
      {signal.volume != null ? <Fact label="Volume">{formatVolume(signal.volume)}</Fact> : null}
      {signal.volatility != null ? <Fact label="Volatility (σ)">{formatPercent(signal.volatility * 100)}</Fact> : null}
      <VolatilityFacts symbol={signal.symbol} />
      <Fact label="Underlying at Entry">{formatContractPrice(signal.underlyingEntryPrice)}</Fact>
      <Fact label="Created">{createdText(signal.createdAt)}</Fact>
      {signal.closedAt ? (
        <Fact label="Closed">
          {createdText(signal.closedAt)}
          {signal.closeReason ? <span className="block text-xs text-muted-foreground">{CLOSE_REASONS[signal.closeReason]}</span> : null}
        </Fact>
      ) : null}
    </dl>
  );
}

function RiskFigures({ analysis }: { analysis: SignalAnalysis }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      <Fact label="Max Loss">
        <span className="text-destructive-strong">{formatCurrency(Math.abs(analysis.maxLoss))}</span>
      </Fact>
      <Fact label="Max Gain">
        <span className="text-positive-strong">{analysis.maxGain == null ? "Unlimited" : formatCurrency(analysis.maxGain)}</span>
      </Fact>
      <Fact label="Probability of Profit">{formatPercent(analysis.probabilityOfProfit * 100)}</Fact>
      <Fact label="Expected Move">±{formatContractPrice(Math.abs(analysis.expectedMove))}</Fact>
      <Fact label={analysis.breakevens.length === 1 ? "Breakeven" : "Breakevens"} className="col-span-2 sm:col-span-4">
        {analysis.breakevens.length > 0 ? analysis.breakevens.map((b) => formatContractPrice(b)).join(" and ") : NO_VALUE}
      </Fact>
    </dl>
  );
}

function AnalysisSection({ signal, open }: { signal: Signal; open: boolean }) {
  const query = useSignalAnalysis(signal.id, open && !signal.locked);
  return (
    <QueryState
      query={query}
      loadingLabel="Loading charts"
      skeleton={<SkeletonRows count={2} className="h-60 w-full" />}
      errorTitle="The charts for this signal could not be loaded."
      errorLayout="panel"
    >
      {(analysis) => <AnalysisCharts signal={signal} analysis={analysis} />}
    </QueryState>
  );
}

/** The price chart with the strike, targets and stops, the payoff at expiry, the risk figures and the three probabilities. */
function AnalysisCharts({ signal, analysis }: { signal: Signal; analysis: SignalAnalysis }) {
  return (
    <div className="grid gap-5">
      <section aria-labelledby={`price-${signal.id}`} className="grid gap-2">
        <h3 id={`price-${signal.id}`} className="text-sm font-semibold">
          {signal.symbol} · last {analysis.history.length} trading days
        </h3>
        <PriceChart
          symbol={signal.symbol}
          history={analysis.history}
          strike={analysis.strike}
          targets={analysis.underlyingTarget}
          stops={analysis.underlyingStop}
        />
      </section>
      <section aria-labelledby={`payoff-${signal.id}`} className="grid gap-2">
        <h3 id={`payoff-${signal.id}`} className="text-sm font-semibold">
          Payoff per contract
        </h3>
        <PayoffChart payoff={analysis.payoff} breakevens={analysis.breakevens} currentPrice={signal.currentPrice ?? null} />
      </section>
      <RiskFigures analysis={analysis} />
      <SignalProbabilities analysis={analysis} />
    </div>
  );
}

/**
 * Copies the signal's contract into the user's manual positions; toasts "Signal added to your
 * portfolio successfully" or "Failed to add signal to portfolio".
 */
function AddToPortfolioButton({ signal }: { signal: Signal }) {
  const mutation = useAddSignalToPortfolio();
  const { name: strategyName } = useStrategyLabel(signal);
  const onClick = async () => {
    try {
      await mutation.mutateAsync({ signal, strategyName });
      toast({ title: "Success", description: "Signal added to your portfolio successfully" });
    } catch {
      toast({ variant: "destructive", title: "Error", description: "Failed to add signal to portfolio" });
    }
  };
  return (
    <Button variant="outline" onClick={() => void onClick()} disabled={mutation.isPending}>
      <BriefcaseBusinessIcon aria-hidden />
      {mutation.isPending ? "Adding..." : "Add to Portfolio"}
    </Button>
  );
}

/**
 * The signal's contract as legs in the strategy builder, to edit (sell a further strike for a
 * spread, say) and save to the portfolio. The builder itself says when the plan does not include it.
 */
function OpenInBuilderButton({ signal }: { signal: Signal }) {
  const link = builderLinkForSignal(signal);
  if (!link) return null;
  return (
    <Button asChild variant="ghost">
      <Link to={link}>
        <LayersIcon aria-hidden />
        Open in Strategy builder
      </Link>
    </Button>
  );
}

// The server's OpenAPI document marks nullable fields optional: `!= null` treats a missing field as null.

/** Everything about one signal: its facts (SignalFacts), reasoning, price and payoff charts, three probabilities, sharing. */
export function SignalDetailDialog({
  signal,
  open,
  onOpenChange,
}: {
  signal: Signal | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open && signal != null} onOpenChange={onOpenChange}>
      {signal ? (
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-3xl gap-5 overflow-y-auto p-4 sm:p-6" data-testid="signal-detail">
          <DialogHeader>
            <div className="flex flex-wrap items-center gap-2">
              <DialogTitle className="text-xl">{signal.symbol}</DialogTitle>
              <SignalTypeBadge type={signal.signalType} />
              <SignalStatusBadge status={signal.status} />
              {signal.onDemand ? <span className="text-xs text-muted-foreground">Generated on request</span> : null}
            </div>
            <DialogDescription>{signal.companyName}</DialogDescription>
          </DialogHeader>
          <SignalFacts signal={signal} />
          {signal.reasoning ? (
            <section aria-label="Reasoning" className="rounded-lg border p-3 text-sm leading-relaxed">
              <h3 className="mb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Reasoning</h3>
              <p>{signal.reasoning}</p>
            </section>
          ) : null}
          {signal.locked ? null : <AnalysisSection signal={signal} open={open} />}
          <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-4">
            {signal.locked ? (
              <span />
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <AddToPortfolioButton signal={signal} />
                <ShareMenu position={signal} />
                <Button asChild variant="ghost">
                  <Link to={stockOptionsPath(signal.symbol)}>
                    <TableIcon aria-hidden />
                    Option chain
                    <span className="sr-only"> for {signal.symbol}</span>
                  </Link>
                </Button>
                <OpenInBuilderButton signal={signal} />
              </div>
            )}
            <DialogClose asChild>
              <Button variant="ghost" className="ml-auto">
                Close
              </Button>
            </DialogClose>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

export default SignalDetailDialog;
