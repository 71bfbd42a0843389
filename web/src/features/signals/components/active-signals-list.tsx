import { SignalIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { QueryLoading } from "@/components/query-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { Signal } from "@/lib/api/models";
import { formatContractPrice, formatScore, formatSignedPercent, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { useActiveSignals } from "../hooks/use-active-signal-count";
import { SignalStrategyName, SignalTypeBadge } from "./signal-badges";
import { PnlText } from "./signal-card";

// The detail dialog (charts, sharing) loads when a signal is opened, not with the app shell.
const SignalDetailDialog = lazy(() => import("./signal-detail-dialog"));

function ActiveSignalRow({ signal, onOpen }: { signal: Signal; onOpen: (s: Signal) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(signal)}
        className="grid w-full gap-1.5 rounded-lg border bg-card px-3 py-2.5 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex items-center justify-between gap-2">
          <span className="flex min-w-0 items-center gap-2">
            <span className="font-semibold">{signal.symbol}</span>
            <SignalTypeBadge type={signal.signalType} />
            <span className="truncate text-xs text-muted-foreground">{signal.companyName}</span>
          </span>
          <span className="shrink-0 text-sm font-medium tabular">
            <span className="text-xs font-normal text-muted-foreground">Strength</span> {formatScore(signal.confidence)}
          </span>
        </span>
        <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          <span className="max-w-full truncate">
            <SignalStrategyName signal={signal} />
          </span>
          <span className="tabular">Strike {formatContractPrice(signal.strikePrice)}</span>
          <span className="tabular">
            {formatContractPrice(signal.currentPrice)}{" "}
            <span className={SIGN_TEXT_CLASS[signOf(signal.priceChangePercent)]}>{formatSignedPercent(signal.priceChangePercent)}</span>
          </span>
          {signal.pnl != null ? <PnlText pnl={signal.pnl} pnlPercent={signal.pnlPercent} className="tabular" /> : null}
        </span>
      </button>
    </li>
  );
}

/**
 * The active signals the user can open (the bell's "Active signals" tab): each one's symbol,
 * company, type, strategy, strength (a score out of 100), strike, current price and change, P&L if any; opening
 * one shows its details. Empty: 'No active signals'.
 */
export function ActiveSignalsList() {
  const { signals, isPending } = useActiveSignals();
  const [selected, setSelected] = useState<Signal | null>(null);
  const [detailOpen, setDetailOpen] = useState(false);
  const current = selected ? (signals.find((s) => s.id === selected.id) ?? selected) : null;

  return (
    <>
      <p className="mb-3 text-sm text-muted-foreground">Signals that are open right now.</p>
      {isPending ? (
        <QueryLoading label="Loading active signals" className="gap-2">
          <SkeletonRows count={2} className="h-16" />
        </QueryLoading>
      ) : signals.length === 0 ? (
        <EmptyState
          icon={SignalIcon}
          title="No active signals"
          description="You will see signals here as soon as they open."
          className="py-10"
        />
      ) : (
        <ul className="-mx-1 grid grid-cols-1 gap-2 px-1 pb-1" aria-label="Active signals">
          {signals.map((signal) => (
            <ActiveSignalRow
              key={signal.id}
              signal={signal}
              onOpen={(s) => {
                setSelected(s);
                setDetailOpen(true);
              }}
            />
          ))}
        </ul>
      )}
      {current ? (
        <Suspense fallback={null}>
          <SignalDetailDialog signal={current} open={detailOpen} onOpenChange={setDetailOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
