import { DownloadIcon, LockIcon } from "lucide-react";
import type * as React from "react";
import { TimeSeriesChart } from "@/components/charts/time-series-chart";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { Pagination } from "@/components/pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { isOneOf, TRADE_OUTCOMES, type TradeOutcome } from "@/lib/api/enums";
import type { OverallBacktest, TradeView } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import {
  formatContractPrice,
  formatCount,
  formatCurrency,
  formatDays,
  formatFractionPercent,
  formatMoney,
  formatPercentOrDash,
  formatRatio,
  moneyAxis,
  NO_VALUE,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { exportTradesCsv } from "../lib/export-trades";
import { spreadLegs } from "../lib/spread";

/** Trades per page of the list. */
export const TRADES_PAGE_SIZE = 10;

/** Labels results as simulated: every backtest result reads "Backtested" (docs/decisions.md#13-honest-figures). */
export function BacktestedBadge() {
  return (
    <Badge variant="soft" title="Simulated on historical prices; not live results">
      Backtested
    </Badge>
  );
}

function Metric({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className="min-w-0 rounded-lg border bg-card p-4" data-testid="backtest-metric">
      <dt className="text-xs text-muted-foreground sm:text-sm">{label}</dt>
      <dd className={cn("mt-2 truncate text-xl leading-none font-semibold tracking-tight tabular sm:text-2xl", className)}>{value}</dd>
    </div>
  );
}

/** A trade that matches a signal beyond the viewer's plan: the server shows only its symbol, strategy and entry. */
function LockedBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-muted-foreground">
      <LockIcon className="size-3" aria-hidden />
      Locked
    </span>
  );
}

const OUTCOMES: Record<TradeOutcome, string> = { target: "Target", stop: "Stop", expiry: "Expiry", open: "Open", time: "Time limit" };

const dateOrDash = (iso: string | null | undefined) => (iso ? formatShortDate(iso) : NO_VALUE);

/** A trade's outcome in words; "—" for a locked trade, which has none to show. */
const outcomeText = (outcome: string | null | undefined) => (isOneOf(TRADE_OUTCOMES, outcome) ? OUTCOMES[outcome] : (outcome ?? NO_VALUE));

/** The strike, or a vertical spread's two strikes (long first) over "call spread" / "put spread". */
function StrikeCell({ trade }: { trade: TradeView }) {
  const spread = spreadLegs(trade);
  if (!spread) return <>{formatContractPrice(trade.strike)}</>;
  return (
    <span className="grid justify-items-end" data-testid="spread-legs">
      <span className="whitespace-nowrap">{spread.strikes}</span>{" "}
      <span className="text-xs whitespace-nowrap text-muted-foreground">{spread.kind}</span>
    </span>
  );
}

