import type { Bin, Calibration, Figures, HeldOutEvaluation, RollingPoint, StrategyName, TrackRecordSummary } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatFractionPercent, formatRatio, NO_VALUE } from "@/lib/format";

/** One group the page can show: all live signals pooled, or one strategy's. */
export type CalibrationGroup = {
  /** The tab's value: "pooled" or the strategy's slug ("mean-reversion"). */
  id: string;
  label: "Pooled" | StrategyName;
  calibration: Calibration;
};

const slug = (name: string) => name.toLowerCase().replace(/\s+/g, "-");

/** Pooled first, then the strategies in the server's order (Momentum, Mean Reversion, Breakout, Volatility). */
export function calibrationGroups(summary: TrackRecordSummary): CalibrationGroup[] {
  return [
    { id: "pooled", label: "Pooled", calibration: summary.pooled },
    ...summary.strategies.map((s) => ({ id: slug(s.strategy), label: s.strategy, calibration: s.strength })),
  ];
}

/** What a group's forecast is and what counts as its event, in the words the page uses. */
export type Forecast = {
  /** "strength ÷ 100". */
  name: string;
  /** The same, short enough for the diagram's axis. */
  axis: string;
  /** "won": the event the forecast is checked against, as a verb. */
  outcome: string;
};

/** The strength score read as a probability, checked against the signal's own outcome (net of costs). */
export const STRENGTH_FORECAST: Forecast = { name: "strength ÷ 100", axis: "strength ÷ 100", outcome: "won" };
/** The pricing model's probability of profit at issue, checked against the position held to expiry. */
export const RISK_NEUTRAL_FORECAST: Forecast = {
  name: "probability of profit at issue",
  axis: "probability of profit",
  outcome: "ended in profit",
};

/** The predictive model's probability at issue, checked against the signal's own outcome (net of costs). */
export const MODEL_FORECAST: Forecast = { name: "model probability at issue", axis: "model probability", outcome: "won" };

/** How the reliability diagram's ten bins are cut. */
export type Binning = "equal-width" | "equal-count";

export const BINNINGS: readonly { value: Binning; label: string; description: string }[] = [
  { value: "equal-width", label: "Equal-width bins", description: "ten bins, each ten percentage points of forecast wide" },
  { value: "equal-count", label: "Equal-count bins", description: "ten bins holding about as many signals each" },
];

export function binsOf(figures: Figures, binning: Binning): Bin[] {
  return binning === "equal-width" ? figures.binsEqualWidth : figures.binsEqualCount;
}

/** A Brier score, ECE or decomposition term: four decimals ("0.2143"), "—" when there is none. */
export function formatScore4(value: number | null | undefined): string {
  return formatRatio(value, 4);
}

/** A probability or an observed frequency as a percentage with one decimal ("58.3%"). */
export function formatProbability(value: number | null | undefined): string {
  return formatFractionPercent(value, 1);
}

