import type * as React from "react";
import { TimeSeriesChart } from "@/components/charts/time-series-chart";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { StrategyBacktest } from "@/lib/api/models";
import { formatCount, formatMoney, formatPercentOrDash, formatRatio, moneyAxis, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { cn } from "@/lib/utils";
import { BacktestedBadge } from "./overall-results";

function Row({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className="flex items-center justify-between gap-3 py-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn("text-right font-medium tabular", className)}>{children}</dd>
    </div>
  );
}

/** One card per strategy: '{strategy} Strategy', trades and win rate, Total P&L, Avg P&L, Wins/Losses, Profit Factor. */
export function StrategyResultCard({ result }: { result: StrategyBacktest }) {
  const s = result.summary;
  const trades = `${formatCount(s.totalTrades)} ${s.totalTrades === 1 ? "trade" : "trades"}`;
  return (
    <Card className="min-w-0" role="article" aria-label={`${result.strategy} Strategy`} data-testid="strategy-result">
      <CardHeader className="gap-2 border-b pb-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>{result.strategy} Strategy</CardTitle>
          <BacktestedBadge />
        </div>
        <p className="text-sm text-muted-foreground tabular">
          {trades} · {formatPercentOrDash(s.winRate)} win rate
        </p>
      </CardHeader>
      <CardContent className="grid gap-3 pt-2">
        <dl className="divide-y">
          <Row label="Total P&L" className={SIGN_TEXT_CLASS[signOf(s.totalPnl)]}>
            {formatMoney(s.totalPnl, { signed: true })}
          </Row>
          <Row label="Avg P&L" className={SIGN_TEXT_CLASS[signOf(s.avgPnl)]}>
            {formatMoney(s.avgPnl, { signed: true })}
          </Row>
          <Row label="Wins/Losses">
            {formatCount(s.winningTrades)} / {formatCount(s.losingTrades)}
          </Row>
          <Row label="Profit Factor">{formatRatio(s.profitFactor)}</Row>
        </dl>
        <TimeSeriesChart
          points={result.equityCurve.map((p) => ({ date: p.date, value: p.equity }))}
          title={`${result.strategy} equity curve (backtested)`}
          {...moneyAxis()}
          tone={s.totalPnl < 0 ? "negative" : "primary"}
          height={140}
          emptyText="Too few days for an equity curve."
        />
      </CardContent>
    </Card>
  );
}

/** The by-strategy run: one card per strategy. */
export function StrategyResults({ results }: { results: StrategyBacktest[] }) {
  return (
    <section aria-labelledby="strategy-results-title" className="grid min-w-0 gap-4" data-testid="strategy-results">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="strategy-results-title" className="text-lg font-semibold tracking-tight">
          By Strategy
        </h2>
        <BacktestedBadge />
      </div>
      {results.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No strategy produced a trade in this period.
        </p>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {results.map((r) => (
            <StrategyResultCard key={r.strategy} result={r} />
          ))}
        </div>
      )}
    </section>
  );
}
