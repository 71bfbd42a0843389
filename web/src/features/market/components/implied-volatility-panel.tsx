import { ActivityIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { TimeSeriesChart } from "@/components/charts/time-series-chart";
import { QueryState } from "@/components/query-state";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { IvHistoryView, IvPoint, IvStandingView } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatCount } from "@/lib/format";
import { formatIv, formatIvScore, IV_RANK_NEEDS } from "@/lib/options";
import { cn } from "@/lib/utils";
import { useImpliedVolatility } from "../api/get-implied-volatility";

function Figure({ label, value, note, testId }: { label: string; value: ReactNode; note?: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-muted/50 px-3 py-2.5" data-testid={testId}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-lg leading-tight font-semibold tabular">{value}</dd>
      {note ? <dd className="mt-0.5 text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1.5" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-right text-sm font-medium tabular">{children}</dd>
    </div>
  );
}

/** A reading with its session: "47.6% on Apr 9, 2026". */
const reading = (point: IvPoint) => `${formatIv(point.iv)} on ${formatShortDate(point.date)}`;

/**
 * Where the current reading sits between the year's low and high: the IV rank as a marker on
 * a bar from the low (left) to the high (right).
 */
function RankBar({ standing }: { standing: IvStandingView }) {
  const position = Math.min(100, Math.max(0, standing.rank));
  const label =
    `IV rank ${formatIvScore(standing.rank)} out of 100: the current ${formatIv(standing.current.iv)} between the ` +
    `52-week low, ${reading(standing.low)}, and high, ${reading(standing.high)}.`;
  return (
    <div className="grid gap-1.5">
      <div
        role="img"
        aria-label={label}
        className="relative mx-2 h-2.5 rounded-full bg-gradient-to-r from-muted via-primary/30 to-primary/70"
      >
        <span
          aria-hidden
          className="absolute top-1/2 size-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-card bg-primary shadow-sm"
          style={{ left: `${position}%` }}
        />
      </div>
      <div aria-hidden className="flex justify-between gap-3 text-xs text-muted-foreground tabular">
        <span>Low {formatIv(standing.low.iv)}</span>
        <span>High {formatIv(standing.high.iv)}</span>
      </div>
    </div>
  );
}

function StandingFigures({ standing }: { standing: IvStandingView }) {
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-3 gap-2">
        <Figure
          label="Current IV"
          value={formatIv(standing.current.iv)}
          note={formatShortDate(standing.current.date)}
          testId="iv-current"
        />
        <Figure label="IV rank" value={formatIvScore(standing.rank)} note="of 100" testId="iv-rank" />
        <Figure label="IV percentile" value={formatIvScore(standing.percentile)} note="of 100" testId="iv-percentile" />
      </dl>
      <RankBar standing={standing} />
      <dl className="divide-y border-t">
        <Fact label="52-week high" testId="iv-high">
          {formatIv(standing.high.iv)} <span className="font-normal text-muted-foreground">· {formatShortDate(standing.high.date)}</span>
        </Fact>
        <Fact label="52-week low" testId="iv-low">
          {formatIv(standing.low.iv)} <span className="font-normal text-muted-foreground">· {formatShortDate(standing.low.date)}</span>
        </Fact>
      </dl>
    </div>
  );
}

