import type { PayoffPoint } from "@/lib/api/models";
import { linePath, niceTicks, paddedExtent, scaleLinear } from "@/lib/chart";
import { formatCompactCurrency, formatContractPrice, moneyAxis } from "@/lib/format";
import { useElementWidth } from "@/lib/use-element-width";
import { useSvgId } from "@/lib/use-svg-id";

/** A P&L tick in the display currency, with its sign: "+€460", "-€92", "€0". */
const pnlTick = (value: number) => (value > 0 ? `+${formatCompactCurrency(value)}` : formatCompactCurrency(value));
/** An underlying price tick in US dollars, never converted: "$105" ("US$105" beside another currency). */
const priceTick = (value: number) => formatContractPrice(value).replace(/\.00$/, "");
const price = (value: number) => formatContractPrice(value);

function describe(payoff: readonly PayoffPoint[], breakevens: readonly number[], subject: string, secondLine: string): string {
  const first = payoff[0];
  const last = payoff[payoff.length - 1];
  const range = first && last ? ` for underlying prices from ${price(first.price)} to ${price(last.price)}` : "";
  const be = breakevens.length > 0 ? ` Breakeven at ${breakevens.map(price).join(" and ")}.` : "";
  return `Payoff chart: profit and loss ${subject} at expiry and ${secondLine === "Today" ? "today" : secondLine.replace(/^At /, "on ")}${range}.${be}`;
}

/**
 * Profit and loss across a grid of underlying prices (of one contract for a signal, of the
 * whole position for a portfolio position): at expiry (solid, shaded green above zero and
 * red below) and today (dashed), with the breakevens and the current underlying price marked.
 * The P&L axis is money in the display currency; the underlying's prices and the breakevens
 * stay in US dollars (`formatContractPrice`).
 */
