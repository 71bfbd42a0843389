import type { Bin } from "@/lib/api/models";
import { scaleLinear } from "@/lib/chart";

/**
 * The reliability diagram's frame in viewBox units: the SVG scales to its container's width,
 * so text drawn at 11 units stays about 11 px from a phone to a desktop column.
 */
export const RELIABILITY_FRAME = {
  width: 320,
  height: 314,
  margin: { top: 14, right: 16, bottom: 46, left: 50 },
} as const;

export type Frame = {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
};

/** Probabilities on both axes run from 0 to 1; ticks every 0.2. */
export const PROBABILITY_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;

/** The plot area and the scales from a probability to x and y. */
export function reliabilityScales(frame: Frame = RELIABILITY_FRAME) {
  const { width, height, margin } = frame;
  const left = margin.left;
  const right = width - margin.right;
  const top = margin.top;
  const bottom = height - margin.bottom;
  return {
    plot: { left, right, top, bottom },
    x: scaleLinear([0, 1], [left, right]),
    y: scaleLinear([0, 1], [bottom, top]),
  };
}

/** One non-empty bin as drawn: the point, its 95% Wilson bar, and its "n=" label when there is room. */
export type ReliabilityPoint = {
  bin: Bin;
  cx: number;
  cy: number;
  /** The ends of the Wilson interval's bar (y of the high end is the smaller number). */
  yHigh: number;
  yLow: number;
  /** Larger for bins with more signals. */
  r: number;
  /** "n=48", or null where it would crowd the label of the bin before. */
  label: string | null;
  labelY: number;
};

/**
 * The points of a reliability diagram: one per bin with signals in it (an empty bin has no
 * mean forecast to place), at (mean forecast, observed frequency). A label sits above its
 * interval's bar, or below it when the label above would crowd the one before (or the bar
 * reaches the top); a label with no room either way is left out (the bins table lists every n).
 */
export function reliabilityPoints(bins: readonly Bin[], frame: Frame = RELIABILITY_FRAME, minLabelGap = 28): ReliabilityPoint[] {
  const { x, y, plot } = reliabilityScales(frame);
  const filled = bins.filter(
    (b): b is Bin & { meanForecast: number; observedFrequency: number } => b.n > 0 && b.meanForecast != null && b.observedFrequency != null,
  );
  const maxN = Math.max(1, ...filled.map((b) => b.n));
  const last = { above: Number.NEGATIVE_INFINITY, below: Number.NEGATIVE_INFINITY };
  return filled.map((bin) => {
    const cx = x(bin.meanForecast);
    const cy = y(bin.observedFrequency);
    const yHigh = y(bin.wilsonHigh ?? bin.observedFrequency);
    const yLow = y(bin.wilsonLow ?? bin.observedFrequency);
    const lanes = {
      above: { y: yHigh - 7, fits: yHigh - 7 >= plot.top + 8 },
      below: { y: yLow + 14, fits: yLow + 14 <= plot.bottom - 2 },
    };
    const lane = (["above", "below"] as const).find((l) => lanes[l].fits && cx - last[l] >= minLabelGap) ?? null;
    if (lane) last[lane] = cx;
    return {
      bin,
      cx,
      cy,
      yHigh,
      yLow,
      r: 3 + 4 * Math.sqrt(bin.n / maxN),
      label: lane ? `n=${bin.n}` : null,
      labelY: lane ? lanes[lane].y : cy,
    };
  });
}

/**
 * The diagram's text alternative: how many bins have signals and how many of them sit above
 * (the event happened more often than forecast) or below the diagonal; the bins table has every figure.
 */
export function describeReliability(bins: readonly Bin[], outcome = "won"): string {
  const filled = bins.filter((b) => b.n > 0 && b.meanForecast != null && b.observedFrequency != null);
  if (filled.length === 0) return "No bin has signals in it yet.";
  const below = filled.filter((b) => (b.observedFrequency as number) < (b.meanForecast as number)).length;
  const above = filled.filter((b) => (b.observedFrequency as number) > (b.meanForecast as number)).length;
  const plural = (n: number) => `${n} ${n === 1 ? "bin" : "bins"}`;
  return (
    `${plural(filled.length)} with signals, each plotted at its mean forecast against the share that ${outcome}, with its 95% interval. ` +
    `${plural(below)} below the diagonal (${outcome} less often than forecast), ${plural(above)} above it (more often). The table lists every bin.`
  );
}
