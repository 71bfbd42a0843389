import { describe, expect, it } from "vitest";
import { makeBin, makeEqualWidthBins } from "@/test/track-record-fixtures";
import { describeReliability, RELIABILITY_FRAME, reliabilityPoints, reliabilityScales } from "./reliability";

describe("the reliability diagram's geometry", () => {
  it("maps probabilities onto the plot, 0 at the bottom left and 1 at the top right", () => {
    const { x, y, plot } = reliabilityScales();
    expect(x(0)).toBe(plot.left);
    expect(x(1)).toBe(plot.right);
    expect(y(0)).toBe(plot.bottom);
    expect(y(1)).toBe(plot.top);
    expect(plot.right).toBe(RELIABILITY_FRAME.width - RELIABILITY_FRAME.margin.right);
    // Square, so the diagonal of perfect calibration is at 45°.
    expect(plot.right - plot.left).toBe(plot.bottom - plot.top);
  });

  it("draws one point per bin with signals, at (mean forecast, observed frequency), with its interval", () => {
    const bins = makeEqualWidthBins({ 4: [20, 9, 0.45], 6: [40, 26, 0.65] });
    const points = reliabilityPoints(bins);
    const { x, y } = reliabilityScales();
    expect(points).toHaveLength(2);
    expect(points[0].cx).toBeCloseTo(x(0.45));
    expect(points[0].cy).toBeCloseTo(y(0.45));
    expect(points[0].yHigh).toBeLessThan(points[0].cy);
    expect(points[0].yLow).toBeGreaterThan(points[0].cy);
    expect(points[1].r).toBeGreaterThan(points[0].r);
    expect(points.map((p) => p.label)).toEqual(["n=20", "n=40"]);
  });

  it("moves a label that would crowd the one before under its bar, and leaves it out when both lanes are taken", () => {
    const bins = [
      makeBin(0.5, 0.505, 12, 6, 0.503),
      makeBin(0.505, 0.51, 12, 6, 0.507),
      makeBin(0.51, 0.515, 12, 6, 0.512),
      makeBin(0.515, 0.8, 12, 6, 0.7),
    ];
    const points = reliabilityPoints(bins);
    expect(points.map((p) => p.label)).toEqual(["n=12", "n=12", null, "n=12"]);
    expect(points[0].labelY).toBeLessThan(points[0].yHigh);
    expect(points[1].labelY).toBeGreaterThan(points[1].yLow);
    expect(points[3].labelY).toBeLessThan(points[3].yHigh);
  });

  it("puts a label under its bar when the bar reaches the top", () => {
    const [point] = reliabilityPoints([makeBin(0.9, 1, 5, 5, 0.95)]);
    expect(point.labelY).toBeGreaterThan(point.yLow);
  });

  it("describes how the points fall against the diagonal", () => {
    const bins = makeEqualWidthBins({ 4: [20, 12, 0.45], 6: [40, 20, 0.65], 7: [10, 6, 0.75] });
    expect(describeReliability(bins)).toBe(
      "3 bins with signals, each plotted at its mean forecast against the share that won, with its 95% interval. " +
        "2 bins below the diagonal (won less often than forecast), 1 bin above it (more often). The table lists every bin.",
    );
    expect(describeReliability(makeEqualWidthBins({}))).toBe("No bin has signals in it yet.");
    expect(describeReliability(bins, "ended in profit")).toMatch(
      /against the share that ended in profit.*\(ended in profit less often than forecast\)/,
    );
  });
});
