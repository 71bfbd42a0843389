import { BriefcaseBusinessIcon, ClockIcon, type LucideIcon, ShieldAlertIcon, TargetIcon, TrendingUpIcon, WalletIcon } from "lucide-react";
import { useId } from "react";
import { TimeSeriesChart } from "@/components/charts/time-series-chart";
import { EmptyState } from "@/components/empty-state";
import { QueryState } from "@/components/query-state";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api/client";
import type { PortfolioAnalysis } from "@/lib/api/models";
import {
  formatCount,
  formatCurrency,
  formatDays,
  formatFractionPercent,
  formatMoney,
  formatRatio,
  moneyAxis,
  NO_VALUE,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { cn } from "@/lib/utils";
import { usePortfolioMetrics } from "../api/get-portfolio-metrics";
import { portfolioPercent, portfolioSignedPercent, riskLevelLabel, riskTone } from "../lib/format";

/** The loading placeholder: 6 cards ('Loading portfolio data...' goes above them). */
function AnalysisSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} className="grid gap-3 p-4 sm:p-5" data-testid="portfolio-card-skeleton" aria-hidden>
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-7 w-28" />
          <Skeleton className="h-3 w-32" />
        </Card>
      ))}
    </div>
  );
}

function MetricCard({
  title,
  value,
  note,
  noteClass,
  icon: Icon,
}: {
  title: string;
  value: string;
  note: string;
  noteClass?: string;
  icon: LucideIcon;
}) {
  return (
    <Card className="min-w-0 p-4 sm:p-5" data-testid="summary-card">
      <div className="flex items-center justify-between gap-2">
        <h3 className="truncate text-[0.8rem] font-medium text-muted-foreground sm:text-sm">{title}</h3>
        <div className="hidden size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex">
          <Icon className="size-4" aria-hidden />
        </div>
      </div>
      <p className="mt-3 truncate text-xl leading-none font-semibold tracking-tight tabular sm:text-[1.6rem]">{value}</p>
      <p className={cn("mt-3 text-xs text-muted-foreground tabular", noteClass)}>{note}</p>
    </Card>
  );
}

function positionsCount(n: number, what: string) {
  return `${n} ${what} ${n === 1 ? "position" : "positions"}`;
}

/** The four summary cards: Total Value, Net P&L, Win Rate and Avg Hold Period. */
export function SummaryCards({ summary }: { summary: PortfolioAnalysis["summary"] }) {
  const pnlSign = SIGN_TEXT_CLASS[signOf(summary.totalPnlPercent)];
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <MetricCard
        title="Total Value"
        value={formatCurrency(summary.totalValue)}
        note={`${portfolioSignedPercent(summary.totalPnlPercent)} total P&L`}
        noteClass={pnlSign}
        icon={WalletIcon}
      />
      <MetricCard
        title="Net P&L"
        value={formatMoney(summary.netPnl, { signed: true })}
        note={summary.totalCommissions > 0 ? `After ${formatCurrency(summary.totalCommissions)} commissions` : "No commissions paid"}
        icon={TrendingUpIcon}
      />
      <MetricCard
        title="Win Rate"
        value={portfolioPercent(summary.winRate)}
        note={`Of ${positionsCount(summary.closedPositions, "closed")}`}
        icon={TargetIcon}
      />
      <MetricCard
        title="Avg Hold Period"
        value={formatDays(summary.avgHoldingPeriod)}
        note={summary.avgHoldingPeriod == null ? "No closed positions yet" : "Per closed position"}
        icon={ClockIcon}
      />
    </div>
  );
}

