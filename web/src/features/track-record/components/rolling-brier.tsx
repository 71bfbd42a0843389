import { TimeSeriesChart } from "@/components/charts/time-series-chart";
import type { RollingPoint } from "@/lib/api/models";
import { formatScore4, rollingSummary } from "../lib/calibration";

/** The Brier score over the trailing window, one point per resolution day, with a sentence that sums it up. */
export function RollingBrier({ points, windowDays, group }: { points: readonly RollingPoint[]; windowDays: number; group: string }) {
  return (
    <div className="grid grid-cols-1 gap-3">
      <TimeSeriesChart
        points={points.map((p) => ({ date: p.day, value: p.brier }))}
        title={`Rolling ${windowDays}-day Brier score, ${group}`}
        formatValue={formatScore4}
        formatTick={(value) => value.toFixed(3)}
        height={200}
        emptyText={`Not enough resolution days yet to draw the rolling ${windowDays}-day line`}
        testId="rolling-brier-chart"
      />
      <p className="text-xs leading-relaxed text-muted-foreground">
        {rollingSummary(points, windowDays)} Lower is better; always saying 50% scores 0.25.
      </p>
    </div>
  );
}
