import { HistoryIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api/client";
import type { Signal } from "@/lib/api/models";
import { formatDateTime, formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatScore, NO_VALUE } from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { cn } from "@/lib/utils";
import { signalsOf, useSignals } from "../api/get-signals";
import { LoadOlderSignals } from "./load-older-signals";
import { PnlText } from "./signal-card";
import { SignalStatusBadge, SignalStrategyName, SignalTypeBadge } from "./signal-badges";
import { SignalDetailDialog } from "./signal-detail-dialog";

export const HISTORY_PAGE_SIZE = 10;

/** One page of signals as a table, scrolling sideways on narrow screens. */
function HistoryTable({ signals, onOpen }: { signals: Signal[]; onOpen: (signal: Signal) => void }) {
  return (
    <div
      className="relative -mx-5 overflow-x-auto rounded-md px-5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      tabIndex={0}
      role="region"
      aria-label="Recent signals history table"
    >
      <table className="w-full min-w-[820px] text-sm">
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Symbol
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Strategy
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Strike
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Expires
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Strength
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              P&amp;L
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Issued
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {signals.map((s) => (
            <tr key={s.id} className={cn("border-b last:border-b-0", s.status !== "active" && "text-muted-foreground")}>
              <td className="py-2.5 pr-3">
                <span className="font-semibold text-foreground">{s.symbol}</span>
                <span className="block max-w-36 truncate text-xs text-muted-foreground">{s.companyName}</span>
              </td>
              <td className="py-2.5 pr-3">
                <SignalTypeBadge type={s.signalType} />
              </td>
              <td className="py-2.5 pr-3 whitespace-nowrap">
                <span className="block max-w-40 truncate">
                  <SignalStrategyName signal={s} />
                </span>
              </td>
              <td className="py-2.5 pr-3 text-right tabular">{formatContractPrice(s.strikePrice)}</td>
              <td className="py-2.5 pr-3 whitespace-nowrap">{s.expirationDate ? formatShortDate(s.expirationDate) : NO_VALUE}</td>
              <td className="py-2.5 pr-3 text-right tabular">{formatScore(s.confidence)}</td>
              <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">
                <PnlText pnl={s.pnl} pnlPercent={null} className="block" />
                {s.pnlPercent != null ? <PnlText pnl={s.pnlPercent} pnlPercent={null} className="block text-xs" format="percent" /> : null}
              </td>
              <td className="py-2.5 pr-3">
                <SignalStatusBadge status={s.status} />
              </td>
              <td className="py-2.5 pr-3 whitespace-nowrap">
                {Number.isNaN(Date.parse(s.createdAt)) ? "N/A" : formatDateTime(s.createdAt)}
              </td>
              <td className="py-2.5 text-right">
                {s.locked ? null : (
                  <Button variant="ghost" size="sm" onClick={() => onOpen(s)}>
                    View<span className="sr-only"> {s.symbol} signal</span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The signals loaded so far, newest first, 10 per page with numbered pages; each row opens
 * the detail dialog. The server answers 50 a page; "Load older signals" fetches the next
 * page through the cursor.
 */
export function SignalsHistoryTable() {
  const query = useSignals();
  const signals = signalsOf(query.data);
  // Another page loaded keeps the page shown; a changed count goes back to page 1.
  const pager = usePagination(signals.length, HISTORY_PAGE_SIZE, null, query.data?.pages.length ?? 0);
  const [selected, setSelected] = useState<Signal | null>(null);
  const [open, setOpen] = useState(false);
  const current = selected ? (signals.find((s) => s.id === selected.id) ?? selected) : null;

  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <h2 className="text-base leading-tight font-semibold">Recent Signals History</h2>
        <CardDescription>Every signal issued, newest first, with how it is doing or how it ended.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        <QueryState
          // An older page that fails is toasted by LoadOlderSignals; the loaded signals stay.
          query={{ ...query, isError: query.isError && !query.isFetchNextPageError }}
          loadingLabel="Loading signals"
          skeleton={<SkeletonRows count={5} className="h-9 w-full" />}
          skeletonClassName="gap-2"
          errorTitle={(error) => (error instanceof ApiError ? `Failed to fetch signals: ${error.status}` : "Failed to fetch signals")}
          staleData="show-with-error"
          isEmpty={() => signals.length === 0}
          empty={<EmptyState icon={HistoryIcon} title="No signals found" className="border-none bg-transparent py-10" />}
        >
          {() => (
            <>
              <HistoryTable
                signals={pager.slice(signals)}
                onOpen={(signal) => {
                  setSelected(signal);
                  setOpen(true);
                }}
              />
              <Pagination pager={pager} noun="signals" label="Signals history pages" />
              <LoadOlderSignals query={query} loaded={signals.length} onLoaded={(first) => pager.setPage(pager.pageOf(first))} />
            </>
          )}
        </QueryState>
      </CardContent>
      <SignalDetailDialog signal={current} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
