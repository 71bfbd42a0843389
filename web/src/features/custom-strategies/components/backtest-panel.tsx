import { FlaskConicalIcon, Loader2Icon } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { QueryError } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { BacktestRequest, FieldError, OverallBacktest } from "@/lib/api/models";
import { todayIso } from "@/lib/calendar";
import { formatCount, formatFractionPercent, formatMoney, formatPercentOrDash } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useTrackedStocks } from "../api/custom-strategies";
import { Segmented } from "./segmented";

/** How the page shows a finished run (the backtest screen's results, handed in by the app). */
export type BacktestResultsSlot = (result: OverallBacktest) => ReactNode;

type StockChoice = "all" | "chosen";

/** The run's options as the inputs hold them. */
export type BacktestChoice = { stocks: StockChoice; symbols: string[]; startDate: string; endDate: string };

export const EMPTY_CHOICE: BacktestChoice = { stocks: "all", symbols: [], startDate: "", endDate: "" };

/** What is sent besides the rule: only what was chosen ("all", empty dates: the server's defaults). */
export function backtestOptions(choice: BacktestChoice): Omit<BacktestRequest, "customStrategy"> {
  return {
    ...(choice.stocks === "chosen" && choice.symbols.length > 0 ? { symbols: choice.symbols } : {}),
    ...(choice.startDate ? { startDate: choice.startDate } : {}),
    ...(choice.endDate ? { endDate: choice.endDate } : {}),
  };
}

/** Seconds since `running` turned true, counted while it stays so. */
function useElapsedSeconds(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    setSeconds(0);
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return seconds;
}

function Running({ seconds }: { seconds: number }) {
  return (
    <div className="grid gap-2 rounded-lg border p-4" data-testid="backtest-running">
      <p className="inline-flex items-center gap-2 text-sm font-medium">
        <Loader2Icon className="size-4 animate-spin text-primary" aria-hidden />
        Running the backtest over the stored history…
        <span className="text-muted-foreground tabular">{seconds} s</span>
      </p>
      <div
        role="progressbar"
        aria-label="Backtest running"
        aria-valuetext={`Running, ${seconds} seconds so far`}
        className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full w-1/3 animate-indeterminate rounded-full bg-primary motion-reduce:w-full motion-reduce:animate-pulse" />
      </div>
      <p className="text-[0.8rem] text-muted-foreground">Every tracked stock, bar by bar: this takes a few seconds.</p>
    </div>
  );
}

