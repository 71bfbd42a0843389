import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { formatCurrency, moneyAxis } from "@/lib/format";
import { setMoneyDisplay } from "@/lib/money-display";
import { describeSeries, TimeSeriesChart } from "./time-series-chart";

const points = [
  { date: "2026-06-01", value: 10_000 },
  { date: "2026-06-02", value: 10_400 },
  { date: "2026-06-03", value: 9_800 },
];

afterEach(() => setMoneyDisplay(null));

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

  it("draws money in the display currency, its ticks round in that currency", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.8 });
    render(<TimeSeriesChart points={points} title="Equity curve" {...moneyAxis()} testId="chart" />);
    const chart = screen.getByRole("img");
    expect(chart).toHaveAccessibleName(/\(€8,000\.00\) to .* \(€7,840\.00\); high €8,320\.00, low €7,840\.00\.$/);
    const ticks = [...chart.querySelectorAll("text")].map((t) => t.textContent ?? "").filter((t) => t.startsWith("€") || t.includes("$"));
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^€\d(\.\d)?K$/);
  });

  it("picks the ticks round in the display currency, not in dollars", () => {
    setMoneyDisplay({ currency: "EUR", perUsd: 0.8 });
    render(<TimeSeriesChart points={points} title="Equity curve" {...moneyAxis()} formatTick={formatCurrency} />);
    const ticks = [...screen.getByRole("img").querySelectorAll("text")].map((t) => t.textContent ?? "").filter((t) => t.startsWith("€"));
    expect(ticks.length).toBeGreaterThan(1);
    // €7,800.00, €8,000.00, … rather than €7,840.00, the euros of $9,800.
    for (const tick of ticks) expect(tick).toMatch(/^€[\d,]+00\.00$/);
  });

  it("describes an empty series", () => {
    expect(describeSeries("Drawdown", [], String)).toBe("Drawdown: no data.");
  });
});
