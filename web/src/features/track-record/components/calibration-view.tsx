import { useId, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import type { Calibration, Figures, TrackRecordSummary } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { type Binning, BINNINGS, binsOf, type Forecast, periodText, signalCount, targetVerdicts } from "../lib/calibration";
import { BinsTable } from "./bins-table";
import { FiguresTable } from "./figures-table";
import { ReliabilityDiagram } from "./reliability-diagram";
import { RollingBrier } from "./rolling-brier";
import { TargetLines } from "./target-lines";

/** What every group is measured against, from the summary. */
export type Targets = Pick<TrackRecordSummary, "eceTarget" | "skillTarget" | "minimumSample" | "rollingWindowDays">;

function BinningToggle({ value, onChange }: { value: Binning; onChange: (value: Binning) => void }) {
  return (
    <div
      role="group"
      aria-label="Bins"
      className="inline-flex max-w-full flex-wrap items-center gap-1 self-start rounded-lg bg-muted p-1 sm:shrink-0"
    >
      {BINNINGS.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            "inline-flex h-8 items-center rounded-md px-3 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
            value === option.value ? "bg-card text-foreground shadow-xs" : "text-muted-foreground hover:text-foreground",
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

function Legend() {
  return (
    <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1.5 text-xs text-muted-foreground">
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="12" height="12" viewBox="0 0 12 12">
          <circle cx="6" cy="6" r="4.5" className="fill-primary" />
        </svg>
        One bin (larger with more signals), with its n
      </li>
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="12" height="12" viewBox="0 0 12 12">
          <path d="M3 1h6M6 1v10M3 11h6" className="stroke-primary" strokeWidth="1.5" fill="none" />
        </svg>
        95% Wilson interval
      </li>
      <li className="flex items-center gap-1.5">
        <svg aria-hidden width="18" height="12" viewBox="0 0 18 12">
          <path d="M0 6h18" className="stroke-muted-foreground" strokeWidth="1.25" strokeDasharray="5 4" fill="none" />
        </svg>
        Perfect calibration
      </li>
    </ul>
  );
}

function FiguresView({ figures, targets, group, forecast }: { figures: Figures; targets: Targets; group: string; forecast: Forecast }) {
  const [binning, setBinning] = useState<Binning>("equal-width");
  const chosen = BINNINGS.find((b) => b.value === binning) ?? BINNINGS[0];
  const bins = binsOf(figures, binning);
  return (
    <div className="grid grid-cols-1 gap-6">
      <TargetLines verdicts={targetVerdicts(targets, figures)} />

      <Card>
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="grid gap-1.5">
            <h4 className="text-base leading-tight font-semibold">Reliability diagram</h4>
            <CardDescription>
              Signals grouped by forecast; for each bin, how often they {forecast.outcome}. On the dashed diagonal, a forecast of 70%{" "}
              {forecast.outcome} 70% of the time.
            </CardDescription>
          </div>
          <BinningToggle value={binning} onChange={setBinning} />
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)] lg:items-start">
          <div>
            <ReliabilityDiagram bins={bins} name={`Reliability diagram, ${group}, ${chosen.label.toLowerCase()}`} forecast={forecast} />
            <Legend />
          </div>
          <BinsTable bins={bins} caption={`${group}: ${chosen.label.toLowerCase()} (${chosen.description})`} />
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[3fr_2fr] xl:items-start">
        <Card>
          <CardHeader>
            <h4 className="text-base leading-tight font-semibold">Figures</h4>
            <CardDescription>Scored on forecasts from 0 to 1 and outcomes of 1 ({forecast.outcome}) or 0 (did not).</CardDescription>
          </CardHeader>
          <CardContent>
            <FiguresTable figures={figures} eceTarget={targets.eceTarget} label={`${group}: figures`} forecast={forecast} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h4 className="text-base leading-tight font-semibold">Rolling {targets.rollingWindowDays}-day Brier score</h4>
            <CardDescription>
              For each resolution day, the Brier score of the signals resolved in the {targets.rollingWindowDays} days up to it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <RollingBrier points={figures.rollingBrier} windowDays={targets.rollingWindowDays} group={group} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

/**
 * One group's calibration: with enough resolved signals, the targets, the reliability diagram
 * with its bins, the figures and the rolling Brier line; under the minimum sample, only its n
 * and why there is no figure.
 */
export function CalibrationView({
  calibration,
  title,
  targets,
  forecast,
}: {
  calibration: Calibration;
  /** The group's name, its heading ("Pooled", "Momentum", …). */
  title: string;
  targets: Targets;
  /** What is forecast and what counts as the event. */
  forecast: Forecast;
}) {
  const headingId = useId();
  const period = periodText(calibration);
  const { figures, n } = calibration;
  return (
    <section aria-labelledby={headingId} className="grid grid-cols-1 gap-6">
      <div>
        <h3 id={headingId} className="text-xl font-semibold tracking-tight">
          {title}
        </h3>
        <p className="mt-1 text-sm text-muted-foreground" data-testid="group-sample">
          {signalCount(n)}
          {period ? `, resolved ${period}` : ""}
          {figures ? `; ${calibration.wins} ${forecast.outcome}` : ""}.
        </p>
      </div>
      {figures ? (
        <FiguresView figures={figures} targets={targets} group={title} forecast={forecast} />
      ) : (
        <p className="rounded-xl border border-dashed bg-card/50 px-5 py-6 text-sm text-muted-foreground" data-testid="too-few">
          A figure needs at least {targets.minimumSample} resolved live signals, and this group has {n} so far, so no figure is shown yet.
        </p>
      )}
    </section>
  );
}