/** Rank and percentile hidden: the server's reason as it is, the latest reading, and how far the record has come. */
function HiddenStanding({ history }: { history: IvHistoryView }) {
  const id = useId();
  const latest = history.series[history.series.length - 1];
  const recorded = Math.min(history.recordedSessions, history.minimumSessions);
  return (
    <div className="grid gap-4">
      <div
        role="note"
        aria-labelledby={`${id}-hidden`}
        className="rounded-lg border border-dashed bg-muted/40 p-3 text-sm"
        data-testid="iv-hidden-reason"
      >
        <p id={`${id}-hidden`} className="font-medium">
          IV rank and IV percentile are hidden
        </p>
        <p className="mt-1 text-muted-foreground">{history.hiddenReason || `${IV_RANK_NEEDS}.`}</p>
      </div>
      <dl className="grid grid-cols-2 gap-2">
        <Figure
          label="Latest IV"
          value={latest ? formatIv(latest.iv) : "—"}
          note={latest ? formatShortDate(latest.date) : "No reading yet"}
          testId="iv-latest"
        />
        <Figure label="IV rank" value="—" note={`Needs ${formatCount(history.minimumSessions)} sessions`} testId="iv-rank" />
      </dl>
      <div className="grid gap-1.5">
        <div className="flex justify-between gap-3 text-xs text-muted-foreground tabular">
          <span id={`${id}-progress`}>Recorded toward IV rank</span>
          <span>
            {formatCount(history.recordedSessions)} of {formatCount(history.minimumSessions)}
          </span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={`${id}-progress`}
          aria-valuemin={0}
          aria-valuemax={history.minimumSessions}
          aria-valuenow={recorded}
          aria-valuetext={`${formatCount(history.recordedSessions)} of ${formatCount(history.minimumSessions)} sessions`}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className="h-full rounded-full bg-primary"
            style={{ width: `${(recorded / Math.max(1, history.minimumSessions)) * 100}%` }}
          />
        </div>
      </div>
    </div>
  );
}

function SessionFacts({ history }: { history: IvHistoryView }) {
  const missing = history.missing.length;
  return (
    <dl className="divide-y border-t">
      <Fact label="Lookback">
        {formatShortDate(history.lookbackFrom)} – {formatShortDate(history.lookbackTo)}
      </Fact>
      <Fact label="Recorded sessions" testId="iv-recorded">
        {formatCount(history.recordedSessions)} of {formatCount(history.lookbackSessions)}
      </Fact>
      <Fact label="Missing sessions" testId="iv-missing">
        <span className={cn(missing === 0 && "text-muted-foreground")}>{formatCount(missing)}</span>
      </Fact>
    </dl>
  );
}

function HistoryBody({ history }: { history: IvHistoryView }) {
  const points = history.series.map((p) => ({ date: p.date, value: p.iv }));
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <TimeSeriesChart
        points={points}
        title={`${history.symbol} ${history.maturityDays}-day implied volatility`}
        formatValue={(v) => formatIv(v)}
        formatTick={(v) => formatIv(v, 0)}
        height={280}
        className="self-start"
        testId="iv-chart"
        emptyText={
          points.length === 0
            ? "No reading recorded yet: one is taken at each session's close."
            : "One reading so far: the chart starts with the second."
        }
      />
      <div className="grid min-w-0 content-start gap-4">
        {history.standing ? <StandingFigures standing={history.standing} /> : <HiddenStanding history={history} />}
        <SessionFacts history={history} />
      </div>
    </div>
  );
}

function PanelSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Skeleton className="h-60 w-full" />
      <div className="grid content-start gap-3">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    </div>
  );
}

/**
 * A stock's implied-volatility history (docs/options.md): the last year's 30-day at-the-money
 * readings as a line, the current reading, IV rank and IV percentile with the year's high and
 * low and their dates, recorded and missing sessions; while rank and percentile are hidden,
 * the server's reason, as it is.
 */
export function ImpliedVolatilityPanel({ symbol }: { symbol: string }) {
  const id = useId();
  const query = useImpliedVolatility(symbol);
  return (
    <Card aria-labelledby={`${id}-title`} role="region" data-testid="iv-panel">
      <CardHeader className="border-b pb-4">
        <h2 id={`${id}-title`} className="text-base leading-tight font-semibold">
          Implied volatility
        </h2>
        <CardDescription>
          The 30-day at-the-money reading at each close, over the last year; IV rank and percentile place today in it.
        </CardDescription>
      </CardHeader>
      <CardContent className="pt-5">
        <QueryState
          query={query}
          loadingLabel={`Loading the ${symbol} implied volatility`}
          skeleton={<PanelSkeleton />}
          errorTitle={(error) =>
            error instanceof ApiError && error.status === 404
              ? `${symbol} is not on the watchlist`
              : "The implied volatility could not be loaded"
          }
          errorDetail={(error) => errorMessage(error, "Check your connection and try again.")}
          errorLayout="panel"
          errorIcon={ActivityIcon}
        >
          {(history) => <HistoryBody history={history} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
