import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import type { HeldOutEvaluation, HeldOutScores, PublishedModel, TrackRecordSummary } from "@/lib/api/models";
import { formatDateTime, formatShortDate } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { formatProbability, formatScore4, heldOutVerdict, MODEL_FORECAST, yearsText } from "../lib/calibration";
import { CalibrationView, type Targets } from "./calibration-view";
import { ScrollTable, TD, TH } from "./data-table";
import { TargetLines } from "./target-lines";

const count = new Intl.NumberFormat("en-US");

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-semibold tabular">{children}</dd>
    </div>
  );
}

/** The newest model: its version, what it learnt from, and whether it scores new signals. */
function ModelFacts({ model }: { model: PublishedModel }) {
  return (
    <Card data-testid="model-facts">
      <CardHeader>
        <h3 className="text-base leading-tight font-semibold">The newest model</h3>
        <CardDescription>Trained {formatDateTime(model.createdAt)}.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <Fact label="Version">
            <span className="font-mono text-xs break-all">{model.version}</span>
          </Fact>
          <Fact label="Trained through">{formatShortDate(model.trainedThrough)}</Fact>
          <Fact label="Examples">
            {count.format(model.examples)} resolved backtested {model.examples === 1 ? "signal" : "signals"}
          </Fact>
        </dl>
        <p className="text-sm" data-testid="model-ships">
          <span className="font-semibold">Scores new signals: {model.ships ? "yes" : "no"}</span>
          <span className="text-muted-foreground"> — it ships only if it beat the strength score on the held-out years.</span>
        </p>
      </CardContent>
    </Card>
  );
}

type Row = { name: string; better: string; value: (scores: HeldOutScores) => string };

const ROWS: readonly Row[] = [
  { name: "Brier score", better: "lower is better", value: (s) => formatScore4(s.brier) },
  { name: "Skill vs base rate", better: "above 0 beats always forecasting the base rate", value: (s) => formatScore4(s.skill) },
  { name: "ECE (equal-width)", better: "lower is better", value: (s) => formatScore4(s.ece) },
];

/** The model against the strength score on years it never saw: three figures each, and whether it beat the strength. */
function HeldOut({ evaluation }: { evaluation: HeldOutEvaluation }) {
  const years = yearsText(evaluation.years);
  const caption = `Held-out years ${years}: ${count.format(evaluation.n)} backtested signals, base rate ${formatProbability(evaluation.baseRate)} won`;
  return (
    <Card data-testid="held-out">
      <CardHeader>
        <h3 className="text-base leading-tight font-semibold">Model against strength on the held-out years</h3>
        <CardDescription>
          Each held-out year is scored by a model trained only on signals resolved before that year began, and compared with the strength
          score (strength ÷ 100) on the same signals. These are backtested signals, not live ones: the live check is below.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <TargetLines verdicts={[heldOutVerdict(evaluation)]} />
        <p className="text-sm text-muted-foreground">
          Skill over strength is 1 − Brier(model) ÷ Brier(strength): above 0, the model&apos;s forecasts were closer to the outcomes than
          the strength score&apos;s.{" "}
          {evaluation.beatsStrength
            ? "The model beat the strength score on these years."
            : "The model did not beat the strength score on these years, so it does not score new signals."}
        </p>
        <ScrollTable label={caption} caption={caption} minWidth="min-w-[18rem]">
          <thead>
            <tr className="border-b">
              <th scope="col" className={TH}>
                Figure
              </th>
              <th scope="col" className={cn(TH, "text-right")}>
                Model
              </th>
              <th scope="col" className={cn(TH, "pr-0 text-right")}>
                Strength score
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {ROWS.map((row) => (
              <tr key={row.name}>
                <th scope="row" className={cn(TD, "font-medium")}>
                  {row.name}
                  <span className="block text-xs font-normal text-muted-foreground">{row.better}</span>
                </th>
                <td className={cn(TD, "text-right")}>{row.value(evaluation.model)}</td>
                <td className={cn(TD, "pr-0 text-right")}>{row.value(evaluation.strength)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </CardContent>
    </Card>
  );
}

/**
 * "Predictive model": the newest model (or that none has been trained), how it did against the
 * strength score on held-out backtested years, and its probability at issue checked against
 * live outcomes like every other figure on the page.
 */
export function PredictiveModel({ summary, targets }: { summary: TrackRecordSummary; targets: Targets }) {
  const { model } = summary;
  return (
    <section aria-labelledby="model-heading" className="grid grid-cols-1 gap-6" data-testid="predictive-model">
      <div className="max-w-3xl">
        <h2 id="model-heading" className="text-2xl font-semibold tracking-tight">
          Predictive model
        </h2>
        <p className="mt-3 leading-relaxed text-muted-foreground">
          A statistical model gives each new signal a probability that it wins, from what was known when it was issued: its terms, the
          indicators, the sector and the strategy&apos;s recent record. It learns from backtested signals, is judged against the strength
          score on recent years it never saw, and scores new signals only if it beat the strength score there. Premium subscribers see its
          probability on each signal. Below, that probability at issue is checked against what happened, for the live signals a model
          scored.
        </p>
      </div>
      {model ? (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2 xl:items-start">
          <ModelFacts model={model} />
          {model.evaluation ? (
            <HeldOut evaluation={model.evaluation} />
          ) : (
            <p className="rounded-xl border border-dashed bg-card/50 px-5 py-6 text-sm text-muted-foreground" data-testid="no-evaluation">
              This model has no held-out evaluation: the stored history was too short to hold years out, so it does not score new signals.
            </p>
          )}
        </div>
      ) : (
        <p className="rounded-xl border border-dashed bg-card/50 px-5 py-6 text-sm text-muted-foreground" data-testid="no-model">
          No model has been trained yet, so no signal carries a model probability.
        </p>
      )}
      <CalibrationView calibration={summary.modelLive} title="Model probability at issue" targets={targets} forecast={MODEL_FORECAST} />
    </section>
  );
}