/** The headline figures, when the page has no fuller view of a run to show. */
function Summary({ result }: { result: OverallBacktest }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="backtest-summary">
      {[
        ["Total Trades", formatCount(result.totalTrades)],
        ["Win Rate", formatPercentOrDash(result.winRate)],
        ["Total P&L", formatMoney(result.totalPnl, { signed: true })],
        ["Max Drawdown", formatFractionPercent(result.maxDrawdown)],
      ].map(([label, value]) => (
        <div key={label} className="rounded-lg border p-3">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="mt-1 text-lg font-semibold tabular">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Backtest: the rule traded alone over the stored history (all tracked stocks or those chosen,
 * optionally between two dates), with progress while it runs, then the run's figures, equity
 * curve and trades (`results`). The page owns the request: its field errors land on the rule's
 * controls there; what no control shows is said here (`unplaced`).
 */
export function BacktestPanel({
  canRun,
  onRun,
  pending,
  result,
  error,
  unplaced,
  stale,
  results,
}: {
  /** Whether the rule is complete enough to run. */
  canRun: boolean;
  onRun: (options: Omit<BacktestRequest, "customStrategy">) => void;
  pending: boolean;
  result: OverallBacktest | undefined;
  error: unknown;
  /** The run's field errors that no control of the rule shows (dates, symbols). */
  unplaced: FieldError[];
  /** The rule has changed since the result on screen was run. */
  stale: boolean;
  results?: BacktestResultsSlot;
}) {
  const id = useId();
  const [choice, setChoice] = useState<BacktestChoice>(EMPTY_CHOICE);
  const stocks = useTrackedStocks(choice.stocks === "chosen");
  const seconds = useElapsedSeconds(pending);
  const today = todayIso();
  const toggle = (symbol: string, on: boolean) =>
    setChoice((c) => ({ ...c, symbols: on ? [...c.symbols, symbol].sort() : c.symbols.filter((s) => s !== symbol) }));
  const noneChosen = choice.stocks === "chosen" && choice.symbols.length === 0;
  const problem = error instanceof ApiError ? error : null;
  const errorText =
    error && !pending
      ? problem?.status === 422
        ? unplaced.length > 0
          ? unplaced.map((f) => f.message).join(" ")
          : "The rule was refused: see the marked fields above."
        : errorMessage(error, "The backtest failed. Try again.")
      : null;
  return (
    <section aria-labelledby={`${id}-title`} className="grid min-w-0 gap-4" data-testid="backtest-panel">
      <Card className="min-w-0">
        <CardHeader className="pb-3">
          <h2 id={`${id}-title`} className="text-lg leading-tight font-semibold">
            Backtest
          </h2>
          <CardDescription>
            The rule traded alone on historical prices, one open trade per stock at a time. A rule tuned until its backtest looks good will
            do worse live.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-end gap-4">
            <Segmented
              name={`${id}-stocks`}
              legend="Stocks"
              value={choice.stocks}
              options={[
                { value: "all", label: "All tracked" },
                { value: "chosen", label: "Choose…" },
              ]}
              onChange={(stocks) => setChoice((c) => ({ ...c, stocks }))}
              disabled={pending}
            />
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-start`}>From</Label>
              <Input
                id={`${id}-start`}
                type="date"
                value={choice.startDate}
                max={choice.endDate || today}
                onChange={(e) => setChoice((c) => ({ ...c, startDate: e.target.value }))}
                disabled={pending}
                className="w-40"
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-end`}>To</Label>
              <Input
                id={`${id}-end`}
                type="date"
                value={choice.endDate}
                min={choice.startDate || undefined}
                max={today}
                onChange={(e) => setChoice((c) => ({ ...c, endDate: e.target.value }))}
                disabled={pending}
                className="w-40"
              />
            </div>
            <Button type="button" onClick={() => onRun(backtestOptions(choice))} disabled={!canRun || pending || noneChosen}>
              {pending ? <Loader2Icon className="animate-spin" aria-hidden /> : <FlaskConicalIcon aria-hidden />}
              {pending ? "Running…" : "Run backtest"}
            </Button>
          </div>
          <p className="text-[0.8rem] text-muted-foreground">
            {canRun ? "Empty dates: the whole stored history." : "Fix the marked fields of the rule to run it."}
          </p>
          {choice.stocks === "chosen" ? (
            <fieldset className="grid gap-2" disabled={pending}>
              <legend className="mb-1 text-sm font-medium">
                Stocks to trade <span className="font-normal text-muted-foreground">({choice.symbols.length} chosen)</span>
              </legend>
              {stocks.isError ? (
                <QueryError title="Failed to load the tracked stocks" onRetry={() => void stocks.refetch()} />
              ) : stocks.isPending ? (
                <p className="text-sm text-muted-foreground">Loading the tracked stocks…</p>
              ) : (
                <div className="grid max-h-48 grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-x-3 gap-y-1.5 overflow-y-auto rounded-md border p-3">
                  {stocks.data.map((s) => (
                    <label key={s.symbol} className="inline-flex cursor-pointer items-center gap-2 text-sm" title={s.companyName}>
                      <input
                        type="checkbox"
                        className="size-4 rounded border-input accent-primary"
                        checked={choice.symbols.includes(s.symbol)}
                        onChange={(e) => toggle(s.symbol, e.target.checked)}
                      />
                      {s.symbol}
                    </label>
                  ))}
                </div>
              )}
              {noneChosen ? <p className="text-[0.8rem] text-muted-foreground">Choose at least one stock.</p> : null}
            </fieldset>
          ) : null}
          {pending ? <Running seconds={seconds} /> : null}
          {errorText ? (
            <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm">
              <p className="font-medium text-destructive-strong">
                {problem?.status === 403 ? "Backtesting a custom strategy is part of Premium" : "The backtest did not run"}
              </p>
              <p className="text-muted-foreground">{errorText}</p>
              {problem?.status === 403 ? (
                <Link to="/pricing" className="font-medium text-primary-strong underline-offset-4 hover:underline">
                  See plans
                </Link>
              ) : null}
            </div>
          ) : null}
        </CardContent>
      </Card>
      {result && !pending ? (
        <div className={cn("grid min-w-0 gap-3")} data-testid="custom-backtest-results">
          {stale ? (
            <p className="rounded-lg bg-muted/60 px-3 py-2.5 text-sm text-muted-foreground" role="status">
              The rule has changed since this run: run the backtest again to see the change.
            </p>
          ) : null}
          {results ? results(result) : <Summary result={result} />}
        </div>
      ) : null}
    </section>
  );
}
