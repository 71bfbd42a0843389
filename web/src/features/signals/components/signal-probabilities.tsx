import { ArrowDownIcon, ArrowUpIcon, MinusIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import type { DecileRecord, ModelReason, SignalAnalysis } from "@/lib/api/models";
import { formatCount, formatFractionPercent, formatRatio } from "@/lib/format";
import { cn } from "@/lib/utils";

/** A decile's hit rate is published from this many resolved signals (the track record's minimum sample). */
const MINIMUM_SAMPLE = 30;

const LINK_CLASS = "font-medium text-primary-strong underline-offset-4 hover:underline";

/** 0.412 → "41.2%": these are checked probabilities, so they are shown as percentages. */
const percent = (p: number | null | undefined) => formatFractionPercent(p, 1);

/** "47.2–68.2%", the 95% Wilson interval of a hit rate; null without one. */
function intervalText(record: Pick<DecileRecord, "wilsonLow" | "wilsonHigh">): string | null {
  if (record.wilsonLow == null || record.wilsonHigh == null) return null;
  return `${formatRatio(record.wilsonLow * 100, 1)}–${percent(record.wilsonHigh)}`;
}

/**
 * "Momentum signals of strength 70–79: 58.0% won (95% interval 47.2–68.2%), n = 81", or, under
 * the minimum sample, "…: 12 resolved, too few for a rate (30 needed)". The rate is in bold. A
 * custom strategy's signal has no record to read.
 */
function DecileText({ record }: { record: DecileRecord }) {
  if (record.strategy === "Custom") {
    // The server keeps no record for a custom strategy: its "0 resolved" would read as "too new".
    return (
      <p className="text-muted-foreground">
        Custom strategies have no track record: only the four house rules&apos; live signals are recorded.
      </p>
    );
  }
  const group = `${record.strategy} signals of strength ${record.low}–${record.high}: `;
  if (record.hitRate == null) {
    return (
      <p className="text-muted-foreground">
        {group}
        {formatCount(record.n)} resolved, too few for a rate ({MINIMUM_SAMPLE} needed)
      </p>
    );
  }
  const interval = intervalText(record);
  return (
    <p>
      {group}
      <span className="font-semibold tabular">{percent(record.hitRate)} won</span>
      {interval ? ` (95% interval ${interval})` : ""}, n = {formatCount(record.n)}
    </p>
  );
}

/** One probability: its name, its figure and, last, the basis it comes from. */
function Probability({ title, basis, testId, children }: { title: string; basis: ReactNode; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={testId} className="flex min-w-0 flex-col gap-2 rounded-lg bg-muted/50 px-3 py-2.5">
      <h4 id={id} className="text-xs font-semibold text-muted-foreground">
        {title}
      </h4>
      <div className="grid gap-2 text-sm">{children}</div>
      <p className="mt-auto pt-1 text-xs leading-relaxed text-muted-foreground">{basis}</p>
    </section>
  );
}

function RiskNeutral({ now, atIssue }: { now: number; atIssue: number | null | undefined }) {
  return (
    <Probability
      title="Risk-neutral probability of profit"
      testId="probability-risk-neutral"
      basis="From the pricing model (Black–Scholes, σ as priced, risk-neutral drift)."
    >
      <dl className="grid grid-cols-2 gap-2">
        <div>
          <dt className="text-xs text-muted-foreground">Now</dt>
          <dd className="text-lg font-semibold tabular">{percent(now)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">At issue</dt>
          <dd className={cn("tabular", atIssue == null ? "text-muted-foreground" : "text-lg font-semibold")}>
            {atIssue == null ? "Not recorded" : percent(atIssue)}
          </dd>
        </div>
      </dl>
    </Probability>
  );
}

const EFFECTS = {
  raises: { Icon: ArrowUpIcon, className: "text-positive-strong" },
  lowers: { Icon: ArrowDownIcon, className: "text-destructive-strong" },
  "does not move": { Icon: MinusIcon, className: "text-muted-foreground" },
} as const;

/** A reason's direction in words (the arrow and colour only repeat it). */
function effectWord(effect: number): keyof typeof EFFECTS {
  return effect > 0 ? "raises" : effect < 0 ? "lowers" : "does not move";
}

function Why({ reasons }: { reasons: readonly ModelReason[] }) {
  const id = useId();
  if (reasons.length === 0) return null;
  return (
    <div>
      <p id={id} className="text-xs font-medium text-muted-foreground">
        Why
      </p>
      <ul aria-labelledby={id} className="mt-1 grid gap-1">
        {reasons.map((reason) => {
          const word = effectWord(reason.effect);
          const { Icon, className } = EFFECTS[word];
          return (
            <li key={reason.feature} className="flex items-center gap-1.5">
              <Icon aria-hidden className={cn("size-3.5 shrink-0", className)} />
              <span>
                <span className="font-medium">{reason.label}</span> {word} it
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ModelProbability({ analysis }: { analysis: SignalAnalysis }) {
  const { model, modelIncluded } = analysis;
  return (
    <Probability
      title="Model probability"
      testId="probability-model"
      basis="The predictive model's calibrated probability that the signal wins, from what was known at issue."
    >
      {!modelIncluded ? (
        <p className="text-muted-foreground">
          Premium shows the predictive model&apos;s probability.{" "}
          <Link to="/pricing" className={LINK_CLASS}>
            Compare plans
          </Link>
        </p>
      ) : model ? (
        <>
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-lg font-semibold tabular">{percent(model.probability)}</span>
            <span className="text-xs text-muted-foreground">model {model.version}</span>
          </p>
          <Why reasons={model.why} />
        </>
      ) : (
        <p className="text-muted-foreground">No model scored this signal (no model had beaten the strength score when it was issued).</p>
      )}
    </Probability>
  );
}

function StrategyHitRate({ record }: { record: DecileRecord }) {
  return (
    <Probability
      title="Strategy hit rate at this strength"
      testId="probability-hit-rate"
      basis="Resolved live signals; a win is a positive P&L after slippage and commissions."
    >
      <DecileText record={record} />
    </Probability>
  );
}

/**
 * "Three probabilities", side by side (stacked on a phone), each with its basis: the pricing
 * model's risk-neutral probability of profit now and at issue, the predictive model's
 * probability (Premium), and how often the strategy's live signals of this strength won. Unlike
 * the strength score, each is a probability the track record checks, so each is a percentage.
 */
export function SignalProbabilities({ analysis }: { analysis: SignalAnalysis }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-2" data-testid="three-probabilities">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Three probabilities
        </h3>
        <Link to="/track-record" className={cn(LINK_CLASS, "text-xs")}>
          How these are checked
        </Link>
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        <RiskNeutral now={analysis.probabilityOfProfit} atIssue={analysis.probabilityOfProfitAtIssue} />
        <ModelProbability analysis={analysis} />
        <StrategyHitRate record={analysis.decileRecord} />
      </div>
    </section>
  );
}