function Rows({ rows }: { rows: { label: string; value: string; className?: string; hint?: string }[] }) {
  return (
    <dl className="divide-y">
      {rows.map((row) => (
        <div key={row.label} className="flex items-center justify-between gap-4 py-2.5 text-sm">
          <dt className="text-muted-foreground">
            {row.label}
            {row.hint ? <span className="sr-only"> ({row.hint})</span> : null}
          </dt>
          <dd className={cn("text-right font-medium tabular", row.className)}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const TONE_CLASS = {
  positive: { badge: "bg-positive/12 text-positive-strong", bar: "bg-positive" },
  caution: { badge: "bg-primary/10 text-primary-strong", bar: "bg-primary" },
  negative: { badge: "bg-destructive/12 text-destructive-strong", bar: "bg-destructive" },
} as const;

/** Risk level badge, risk score out of 100 as a bar, risk factors and recommendations. */
export function RiskAssessmentCard({ risk }: { risk: PortfolioAnalysis["riskAssessment"] }) {
  const labelId = useId();
  const tone = TONE_CLASS[riskTone(risk.riskLevel)];
  const score = Math.max(0, Math.min(100, Math.round(risk.riskScore)));
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-center justify-between gap-2 border-b pb-4">
        <CardTitle className="inline-flex items-center gap-2">
          <ShieldAlertIcon className="size-4 text-primary" aria-hidden />
          Risk Assessment
        </CardTitle>
        <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", tone.badge)} data-testid="risk-level">
          {riskLevelLabel(risk.riskLevel)}
        </span>
      </CardHeader>
      <CardContent className="grid gap-4 pt-4">
        <div className="grid gap-1.5">
          <div className="flex items-center justify-between text-sm">
            <span id={labelId} className="text-muted-foreground">
              Risk score
            </span>
            <span className="font-medium tabular">{score}/100</span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={score}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className={cn("h-full rounded-full transition-[width]", tone.bar)} style={{ width: `${score}%` }} />
          </div>
        </div>
        <div className="grid gap-1.5">
          <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Risk factors</h4>
          {risk.riskFactors.length > 0 ? (
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              {risk.riskFactors.map((f, i) => (
                <li key={i}>{f}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No risk factors flagged.</p>
          )}
        </div>
        <div className="grid gap-1.5">
          <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Recommendations</h4>
          {risk.recommendations.length > 0 ? (
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              {risk.recommendations.map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No recommendations right now.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** Profit Factor, Sharpe, Calmar, Max Drawdown, Recovery Factor, Volatility; "—" while there is too little history. */
export function PerformanceMetricsCard({
  metrics,
  profitFactor,
}: {
  metrics: PortfolioAnalysis["metrics"];
  profitFactor: PortfolioAnalysis["summary"]["profitFactor"];
}) {
  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <CardTitle>Performance Metrics</CardTitle>
        <CardDescription>&ldquo;—&rdquo; until there is enough history to compute a figure.</CardDescription>
      </CardHeader>
      <CardContent className="pt-1">
        <Rows
          rows={[
            { label: "Profit Factor", value: formatRatio(profitFactor) },
            { label: "Sharpe Ratio", value: formatRatio(metrics.sharpeRatio) },
            { label: "Calmar Ratio", value: formatRatio(metrics.calmarRatio) },
            {
              label: "Max Drawdown",
              value: formatFractionPercent(metrics.maxDrawdown),
              className: metrics.maxDrawdown ? "text-destructive-strong" : undefined,
            },
            { label: "Recovery Factor", value: formatRatio(metrics.recoveryFactor) },
            { label: "Volatility", value: formatFractionPercent(metrics.volatility), hint: "annualised" },
          ]}
        />
      </CardContent>
    </Card>
  );
}

/**
 * Open and closed positions, largest win and loss, consecutive wins, commissions. The largest
 * win and loss are "—" until a position has closed: no closed position is no figure, not €0.00.
 */
export function PortfolioStatisticsCard({ summary }: { summary: PortfolioAnalysis["summary"] }) {
  const closed = summary.closedPositions > 0;
  const largestLoss = summary.largestLoss === 0 ? 0 : -Math.abs(summary.largestLoss);
  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <CardTitle>Portfolio Statistics</CardTitle>
        <CardDescription>Automated and manual positions together.</CardDescription>
      </CardHeader>
      <CardContent className="pt-1">
        <Rows
          rows={[
            { label: "Open Positions", value: formatCount(summary.openPositions) },
            { label: "Closed Positions", value: formatCount(summary.closedPositions) },
            {
              label: "Largest Win",
              value: closed ? formatMoney(summary.largestWin, { signed: true }) : NO_VALUE,
              className: SIGN_TEXT_CLASS[closed ? signOf(summary.largestWin) : "neutral"],
            },
            {
              label: "Largest Loss",
              value: closed ? formatMoney(largestLoss, { signed: true }) : NO_VALUE,
              className: SIGN_TEXT_CLASS[closed ? signOf(largestLoss) : "neutral"],
            },
            { label: "Consecutive Wins", value: formatCount(summary.consecutiveWins) },
            { label: "Total Commissions", value: formatCurrency(summary.totalCommissions) },
          ]}
        />
      </CardContent>
    </Card>
  );
}

/** The value chart from the daily snapshots. */
export function PortfolioValueCard({ history }: { history: PortfolioAnalysis["history"] }) {
  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <CardTitle>Portfolio Value</CardTitle>
        <CardDescription>Daily snapshots of what your positions are worth.</CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        <TimeSeriesChart
          points={history}
          title="Portfolio value chart"
          {...moneyAxis()}
          testId="portfolio-value-chart"
          emptyText="The chart appears after the second daily snapshot of your portfolio."
        />
      </CardContent>
    </Card>
  );
}

/** Whether the answer means "no positions at all" (the contract's empty case). */
export function hasNoPortfolio(metrics: PortfolioAnalysis | null | undefined): boolean {
  return !metrics?.summary || metrics.summary.openPositions + metrics.summary.closedPositions === 0;
}

/** Summary cards, the value chart, and the risk, performance and statistics cards. */
function AnalysisSections({ analysis }: { analysis: PortfolioAnalysis }) {
  return (
    <section aria-labelledby="portfolio-summary-title" className="grid gap-4 sm:gap-6">
      <h2 id="portfolio-summary-title" className="sr-only">
        Portfolio summary
      </h2>
      <SummaryCards summary={analysis.summary} />
      <PortfolioValueCard history={analysis.history} />
      <div className="grid items-start gap-4 sm:gap-6 lg:grid-cols-3">
        <RiskAssessmentCard risk={analysis.riskAssessment} />
        <PerformanceMetricsCard metrics={analysis.metrics} profitFactor={analysis.summary.profitFactor} />
        <PortfolioStatisticsCard summary={analysis.summary} />
      </div>
    </section>
  );
}

/**
 * The analysis part of /portfolio: summary cards, value chart, risk assessment, performance
 * metrics and statistics; 6 placeholder cards while loading, "Failed to fetch portfolio data"
 * when the figures fail to load and "No portfolio data available" when there are no positions at all.
 */
export function PortfolioAnalysis() {
  const query = usePortfolioMetrics();
  // 404: the user has no portfolio yet, which is the empty case rather than a failure.
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const metrics = notFound ? { ...query, isError: false, data: undefined } : query;
  return (
    <QueryState
      query={metrics}
      loadingLabel="Loading portfolio data..."
      showLoadingLabel
      skeleton={<AnalysisSkeleton />}
      errorTitle="Failed to fetch portfolio data"
      errorLayout="banner"
      isEmpty={hasNoPortfolio}
      empty={
        <EmptyState
          icon={BriefcaseBusinessIcon}
          title="No portfolio data available"
          description="Add a position of your own below, or set your investment preferences so positions open from matching signals."
        />
      }
    >
      {(analysis) => <AnalysisSections analysis={analysis} />}
    </QueryState>
  );
}
