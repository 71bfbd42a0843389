import type { Figures } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { type Forecast, formatProbability, formatScore4 } from "../lib/calibration";
import { ScrollTable, TD, TH } from "./data-table";

type Row = { name: string; value: string; meaning: string };

function rows(figures: Figures, eceTarget: number, forecast: Forecast): { group: string; rows: Row[] }[] {
  return [
    {
      group: "Headline",
      rows: [
        {
          name: "Brier score",
          value: formatScore4(figures.brier),
          meaning: `The mean squared gap between forecast and outcome (1 ${forecast.outcome}, 0 did not). 0 is perfect; always saying 50% scores 0.25. Lower is better.`,
        },
        {
          name: "Brier skill score",
          value: formatScore4(figures.skill),
          meaning:
            figures.skill == null
              ? `Not defined here: every signal in the group ${forecast.outcome}, or none did.`
              : "1 − Brier ÷ (base rate × (1 − base rate)): the gain over always forecasting the base rate. Above 0 beats it.",
        },
        { name: "Base rate", value: formatProbability(figures.baseRate), meaning: `The share of the signals that ${forecast.outcome}.` },
        {
          name: "Mean forecast",
          value: formatProbability(figures.meanForecast),
          meaning: `The average ${forecast.name}. Above the base rate, the forecasts were optimistic on average; below it, cautious.`,
        },
        {
          name: "ECE (equal-width)",
          value: formatScore4(figures.eceEqualWidth),
          meaning: `Expected calibration error: the gap between mean forecast and share that ${forecast.outcome} in each of ten equal-width bins, averaged by signals. 0 is perfect; the target is ≤ ${eceTarget}.`,
        },
        {
          name: "ECE (equal-count)",
          value: formatScore4(figures.eceEqualCount),
          meaning: "The same over ten bins that hold about as many signals each.",
        },
      ],
    },
    {
      group: "Murphy decomposition of the Brier score",
      rows: [
        {
          name: "Reliability",
          value: formatScore4(figures.reliability),
          meaning: `How far each bin's share that ${forecast.outcome} sits from its forecast (squared, weighted by signals). Lower is better.`,
        },
        {
          name: "Resolution",
          value: formatScore4(figures.resolution),
          meaning: `How far the bins' shares that ${forecast.outcome} spread from the base rate. Higher is better: the forecast tells the one kind from the other.`,
        },
        {
          name: "Uncertainty",
          value: formatScore4(figures.uncertainty),
          meaning: "Base rate × (1 − base rate): how hard the outcomes are to call at all, whatever the forecast.",
        },
        {
          name: "Within-bin variance",
          value: formatScore4(figures.withinBinVariance),
          meaning: "How much the forecasts vary inside each bin.",
        },
        {
          name: "Within-bin covariance",
          value: formatScore4(figures.withinBinCovariance),
          meaning: "How forecasts and outcomes move together inside each bin.",
        },
      ],
    },
  ];
}

/** The group's figures with a short definition beside each: the Brier score, its decomposition, skill, base rate and both ECEs. */
export function FiguresTable({
  figures,
  eceTarget,
  label,
  forecast,
}: {
  figures: Figures;
  eceTarget: number;
  label: string;
  forecast: Forecast;
}) {
  return (
    <>
      <ScrollTable label={label} caption={label} minWidth="sm:min-w-[32rem]">
        <thead>
          <tr className="border-b">
            <th scope="col" className={TH}>
              Figure
            </th>
            <th scope="col" className={cn(TH, "text-right")}>
              Value
            </th>
            <th scope="col" className={cn(TH, "hidden pr-0 pl-3 sm:table-cell")}>
              What it means
            </th>
          </tr>
        </thead>
        {rows(figures, eceTarget, forecast).map((section) => (
          <tbody key={section.group} className="divide-y border-b last:border-b-0">
            <tr>
              <th scope="colgroup" colSpan={3} className="pt-4 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {section.group}
              </th>
            </tr>
            {section.rows.map((row) => (
              <tr key={row.name}>
                <th scope="row" className={cn(TD, "align-top font-medium sm:whitespace-nowrap")}>
                  {row.name}
                  {/* On a phone the meaning goes under the name instead of a third column (one or the other is shown). */}
                  <span className="mt-0.5 block text-xs leading-relaxed font-normal text-muted-foreground sm:hidden">{row.meaning}</span>
                </th>
                <td className={cn(TD, "text-right align-top font-semibold whitespace-nowrap")}>{row.value}</td>
                <td className="hidden py-2 pl-3 text-xs leading-relaxed text-muted-foreground sm:table-cell">{row.meaning}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </ScrollTable>
      <p className="mt-3 text-xs text-muted-foreground">
        Over the ten equal-width bins, Brier = reliability − resolution + uncertainty + within-bin variance − 2 × within-bin covariance,
        exactly.
      </p>
    </>
  );
}
