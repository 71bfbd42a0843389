import { LockIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { IvRankValue } from "@/components/iv-figures";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import type { Signal } from "@/lib/api/models";
import { useStockQuote } from "@/lib/api/stock-prices";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatSignedCurrency, formatSignedPercent, NO_VALUE, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { formatIv } from "@/lib/options";
import { cn } from "@/lib/utils";
import { ConfidenceMeter, SignalStatusBadge, SignalStrategyBadge, SignalTypeBadge } from "./signal-badges";

function Fact({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words tabular">{children}</dd>
    </div>
  );
}

/** "+$45.00 (+14.1%)" (or "+14.1%" with format percent), coloured by sign; "—" when there is no P&L. */
export function PnlText({
  pnl,
  pnlPercent,
  className,
  format = "currency",
}: {
  pnl: Signal["pnl"];
  pnlPercent: Signal["pnlPercent"];
  className?: string;
  format?: "currency" | "percent";
}) {
  if (pnl == null) return <span className={cn("text-muted-foreground", className)}>{NO_VALUE}</span>;
  return (
    <span className={cn(SIGN_TEXT_CLASS[signOf(pnl)], className)}>
      {format === "percent" ? formatSignedPercent(pnl) : formatSignedCurrency(pnl)}
      {pnlPercent != null ? ` (${formatSignedPercent(pnlPercent)})` : ""}
    </span>
  );
}

/**
 * The symbol's implied volatility and IV rank now, read from the watchlist's query: every card
 * shares its one answer. "—" while the symbol is off the watchlist; the rank's "—" says why.
 */
function VolatilityFacts({ symbol }: { symbol: string }) {
  const { data: quote, isPending } = useStockQuote(symbol);
  const loading = isPending ? <Skeleton className="h-5 w-14" /> : null;
  return (
    <>
      <Fact label="IV (30-day)">{loading ?? formatIv(quote?.impliedVolatility)}</Fact>
      <Fact label="IV rank">{loading ?? (quote ? <IvRankValue rank={quote.ivRank} /> : NO_VALUE)}</Fact>
    </>
  );
}

function CardTop({ signal }: { signal: Signal }) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-lg leading-none font-semibold tracking-tight">{signal.symbol}</h3>
          <SignalTypeBadge type={signal.signalType} />
        </div>
        <p className="mt-1 truncate text-sm text-muted-foreground">{signal.companyName}</p>
      </div>
      {signal.currentPrice != null ? (
        <div className="shrink-0 text-right">
          <p className="text-sm font-medium tabular">{formatContractPrice(signal.currentPrice)}</p>
          <p className={cn("text-xs tabular", SIGN_TEXT_CLASS[signOf(signal.priceChangePercent)])}>
            {formatSignedPercent(signal.priceChangePercent)}
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** One signal: what it recommends, how strong a setup it is, and how it is doing. */
export function SignalCard({ signal, onViewDetails }: { signal: Signal; onViewDetails: (signal: Signal) => void }) {
  if (signal.locked) return <LockedSignalCard signal={signal} />;
  const muted = signal.status !== "active";
  return (
    <Card
      data-testid="signal-card"
      className={cn("flex flex-col gap-4 p-4 sm:p-5", muted && "bg-muted/40")}
      aria-label={`${signal.symbol} ${signal.signalType ?? ""} signal`}
      role="article"
    >
      <CardTop signal={signal} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SignalStrategyBadge signal={signal} />
        <div className="flex items-center gap-2">
          {muted ? <SignalStatusBadge status={signal.status} /> : null}
          <ConfidenceMeter confidence={signal.confidence} />
        </div>
      </div>
      <dl className={cn("grid grid-cols-2 gap-x-4 gap-y-3 border-t pt-4", muted && "text-muted-foreground")}>
        <Fact label="Strike">{formatContractPrice(signal.strikePrice)}</Fact>
        <Fact label="Expires">{signal.expirationDate ? formatShortDate(signal.expirationDate) : NO_VALUE}</Fact>
        <Fact label="Entry / Now">
          {formatContractPrice(signal.entryPrice)} <span className="text-muted-foreground">→</span>{" "}
          {formatContractPrice(signal.currentOptionPrice)}
        </Fact>
        <Fact label="P&L per contract">
          <PnlText pnl={signal.pnl} pnlPercent={signal.pnlPercent} />
        </Fact>
        <VolatilityFacts symbol={signal.symbol} />
      </dl>
      <Button variant="outline" size="sm" className="mt-auto w-full" onClick={() => onViewDetails(signal)}>
        View Details
        <span className="sr-only"> for {signal.symbol}</span>
      </Button>
    </Card>
  );
}

/**
 * A signal beyond the plan's daily quota: the server sends no recommendation, so the card
 * shows the symbol and strategy over a blurred placeholder and an upgrade link.
 */
export function LockedSignalCard({ signal }: { signal: Signal }) {
  return (
    <Card
      data-testid="locked-signal-card"
      role="article"
      aria-label={`${signal.symbol} signal, locked`}
      className="relative flex flex-col gap-4 overflow-hidden p-4 sm:p-5"
    >
      <CardTop signal={signal} />
      <div className="flex items-center justify-between gap-2">
        <SignalStrategyBadge signal={signal} />
        {signal.confidence != null ? <ConfidenceMeter confidence={signal.confidence} /> : null}
      </div>
      <div className="relative border-t pt-4">
        <div aria-hidden className="pointer-events-none grid grid-cols-2 gap-x-4 gap-y-3 blur-[5px] select-none">
          {["Strike", "Expires", "Entry / Now", "P&L per contract"].map((label) => (
            <div key={label}>
              <p className="text-xs text-muted-foreground">{label}</p>
              <p className="mt-0.5 text-sm font-medium">000.00</p>
            </div>
          ))}
        </div>
        <div className="absolute inset-x-0 top-4 bottom-0 flex flex-col items-center justify-center gap-1 rounded-lg bg-card/70 text-center">
          <p className="inline-flex items-center gap-1.5 text-sm font-semibold">
            <LockIcon className="size-4 text-primary" aria-hidden />
            Locked signal
          </p>
          <p className="px-2 text-xs text-muted-foreground">Beyond your plan&apos;s daily signals.</p>
        </div>
      </div>
      <Button asChild size="sm" className="mt-auto w-full">
        <Link to="/pricing">Upgrade to Pro</Link>
      </Button>
    </Card>
  );
}

export function SignalCardSkeleton() {
  return (
    <Card data-testid="signal-card-skeleton" className="flex flex-col gap-4 p-4 sm:p-5" aria-hidden>
      <div className="flex justify-between">
        <div className="grid gap-2">
          <Skeleton className="h-5 w-24" />
          <Skeleton className="h-4 w-36" />
        </div>
        <Skeleton className="h-8 w-16" />
      </div>
      <Skeleton className="h-5 w-full" />
      <div className="grid grid-cols-2 gap-3 border-t pt-4">
        <SkeletonRows count={6} className="h-9" />
      </div>
      <Skeleton className="h-8 w-full" />
    </Card>
  );
}