export function PayoffChart({
  payoff,
  breakevens,
  currentPrice,
  subject = "per contract",
  secondLine = "Today",
  height = 240,
}: {
  payoff: readonly PayoffPoint[];
  breakevens: readonly number[];
  /** The underlying now; not marked when null. */
  currentPrice: number | null;
  /** What the P&L is of, for the chart's description: "per contract", "of the position". */
  subject?: string;
  /** The dashed line's name in the legend and the description: "Today", or the date it is at ("At Dec 19"). */
  secondLine?: string;
  height?: number;
}) {
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const clipAbove = useSvgId();
  const clipBelow = useSvgId();
  const description = describe(payoff, breakevens, subject, secondLine);

  if (payoff.length < 2) {
    return (
      <div ref={ref} className="flex h-40 items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground">
        No payoff data available
      </div>
    );
  }

  const margin = { top: 24, right: 14, bottom: 28, left: 58 };
  const plotW = Math.max(40, width - margin.left - margin.right);
  const plotH = height - margin.top - margin.bottom;
  const prices = payoff.map((p) => p.price);
  const [xMin, xMax] = [Math.min(...prices), Math.max(...prices)];
  const [yMin, yMax] = paddedExtent([0, ...payoff.flatMap((p) => [p.expiry, p.today])], 0.08);
  const x = scaleLinear([xMin, xMax], [margin.left, margin.left + plotW]);
  const y = scaleLinear([yMin, yMax], [margin.top + plotH, margin.top]);
  // P&L is money, shown in the display currency: its ticks are round in that currency.
  const { tickScale } = moneyAxis();
  const yTicks = niceTicks(yMin * tickScale, yMax * tickScale, height < 220 ? 3 : 4).map((t) => (Math.abs(t) < 1e-9 ? 0 : t / tickScale));
  const xTicks = niceTicks(xMin, xMax, width < 420 ? 3 : 5).filter((t) => t >= xMin && t <= xMax);
  const expiry = linePath(payoff.map((p) => [x(p.price), y(p.expiry)] as const));
  const today = linePath(payoff.map((p) => [x(p.price), y(p.today)] as const));
  const zeroY = y(0);
  const base = `L${x(xMax).toFixed(1)},${zeroY.toFixed(1)}L${x(xMin).toFixed(1)},${zeroY.toFixed(1)}Z`;
  const expiryArea = `${expiry}${base}`;
  const visibleBreakevens = breakevens.filter((b) => b >= xMin && b <= xMax).sort((p, q) => p - q);
  // A straddle's two labels side by side would overlap: the lower one then ends at its line and
  // the higher one starts at its own (about 6.4 px a character at 11 px).
  const labelWidth = (b: number) => `BE ${price(b)}`.length * 6.4;
  const crowded =
    visibleBreakevens.length === 2 && x(visibleBreakevens[1]) - x(visibleBreakevens[0]) < labelWidth(visibleBreakevens[1]) + 8;
  const labelAt = (b: number, i: number): { x: number; anchor: "start" | "middle" | "end" } => {
    const at = x(b);
    if (crowded) return i === 0 ? { x: at - 3, anchor: "end" } : { x: at + 3, anchor: "start" };
    const half = labelWidth(b) / 2;
    return { x: at, anchor: at < margin.left + half ? "start" : at > margin.left + plotW - half ? "end" : "middle" };
  };
  const now = currentPrice ?? Number.NaN;
  const nowVisible = now >= xMin && now <= xMax;

  return (
    <div ref={ref} className="w-full">
      <svg
        role="img"
        aria-label={description}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        className="block max-w-full overflow-visible text-[11px]"
        data-testid="payoff-chart"
      >
        <title>{description}</title>
        <defs>
          <clipPath id={clipAbove}>
            <rect x={margin.left} y={margin.top} width={plotW} height={Math.max(0, zeroY - margin.top)} />
          </clipPath>
          <clipPath id={clipBelow}>
            <rect x={margin.left} y={zeroY} width={plotW} height={Math.max(0, margin.top + plotH - zeroY)} />
          </clipPath>
        </defs>
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={margin.left} x2={margin.left + plotW} y1={y(t)} y2={y(t)} className="stroke-border" />
            <text x={margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground tabular">
              {pnlTick(t)}
            </text>
          </g>
        ))}
        {xTicks.map((t) => (
          <text key={t} x={x(t)} y={height - 8} textAnchor="middle" className="fill-muted-foreground tabular">
            {priceTick(t)}
          </text>
        ))}
        <path d={expiryArea} clipPath={`url(#${clipAbove})`} className="fill-positive/15" />
        <path d={expiryArea} clipPath={`url(#${clipBelow})`} className="fill-destructive/15" />
        <line x1={margin.left} x2={margin.left + plotW} y1={zeroY} y2={zeroY} className="stroke-muted-foreground" strokeWidth={1} />
        {visibleBreakevens.map((b, i) => {
          const label = labelAt(b, i);
          return (
            <g key={`be-${i}`} data-testid="breakeven">
              <line x1={x(b)} x2={x(b)} y1={margin.top} y2={margin.top + plotH} className="stroke-foreground/60" strokeDasharray="3 3" />
              <text x={label.x} y={margin.top - 8} textAnchor={label.anchor} className="fill-foreground font-medium tabular">
                BE {price(b)}
              </text>
            </g>
          );
        })}
        {nowVisible ? (
          <g>
            <line x1={x(now)} x2={x(now)} y1={margin.top} y2={margin.top + plotH} className="stroke-primary/60" />
            <text
              x={x(now) + 4}
              y={margin.top + plotH - 6}
              textAnchor={x(now) > margin.left + plotW - 40 ? "end" : "start"}
              className="fill-primary-strong font-medium"
            >
              Now
            </text>
          </g>
        ) : null}
        <path d={today} fill="none" className="stroke-muted-foreground" strokeWidth={1.75} strokeDasharray="5 4" />
        <path d={expiry} fill="none" className="stroke-primary" strokeWidth={2.25} strokeLinejoin="round" />
      </svg>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-0.5 w-5 rounded bg-primary" /> At expiry
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="w-5 border-t-2 border-dashed border-muted-foreground" /> {secondLine}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-3 w-px border-l border-dashed border-foreground/60" /> Breakeven
        </span>
      </div>
    </div>
  );
}
