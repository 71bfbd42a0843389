import { linePath, niceTicks, paddedExtent, scaleLinear } from "@/lib/chart";
import { formatMonthDay, formatShortDate } from "@/lib/dates";
import { useElementWidth } from "@/lib/use-element-width";
import { useSvgId } from "@/lib/use-svg-id";
import { cn } from "@/lib/utils";

/** One dated figure: a portfolio value, an equity, a drawdown. */
export type SeriesPoint = { date: string; value: number };

const TONES = {
  primary: { line: "stroke-primary", area: "text-primary", dot: "fill-primary" },
  positive: { line: "stroke-positive", area: "text-positive", dot: "fill-positive" },
  negative: { line: "stroke-destructive", area: "text-destructive", dot: "fill-destructive" },
} as const;

function parseDate(iso: string): Date | null {
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Nov 23" (or "Nov 23, 2026") for an axis tick, the text itself when it is not a date. */
function tickDate(iso: string, withYear: boolean): string {
  if (!parseDate(iso)) return iso;
  return withYear ? formatShortDate(iso.slice(0, 10)) : formatMonthDay(iso);
}

/** The chart's text alternative: its span, first and last figure, high and low. */
export function describeSeries(title: string, points: readonly SeriesPoint[], format: (value: number) => string): string {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return `${title}: no data.`;
  const values = points.map((p) => p.value);
  const high = Math.max(...values);
  const low = Math.min(...values);
  return (
    `${title}: ${points.length} ${points.length === 1 ? "point" : "points"} from ${tickDate(first.date, true)} ` +
    `(${format(first.value)}) to ${tickDate(last.date, true)} (${format(last.value)}); ` +
    `high ${format(high)}, low ${format(low)}.`
  );
}

/**
 * A dated series as a line over a soft area (inline SVG, no chart library): a portfolio's
 * value, a backtest's equity curve or its drawdown. `role="img"` with an aria-label and a
 * <title> that state the span and the figures; drawn at the container's measured width so
 * labels stay 11 px on a phone; coloured with the theme's tokens, so it follows light and dark.
 * The area runs from the line to `baseline` (the bottom of the plot by default; 0 for a drawdown).
 * Money charts take `moneyAxis()` (lib/format.ts): the display currency's formatters, and
 * `tickScale`, its units per value unit, so the ticks are round in the currency shown.
 */
export function TimeSeriesChart({
  points,
  title,
  formatValue,
  formatTick = formatValue,
  tickScale = 1,
  tone = "primary",
  baseline,
  height = 220,
  emptyText = "Not enough data to draw a chart yet",
  className,
  testId,
}: {
  points: readonly SeriesPoint[];
  /** What the chart shows, first words of its description ("Equity curve"). */
  title: string;
  formatValue: (value: number) => string;
  formatTick?: (value: number) => string;
  /** Ticks are picked round in value × tickScale (the display currency's units per dollar for money). */
  tickScale?: number;
  tone?: keyof typeof TONES;
  baseline?: number;
  height?: number;
  emptyText?: string;
  className?: string;
  testId?: string;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const gradientId = useSvgId();
  const finite = points.filter((p) => Number.isFinite(p.value));

  if (finite.length < 2) {
    return (
      <div
        ref={ref}
        data-testid={testId}
        className={cn(
          "flex h-32 items-center justify-center rounded-lg border border-dashed px-4 text-center text-sm text-muted-foreground",
          className,
        )}
      >
        {emptyText}
      </div>
    );
  }

  const description = describeSeries(title, finite, formatValue);
  const style = TONES[tone];
  const values = finite.map((p) => p.value);
  const [yMin, yMax] = paddedExtent(baseline === undefined ? values : [...values, baseline], 0.08);
  // Rounding can leave -0 or -1e-13 for the zero tick: show it as 0, never "-$0".
  const scale = Number.isFinite(tickScale) && tickScale > 0 ? tickScale : 1;
  const ticks = niceTicks(yMin * scale, yMax * scale, height < 200 ? 3 : 5)
    .map((t) => (Math.abs(t) < 1e-9 ? 0 : t / scale))
    .filter((t) => t >= yMin && t <= yMax);
  const tickWidth = Math.max(...ticks.map((t) => formatTick(t).length), 4);
  const margin = { top: 12, right: 14, bottom: 28, left: Math.min(96, 14 + tickWidth * 6.4) };
  const plotW = Math.max(40, width - margin.left - margin.right);
  const plotH = height - margin.top - margin.bottom;
  const x = scaleLinear([0, finite.length - 1], [margin.left, margin.left + plotW]);
  const y = scaleLinear([yMin, yMax], [margin.top + plotH, margin.top]);
  const coords = finite.map((p, i) => [x(i), y(p.value)] as const);
  const line = linePath(coords);
  const baseY = y(baseline ?? yMin).toFixed(1);
  const area = `${line}L${x(finite.length - 1).toFixed(1)},${baseY}L${x(0).toFixed(1)},${baseY}Z`;
  const firstYear = parseDate(finite[0].date)?.getUTCFullYear();
  const lastYear = parseDate(finite[finite.length - 1].date)?.getUTCFullYear();
  const withYear = firstYear !== lastYear;
  const dateTicks = width < 360 ? [0, finite.length - 1] : [0, Math.floor((finite.length - 1) / 2), finite.length - 1];
  const last = coords[coords.length - 1];
  // A series below its baseline (a drawdown) is shaded darker away from the baseline.
  const hangs = baseline !== undefined && values.every((v) => v <= baseline);

  return (
    <div ref={ref} className={cn("w-full", className)}>
      <svg
        role="img"
        aria-label={description}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        className="block max-w-full overflow-visible text-[11px]"
        data-testid={testId}
      >
        <title>{description}</title>
        <defs>
          <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1" className={style.area}>
            <stop offset="0%" stopColor="currentColor" stopOpacity={hangs ? 0.04 : 0.2} />
            <stop offset="100%" stopColor="currentColor" stopOpacity={hangs ? 0.24 : 0} />
          </linearGradient>
        </defs>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={margin.left} x2={margin.left + plotW} y1={y(t)} y2={y(t)} className="stroke-border" />
            <text x={margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground tabular">
              {formatTick(t)}
            </text>
          </g>
        ))}
        {dateTicks.map((i, k) => (
          <text
            key={`${i}-${k}`}
            x={x(i)}
            y={height - 8}
            textAnchor={k === 0 ? "start" : k === dateTicks.length - 1 ? "end" : "middle"}
            className="fill-muted-foreground"
          >
            {tickDate(finite[i].date, withYear)}
          </text>
        ))}
        {baseline !== undefined ? (
          <line x1={margin.left} x2={margin.left + plotW} y1={y(baseline)} y2={y(baseline)} className="stroke-muted-foreground/60" />
        ) : null}
        <path d={area} fill={`url(#${gradientId})`} />
        <path d={line} fill="none" className={style.line} strokeWidth={2} strokeLinejoin="round" />
        <circle cx={last[0]} cy={last[1]} r={3.5} className={cn(style.dot, "stroke-card")} strokeWidth={2} />
      </svg>
    </div>
  );
}
