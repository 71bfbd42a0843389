/** Small helpers for the inline SVG charts. */

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps to the middle of the range. */
export function scaleLinear(domain: readonly [number, number], range: readonly [number, number]) {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  return (value: number) => (span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0));
}

/** The smallest and largest of `values` (finite ones), padded by `padding` of the span. */
export function paddedExtent(values: readonly number[], padding = 0.06): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 1];
  let min = Math.min(...finite);
  let max = Math.max(...finite);
  if (min === max) {
    const bump = Math.abs(min) * 0.05 || 1;
    min -= bump;
    max += bump;
  }
  const pad = (max - min) * padding;
  return [min - pad, max + pad];
}

/** About `count` round tick values inside [min, max] (steps of 1, 2, 2.5 or 5 × 10ⁿ). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max <= min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.round(v / step) * step);
  }
  return ticks;
}

/**
 * Moves label positions (pixels, any order) apart so none is closer than `gap` to the
 * next, keeping their order and staying within [top, bottom] where there is room.
 */
export function spreadLabels(positions: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = positions.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const ys = order.map((o) => Math.min(Math.max(o.y, top), bottom));
  for (let k = 1; k < ys.length; k++) ys[k] = Math.max(ys[k], ys[k - 1] + gap);
  if (ys.length > 0 && ys[ys.length - 1] > bottom) {
    ys[ys.length - 1] = bottom;
    for (let k = ys.length - 2; k >= 0; k--) ys[k] = Math.min(ys[k], ys[k + 1] - gap);
  }
  const out = new Array<number>(positions.length);
  order.forEach((o, k) => {
    out[o.i] = ys[k];
  });
  return out;
}

/** An SVG path through the points. */
export function linePath(points: readonly (readonly [number, number])[]): string {
  return points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`).join("");
}