function TradesTable({ result }: { result: OverallBacktest }) {
  const trades = result.trades;
  const anySpread = trades.some((t) => t.shortStrike != null);
  const pager = usePagination(trades.length, TRADES_PAGE_SIZE);
  const onExport = () => {
    exportTradesCsv(trades, result.startDate, result.endDate);
    toast({
      title: "Trades Exported",
      description: `${trades.length} backtested ${trades.length === 1 ? "trade" : "trades"} saved as CSV.`,
    });
  };
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="grid gap-1.5">
          <CardTitle>Trades</CardTitle>
          <CardDescription>
            Every simulated trade, oldest first. Strikes and prices are per share, in US dollars.
            {anySpread ? " A spread shows its long and short strikes, and its net premium as the price." : null}
          </CardDescription>
          {result.lockedTrades > 0 && (
            <p className="text-sm text-muted-foreground" data-testid="locked-trades-note">
              {result.lockedTrades} {result.lockedTrades === 1 ? "trade follows a signal" : "trades follow signals"} your plan locks: listed
              as Locked and left out of every figure above.
            </p>
          )}
        </div>
        <Button variant="outline" size="sm" onClick={onExport} disabled={trades.length === 0}>
          <DownloadIcon aria-hidden />
          Export CSV
        </Button>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        {trades.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No trades in this period.</p>
        ) : (
          <>
            <div
              className="relative -mx-5 overflow-x-auto rounded-md px-5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
              tabIndex={0}
              role="region"
              aria-label="Backtested trades table"
            >
              <table className="w-full min-w-[860px] text-sm">
                <thead>
                  <tr className="border-b text-left text-xs text-muted-foreground">
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Symbol
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Strategy
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Type
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Strike
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Entry
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Exit
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Entry / Exit Price
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Contracts
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      P&amp;L
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Outcome
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pager.slice(trades).map((t: TradeView, i) => (
                    <tr key={`${t.symbol}-${t.entryDate}-${i}`} className="border-b last:border-b-0" data-testid="trade-row">
                      <td className="py-2.5 pr-3 font-semibold">{t.symbol}</td>
                      <td className="py-2.5 pr-3 whitespace-nowrap">{t.strategy}</td>
                      <td className="py-2.5 pr-3">
                        {t.locked || !t.signalType ? <LockedBadge /> : <OptionTypeBadge type={t.signalType} />}
                      </td>
                      <td className="py-2.5 pr-3 text-right tabular">
                        <StrikeCell trade={t} />
                      </td>
                      <td className="py-2.5 pr-3 whitespace-nowrap">{dateOrDash(t.entryDate)}</td>
                      <td className="py-2.5 pr-3 whitespace-nowrap">{dateOrDash(t.exitDate)}</td>
                      <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">
                        {formatContractPrice(t.entryPrice)} <span className="text-muted-foreground">→</span>{" "}
                        {formatContractPrice(t.exitPrice)}
                      </td>
                      <td className="py-2.5 pr-3 text-right tabular">{t.contracts ?? NO_VALUE}</td>
                      <td className={cn("py-2.5 pr-3 text-right whitespace-nowrap tabular", SIGN_TEXT_CLASS[signOf(t.pnl)])}>
                        {formatMoney(t.pnl, { signed: true })}
                      </td>
                      <td className="py-2.5 whitespace-nowrap">{outcomeText(t.outcome)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination pager={pager} noun="trades" label="Backtested trades pages" />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ChartCard({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="pt-4">{children}</CardContent>
    </Card>
  );
}

/**
 * The overall run: Total Trades, Win Rate, Total P&L and Avg Hold Period; the advanced Profit
 * Factor, Sharpe Ratio, Max Drawdown and Recovery Factor; equity and drawdown charts; the trades.
 * `actions` sit at the end of the heading row (the PDF download).
 */
export function OverallResults({ result, actions }: { result: OverallBacktest; actions?: React.ReactNode }) {
  const pnlClass = SIGN_TEXT_CLASS[signOf(result.totalPnl)];
  return (
    <section aria-labelledby="overall-results-title" className="grid min-w-0 gap-4" data-testid="overall-results">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id="overall-results-title" className="text-lg font-semibold tracking-tight">
          Overall Performance
        </h2>
        <BacktestedBadge />
        <p className="w-full text-sm text-muted-foreground sm:w-auto">
          {formatShortDate(result.startDate)} – {formatShortDate(result.endDate)} · {formatCount(result.symbols)}{" "}
          {result.symbols === 1 ? "symbol" : "symbols"} · {formatCurrency(result.initialCapital)} starting capital
        </p>
        {actions ? <div className="flex flex-wrap items-center gap-2 sm:ml-auto">{actions}</div> : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Metric label="Total Trades" value={formatCount(result.totalTrades)} />
        <Metric label="Win Rate" value={formatPercentOrDash(result.winRate)} />
        <Metric label="Total P&L" value={formatMoney(result.totalPnl, { signed: true })} className={pnlClass} />
        <Metric label="Avg Hold Period" value={formatDays(result.avgHoldingPeriod)} />
      </dl>
      <Card className="min-w-0">
        <CardHeader className="border-b pb-4">
          <CardTitle>Advanced Metrics</CardTitle>
          <CardDescription>&ldquo;—&rdquo; where the run has too few trades or days for the figure.</CardDescription>
        </CardHeader>
        <CardContent className="pt-4">
          <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <Metric label="Profit Factor" value={formatRatio(result.profitFactor)} />
            <Metric label="Sharpe Ratio" value={formatRatio(result.sharpeRatio)} />
            <Metric
              label="Max Drawdown"
              value={formatFractionPercent(result.maxDrawdown)}
              className={result.maxDrawdown < 0 ? "text-destructive-strong" : undefined}
            />
            <Metric label="Recovery Factor" value={formatRatio(result.recoveryFactor)} />
          </dl>
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Equity Curve" description="Backtested account value after each day.">
          <TimeSeriesChart
            points={result.equityCurve.map((p) => ({ date: p.date, value: p.equity }))}
            title="Equity curve (backtested)"
            {...moneyAxis()}
            testId="equity-chart"
          />
        </ChartCard>
        <ChartCard title="Drawdown" description="How far the account stood below its previous high.">
          <TimeSeriesChart
            points={result.drawdown.map((p) => ({ date: p.date, value: p.drawdown }))}
            title="Drawdown (backtested)"
            formatValue={(v) => formatFractionPercent(v, 1)}
            formatTick={(v) => formatFractionPercent(v, 0)}
            tone="negative"
            baseline={0}
            testId="drawdown-chart"
          />
        </ChartCard>
      </div>
      <TradesTable result={result} />
    </section>
  );
}
