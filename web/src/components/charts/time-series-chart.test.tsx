import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatCurrency } from "@/lib/format";
import { describeSeries, TimeSeriesChart } from "./time-series-chart";

const points = [
  { date: "2026-06-01", value: 10_000 },
  { date: "2026-06-02", value: 10_400 },
  { date: "2026-06-03", value: 9_800 },
];

describe("TimeSeriesChart", () => {
  it("is an image whose name and title state the span and the figures", () => {
    render(<TimeSeriesChart points={points} title="Equity curve" formatValue={formatCurrency} testId="chart" />);
    const chart = screen.getByRole("img");
    const text = "Equity curve: 3 points from Jun 1, 2026 ($10,000.00) to Jun 3, 2026 ($9,800.00); high $10,400.00, low $9,800.00.";
    expect(chart).toHaveAccessibleName(text);
    expect(chart.querySelector("title")).toHaveTextContent(text);
  });

  it("says so instead of drawing fewer than two points", () => {
    render(<TimeSeriesChart points={points.slice(0, 1)} title="Value" formatValue={formatCurrency} emptyText="Not enough history yet" />);
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
    expect(screen.getByText("Not enough history yet")).toBeInTheDocument();
  });

  it("describes an empty series", () => {
    expect(describeSeries("Drawdown", [], String)).toBe("Drawdown: no data.");
  });
});
