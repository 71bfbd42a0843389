import { BellIcon, SignalIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import type { Signal } from "@/lib/api/models";
import { formatBadgeCount, formatPercentOrDash, formatPrice, formatSignedPercent, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useActiveSignals } from "../hooks/use-active-signal-count";
import { SignalTypeBadge } from "./signal-badges";
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
          <span className="shrink-0 text-sm font-medium tabular">{formatPercentOrDash(signal.confidence, 0)}</span>
        </span>
        <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          <span>{signal.strategy}</span>
          <span className="tabular">Strike {formatPrice(signal.strikePrice)}</span>
          <span className="tabular">
            {formatPrice(signal.currentPrice)}{" "}
            <span className={SIGN_TEXT_CLASS[signOf(signal.priceChangePercent)]}>{formatSignedPercent(signal.priceChangePercent)}</span>
          </span>
          {signal.pnl != null ? <PnlText pnl={signal.pnl} pnlPercent={signal.pnlPercent} className="tabular" /> : null}
        </span>
      </button>
    </li>
  );
}

/** The header's bell: the active-signal count, opening the list of active signals. */
export function NotificationBell() {
  const { signals, isPending } = useActiveSignals();
  const count = signals.length;
  const label = count === 1 ? "1 active signal" : `${count} active signals`;
  const [selected, setSelected] = useState<Signal | null>(null);
  const [detailOpen, setDetailOpen] = useState(false);
  const current = selected ? (signals.find((s) => s.id === selected.id) ?? selected) : null;

  return (
    <>
      <Dialog>
        <DialogTrigger asChild>
          <Button variant="ghost" size="icon" className="relative text-muted-foreground hover:text-foreground">
            <BellIcon className="size-[1.15rem]" />
            {count > 0 ? (
              <span
                aria-hidden
                data-testid="notification-count"
                className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-semibold text-destructive-foreground tabular"
              >
                {formatBadgeCount(count)}
              </span>
            ) : null}
            <span className="sr-only">Notifications: {label}</span>
          </Button>
        </DialogTrigger>
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-md grid-rows-[auto_minmax(0,1fr)] overflow-hidden">
          <DialogHeader>
            <DialogTitle>Active Signals</DialogTitle>
            <DialogDescription>Signals that are open right now.</DialogDescription>
          </DialogHeader>
          {isPending ? (
            <div className="grid gap-2" aria-busy="true">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          ) : count === 0 ? (
            <EmptyState
              icon={SignalIcon}
              title="No active signals"
              description="You will see signals here as soon as they open."
              className="py-10"
            />
          ) : (
            <ul className={cn("-mx-1 grid gap-2 overflow-y-auto px-1 pb-1")} aria-label="Active signals">
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
        </DialogContent>
      </Dialog>
      {current ? (
        <Suspense fallback={null}>
          <SignalDetailDialog signal={current} open={detailOpen} onOpenChange={setDetailOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
