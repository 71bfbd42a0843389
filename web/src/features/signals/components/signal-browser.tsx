import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { DownloadIcon, Loader2Icon, RefreshCwIcon, SearchXIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { errorMessage } from "@/lib/api/client";
import type { Signal } from "@/lib/api/models";
import { usePagination } from "@/lib/pagination";
import { toast } from "@/lib/toast";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { signalsOf, signalsQueryOptions, useSignalRefetch } from "../api/get-signals";
import { useRefreshSignals } from "../api/refresh-signals";
import { exportAllSignalsCsv, signalsCsvFilename } from "../lib/export-csv";
import { EMPTY_FILTERS, type FilterState, hasFilters, toSignalFilters } from "../lib/filters";
import { FilterBar } from "./filter-bar";
import { GenerateSignalDialog } from "./generate-signal-dialog";
import { LoadOlderSignals } from "./load-older-signals";
import { SignalCard, SignalCardSkeleton } from "./signal-card";
import { SignalDetailDialog } from "./signal-detail-dialog";

/** How long the symbol text must rest before it is sent. */
export const SYMBOL_DEBOUNCE_MS = 300;

type SignalBrowserProps = {
  title: string;
  description?: string;
  filters: FilterState;
  onFiltersChange: (next: FilterState) => void;
  pageSize: number;
  /** Loading placeholders shown before the first answer. */
  skeletons: number;
  /** The message for a failed fetch (the dashboard adds the status, the signals page does not). */
  fetchErrorText: (error: Error) => string;
  /** More buttons after Generate (the signals page's Upgrade to Pro link). */
  extraActions?: ReactNode;
  gridClassName?: string;
  headingLevel?: "h2" | "h3";
};

/** "1 signal", "400 signals". */
const countSignals = (n: number) => `${n} ${n === 1 ? "signal" : "signals"}`;

/**
 * The filterable, paginated signal cards with refresh, CSV export, Generate Signal and the
 * detail dialog. Used by the dashboard (4 per page) and the signals page.
 *
 * The server answers 50 signals a page, newest first; the cards are paged on the client over
 * the signals loaded so far, and "Load older signals" fetches the next page through the
 * cursor. The CSV export reads every signal matching the filters, not only those loaded.
 */
export function SignalBrowser({
  title,
  description,
  filters,
  onFiltersChange,
  pageSize,
  skeletons,
  fetchErrorText,
  extraActions,
  gridClassName,
  headingLevel = "h2",
}: SignalBrowserProps) {
  const symbol = useDebouncedValue(filters.symbol, SYMBOL_DEBOUNCE_MS);
  const apiFilters = toSignalFilters({ ...filters, symbol });
  const refetchInterval = useSignalRefetch();
  const query = useInfiniteQuery({ ...signalsQueryOptions(apiFilters), placeholderData: keepPreviousData, refetchInterval });
  const signals = signalsOf(query.data);
  // Another page loaded keeps the page shown; new filters or a changed count go back to page 1.
  const pager = usePagination(signals.length, pageSize, JSON.stringify(apiFilters), query.data?.pages.length ?? 0);
  const refresh = useRefreshSignals();
  const [selected, setSelected] = useState<Signal | null>(null);
  const [detailOpen, setDetailOpen] = useState(false);
  // The open dialog follows live updates of its signal.
  const current = selected ? (signals.find((s) => s.id === selected.id) ?? selected) : null;
  const filtered = hasFilters(filters);
  const stale = query.isPlaceholderData || filters.symbol !== symbol;

  const onRefresh = () => {
    refresh.mutate(undefined, {
      onError: () => toast({ variant: "destructive", title: "Error", description: "Failed to refresh signals" }),
    });
  };

  // The running count while the export reads every page; null when idle.
  const [exporting, setExporting] = useState<number | null>(null);
  const onExport = async () => {
    setExporting(0);
    try {
      const count = await exportAllSignalsCsv(apiFilters, setExporting);
      toast({ title: "Signals Exported", description: `Saved ${countSignals(count)} to ${signalsCsvFilename()}` });
    } catch (error) {
      // A failed page downloads nothing: no partial file.
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to export signals") });
    } finally {
      setExporting(null);
    }
  };

  const openDetails = (signal: Signal) => {
    setSelected(signal);
    setDetailOpen(true);
  };

  const Heading = headingLevel;
  return (
    <Card>
      <CardHeader className="gap-4 border-b pb-5">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
          <div className="grid gap-1">
            <Heading className="text-base leading-tight font-semibold">{title}</Heading>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" onClick={onRefresh} disabled={refresh.isPending}>
              <RefreshCwIcon aria-hidden className={cn(refresh.isPending && "animate-spin motion-reduce:animate-none")} />
              {refresh.isPending ? "Refreshing..." : "Refresh"}
            </Button>
            <Button
              variant="outline"
              onClick={() => void onExport()}
              disabled={exporting !== null || query.isPending || stale || signals.length === 0}
              aria-busy={exporting !== null || undefined}
            >
              {exporting !== null ? (
                <Loader2Icon aria-hidden className="animate-spin motion-reduce:animate-none" />
              ) : (
                <DownloadIcon aria-hidden />
              )}
              {exporting === null ? "Export CSV" : exporting === 0 ? "Exporting..." : `Exporting... ${countSignals(exporting)}`}
            </Button>
            <GenerateSignalDialog />
            {extraActions}
          </div>
        </div>
        <FilterBar value={filters} onChange={onFiltersChange} />
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 pt-5">
        <QueryState
          // An older page that fails is toasted by LoadOlderSignals; the loaded signals stay.
          query={{ ...query, isError: query.isError && !query.isFetchNextPageError }}
          loadingLabel="Loading signals"
          skeleton={Array.from({ length: skeletons }, (_, i) => (
            <SignalCardSkeleton key={i} />
          ))}
          skeletonClassName={cn("gap-4", gridClassName)}
          errorTitle={fetchErrorText}
          errorLayout="banner"
          staleData="show-with-error"
          isEmpty={() => signals.length === 0}
          empty={
            <EmptyState
              icon={SearchXIcon}
              title="No signals found matching your criteria"
              description={
                filtered ? "Try a different symbol or fewer filters." : "New signals appear here as soon as the strategies issue them."
              }
              action={
                filtered ? (
                  <Button variant="outline" size="sm" onClick={() => onFiltersChange(EMPTY_FILTERS)}>
                    Clear filters
                  </Button>
                ) : undefined
              }
              className="border-none bg-transparent py-12"
            />
          }
        >
          {() => (
            <>
              <div
                data-testid="signal-grid"
                aria-busy={stale || undefined}
                className={cn("grid gap-4 transition-opacity", gridClassName, stale && "opacity-60")}
              >
                {pager.slice(signals).map((signal) => (
                  <SignalCard key={signal.id} signal={signal} onViewDetails={openDetails} />
                ))}
              </div>
              <Pagination pager={pager} noun="signals" label={`${title} pages`} />
              <LoadOlderSignals
                query={query}
                loaded={signals.length}
                onLoaded={(first) => pager.setPage(pager.pageOf(first))}
                disabled={stale}
              />
            </>
          )}
        </QueryState>
      </CardContent>
      <SignalDetailDialog signal={current} open={detailOpen} onOpenChange={setDetailOpen} />
    </Card>
  );
}
