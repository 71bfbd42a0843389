import type { Bin } from "@/lib/api/models";
import { useSvgId } from "@/lib/use-svg-id";
import { binRange, type Forecast, formatProbability, wilsonRange } from "../lib/calibration";
import { describeReliability, PROBABILITY_TICKS, RELIABILITY_FRAME, reliabilityPoints, reliabilityScales } from "../lib/reliability";

const tickText = (value: number) => `${Math.round(value * 100)}%`;

/**
 * The reliability diagram (inline SVG, scaled by its viewBox): x is a bin's mean forecast
 * (strength ÷ 100, or the probability of profit at issue), y the share of its signals that won
 * (or ended in profit), the dashed diagonal is perfect calibration, each bin with signals is a
 * point (larger with more signals) with its 95% Wilson interval as a vertical bar and its n
 * above or below it. Coloured with the theme's tokens, so it follows
 * light and dark; its name says what it shows and its description how the points fall, and the
 * bins table beside it is the full text alternative.
 */
export function ReliabilityDiagram({ bins, name, forecast }: { bins: readonly Bin[]; name: string; forecast: Forecast }) {
  const id = useSvgId();
  const { width, height } = RELIABILITY_FRAME;
  const { plot, x, y } = reliabilityScales();
  const points = reliabilityPoints(bins);
  const midX = (plot.left + plot.right) / 2;
  const midY = (plot.top + plot.bottom) / 2;

  return (
    <svg
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      viewBox={`0 0 ${width} ${height}`}
      className="block h-auto w-full max-w-md text-[11px]"
      data-testid="reliability-diagram"
    >
      <title id={`${id}-title`}>{name}</title>
      <desc id={`${id}-desc`}>{describeReliability(bins, forecast.outcome)}</desc>
      {PROBABILITY_TICKS.map((t) => (
        <g key={t}>
          <line x1={plot.left} x2={plot.right} y1={y(t)} y2={y(t)} className="stroke-border" />
          <line x1={x(t)} x2={x(t)} y1={plot.top} y2={plot.bottom} className="stroke-border" />
          <text x={plot.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground tabular">
            {tickText(t)}
          </text>
          <text x={x(t)} y={plot.bottom + 15} textAnchor="middle" className="fill-muted-foreground tabular">
            {tickText(t)}
          </text>
        </g>
      ))}
      <text x={midX} y={height - 8} textAnchor="middle" className="fill-muted-foreground">
        Mean forecast ({forecast.axis})
      </text>
      <text x={12} y={midY} textAnchor="middle" transform={`rotate(-90 12 ${midY})`} className="fill-muted-foreground">
        Share that {forecast.outcome}
      </text>
      <line
        x1={x(0)}
        y1={y(0)}
        x2={x(1)}
        y2={y(1)}
        className="stroke-muted-foreground"
        strokeWidth={1.25}
        strokeDasharray="5 4"
        data-testid="perfect-calibration"
      />
      {points.map((p) => (
        <g key={`${p.bin.lower}-${p.bin.upper}`} data-testid="reliability-point">
          <title>
            {`Forecast ${binRange(p.bin)}: ${p.bin.n} signals, mean forecast ${formatProbability(p.bin.meanForecast)}, ` +
              `${forecast.outcome} ${formatProbability(p.bin.observedFrequency)} (95% interval ${wilsonRange(p.bin)})`}
          </title>
          <line x1={p.cx} x2={p.cx} y1={p.yHigh} y2={p.yLow} className="stroke-primary" strokeWidth={1.5} />
          <line x1={p.cx - 4} x2={p.cx + 4} y1={p.yHigh} y2={p.yHigh} className="stroke-primary" strokeWidth={1.5} />
          <line x1={p.cx - 4} x2={p.cx + 4} y1={p.yLow} y2={p.yLow} className="stroke-primary" strokeWidth={1.5} />
          <circle cx={p.cx} cy={p.cy} r={p.r} className="fill-primary stroke-card" strokeWidth={1.5} />
          {p.label ? (
            <text x={p.cx} y={p.labelY} textAnchor="middle" className="fill-foreground text-[10px] tabular">
              {p.label}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
