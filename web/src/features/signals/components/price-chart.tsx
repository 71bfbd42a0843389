import type { HistoryBar } from "@/lib/api/models";
import { linePath, niceTicks, paddedExtent, scaleLinear, spreadLabels } from "@/lib/chart";
import { formatMonthDay } from "@/lib/dates";
import { formatContractPrice } from "@/lib/format";
import { useElementWidth } from "@/lib/use-element-width";
import { useSvgId } from "@/lib/use-svg-id";

type Level = { kind: "strike" | "target" | "stop"; label: string; value: number };

const LEVEL_STYLE: Record<Level["kind"], { line: string; text: string; dash: string }> = {
  strike: { line: "stroke-foreground/70", text: "fill-foreground", dash: "6 4" },
  target: { line: "stroke-positive", text: "fill-positive-strong", dash: "4 3" },
  stop: { line: "stroke-destructive", text: "fill-destructive-strong", dash: "4 3" },
};

const tickDate = formatMonthDay;

/**
 * "$1,234" for axis ticks: whole dollars above $100, cents below. The underlying's prices and
 * the levels are in US dollars, never converted ("US$1,234" beside another display currency).
 */
function tickPrice(value: number, step: number): string {
  const text = formatContractPrice(value);
  return step >= 1 && Math.abs(value) >= 100 ? text.replace(/\.\d\d$/, "") : text;
}

function levelsOf(strike: number, targets: readonly number[], stops: readonly number[]): Level[] {
  const levels: Level[] = [{ kind: "strike", label: "Strike", value: strike }];
  for (const t of targets) levels.push({ kind: "target", label: "Target", value: t });
  for (const s of stops) levels.push({ kind: "stop", label: "Stop", value: s });
  return levels.filter((l) => Number.isFinite(l.value));
}

function describe(symbol: string, history: readonly HistoryBar[], levels: readonly Level[]): string {
  const first = history[0];
  const last = history[history.length - 1];
  const range =
    first && last
      ? ` from ${formatContractPrice(first.close)} on ${tickDate(first.date)} to ${formatContractPrice(last.close)} on ${tickDate(last.date)}`
      : "";
  const lines = levels.map((l) => `${l.label.toLowerCase()} ${formatContractPrice(l.value)}`).join(", ");
  return `Price chart: ${symbol} daily closes over the last ${history.length} trading days${range}. Levels: ${lines}.`;
}

/**
 * The underlying's daily closes with the signal's levels drawn across: the strike, and
 * the underlying prices at which the option would reach its target and its stop.
 */
export function PriceChart({
  symbol,
  history,
  strike,
  targets,
  stops,
  height = 240,
}: {
  symbol: string;
  history: readonly HistoryBar[];
  strike: number;
  targets: readonly number[];
  stops: readonly number[];
  height?: number;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const gradientId = useSvgId();
  const levels = levelsOf(strike, targets, stops);
  const description = describe(symbol, history, levels);

  if (history.length < 2) {
    return (
      <div ref={ref} className="flex h-40 items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground">
        No price history available
      </div>
    );
  }

  const closes = history.map((b) => b.close);
  const [yMin, yMax] = paddedExtent([...closes, ...levels.map((l) => l.value)]);
  const ticks = niceTicks(yMin, yMax, height < 220 ? 3 : 4);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  // Room for the longest tick on the left and the longest level label on the right (11 px text).
  const tickChars = Math.max(...ticks.map((t) => tickPrice(t, step).length), 5);
  const labelChars = Math.max(...levels.map((l) => `${l.label} ${formatContractPrice(l.value)}`.length), 12);
  const margin = { top: 12, right: Math.min(140, 16 + labelChars * 6.4), bottom: 28, left: Math.min(84, 12 + tickChars * 6.4) };
  const plotW = Math.max(40, width - margin.left - margin.right);
  const plotH = height - margin.top - margin.bottom;
  const x = scaleLinear([0, history.length - 1], [margin.left, margin.left + plotW]);
  const y = scaleLinear([yMin, yMax], [margin.top + plotH, margin.top]);
  const points = closes.map((c, i) => [x(i), y(c)] as const);
  const line = linePath(points);
  const area = `${line}L${x(history.length - 1).toFixed(1)},${(margin.top + plotH).toFixed(1)}L${margin.left},${(margin.top + plotH).toFixed(1)}Z`;
  const dateTicks = [0, Math.floor((history.length - 1) / 2), history.length - 1];
  const labelYs = spreadLabels(
    levels.map((l) => y(l.value)),
    15,
    margin.top + 6,
    margin.top + plotH,
  );
  const lastPoint = points[points.length - 1];

  return (
    <div ref={ref} className="w-full">
      <svg
        role="img"
        aria-label={description}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        className="block max-w-full overflow-visible text-[11px]"
        data-testid="price-chart"
      >
        <title>{description}</title>
        <defs>
          <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1" className="text-primary">
            <stop offset="0%" stopColor="currentColor" stopOpacity="0.18" />
            <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
          </linearGradient>
        </defs>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={margin.left} x2={margin.left + plotW} y1={y(t)} y2={y(t)} className="stroke-border" />
            <text x={margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground tabular">
              {tickPrice(t, step)}
            </text>
          </g>
        ))}
        {dateTicks.map((i, k) => (
          <text
            key={`${i}-${k}`}
            x={x(i)}
            y={height - 8}
            textAnchor={k === 0 ? "start" : k === 2 ? "end" : "middle"}
            className="fill-muted-foreground"
          >
            {tickDate(history[i].date)}
          </text>
        ))}
        <path d={area} fill={`url(#${gradientId})`} />
        <path d={line} fill="none" className="stroke-primary" strokeWidth={2} strokeLinejoin="round" />
        <circle cx={lastPoint[0]} cy={lastPoint[1]} r={3.5} className="fill-primary stroke-card" strokeWidth={2} />
        {levels.map((level, i) => {
          const style = LEVEL_STYLE[level.kind];
          const ly = y(level.value);
          return (
            <g key={`${level.kind}-${i}`} data-level={level.kind}>
              <line
                x1={margin.left}
                x2={margin.left + plotW}
                y1={ly}
                y2={ly}
                className={style.line}
                strokeWidth={1.5}
                strokeDasharray={style.dash}
              />
              <line x1={margin.left + plotW} x2={margin.left + plotW + 6} y1={ly} y2={labelYs[i]} className={style.line} />
              <text x={margin.left + plotW + 9} y={labelYs[i]} dy="0.32em" className={`${style.text} font-medium tabular`}>
                {level.label} {formatContractPrice(level.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