/** A bin edge as a percentage, with a decimal only where it has one: 0.1 → "10%", 0.5233 → "52.3%". */
export function formatEdge(value: number): string {
  const tenths = Math.round(value * 1000) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)}%`;
}

/** "60%–70%". */
export function binRange(bin: Pick<Bin, "lower" | "upper">): string {
  return `${formatEdge(bin.lower)}–${formatEdge(bin.upper)}`;
}

/** The 95% Wilson interval of a bin's observed frequency ("44.2%–71.2%"), "—" for an empty bin. */
export function wilsonRange(bin: Pick<Bin, "wilsonLow" | "wilsonHigh">): string {
  if (bin.wilsonLow == null || bin.wilsonHigh == null) return NO_VALUE;
  return `${formatProbability(bin.wilsonLow)}–${formatProbability(bin.wilsonHigh)}`;
}

/** "Sep 2, 2026 – Nov 23, 2026" (the first and last resolution day), null before any resolved signal. */
export function periodText(calibration: Pick<Calibration, "firstDay" | "lastDay">): string | null {
  const { firstDay, lastDay } = calibration;
  if (!firstDay || !lastDay) return null;
  return firstDay === lastDay ? formatShortDate(firstDay) : `${formatShortDate(firstDay)} – ${formatShortDate(lastDay)}`;
}

const count = new Intl.NumberFormat("en-US");

/** "1 resolved live signal", "412 resolved live signals". */
export function signalCount(n: number): string {
  return `${count.format(n)} resolved live ${n === 1 ? "signal" : "signals"}`;
}

/** One published target and whether the group meets it. */
export type TargetVerdict = {
  id: "ece" | "skill" | "beats-strength";
  /** "Calibration target ECE ≤ 0.05". */
  label: string;
  met: boolean;
  /** The figure as shown ("0.0731"). */
  value: string;
  /** Why there is no figure, when there is none. */
  note: string | null;
};

/** The two published targets, stated plainly: ECE (equal-width) at most `eceTarget`, skill above `skillTarget`. */
export function targetVerdicts(summary: Pick<TrackRecordSummary, "eceTarget" | "skillTarget">, figures: Figures): TargetVerdict[] {
  const skill = figures.skill ?? null;
  return [
    {
      id: "ece",
      label: `Calibration target ECE ≤ ${summary.eceTarget}`,
      met: figures.meetsEceTarget,
      value: formatScore4(figures.eceEqualWidth),
      note: null,
    },
    {
      id: "skill",
      label: `Skill target > ${summary.skillTarget}`,
      met: figures.meetsSkillTarget,
      value: formatScore4(skill),
      note: skill === null ? "no skill score: every signal in the group won, or every one lost" : null,
    },
  ];
}

/**
 * Whether the model beat the strength score on the held-out years, as a target: its skill over
 * strength, 1 − Brier(model) ÷ Brier(strength), above 0 (the rule that decides whether it ships).
 */
export function heldOutVerdict(evaluation: Pick<HeldOutEvaluation, "beatsStrength" | "skillOverStrength">): TargetVerdict {
  return {
    id: "beats-strength",
    label: "Skill over strength > 0",
    met: evaluation.beatsStrength,
    value: formatScore4(evaluation.skillOverStrength),
    note: null,
  };
}

/** Held-out years as read: [2023, 2024, 2025] → "2023–2025", [2022, 2024] → "2022 and 2024", [2025] → "2025". */
export function yearsText(years: readonly number[]): string {
  const sorted = [...years].sort((a, b) => a - b);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return NO_VALUE;
  if (sorted.length === 1) return String(first);
  if (last - first === sorted.length - 1) return `${first}–${last}`;
  return `${sorted.slice(0, -1).join(", ")} and ${last}`;
}

/** "met (0.0312)", "missed (0.0731)". */
export function verdictText(verdict: TargetVerdict): string {
  return `${verdict.met ? "met" : "missed"} (${verdict.note ?? verdict.value})`;
}

/** A sentence on the rolling Brier line: its span, the latest figure with its n, and its low and high. */
export function rollingSummary(points: readonly RollingPoint[], windowDays: number): string {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return `No rolling ${windowDays}-day figure yet.`;
  const values = points.map((p) => p.brier);
  return (
    `${points.length} ${points.length === 1 ? "day" : "days"} from ${formatShortDate(first.day)} to ${formatShortDate(last.day)}. ` +
    `Latest: ${formatScore4(last.brier)} over ${count.format(last.n)} ${last.n === 1 ? "signal" : "signals"} resolved in the ${windowDays} days to ${formatShortDate(last.day)}; ` +
    `lowest ${formatScore4(Math.min(...values))}, highest ${formatScore4(Math.max(...values))}.`
  );
}

/** "every hour", "every 2 hours", "every 30 minutes", from the server's head interval. */
export function everyInterval(seconds: number): string {
  const [amount, unit] =
    seconds % 3600 === 0 ? [seconds / 3600, "hour"] : seconds % 60 === 0 ? [seconds / 60, "minute"] : [seconds, "second"];
  return amount === 1 ? `every ${unit}` : `every ${count.format(amount)} ${unit}s`;
}

/** The command that checks a downloaded record offline. */
export function verifyCommand(publicKey: string | null): string {
  return `strikeline verify track-record.json --key ${publicKey ?? "<public key>"}`;
}
