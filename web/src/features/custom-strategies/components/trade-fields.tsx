import { AlertTriangleIcon } from "lucide-react";
import { useId } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { OPTION_TYPES } from "@/lib/api/enums";
import type { RuleLanguage, SignalKind } from "@/lib/api/models";
import { cn } from "@/lib/utils";
import { DEFAULT_MIN_PROBABILITY, MIN_PROBABILITY_RANGE, percentText, type StrategyDraft, type StrikeMode } from "../lib/rule";
import { Segmented } from "./segmented";

type Props = {
  draft: StrategyDraft;
  /** The server's ranges of each number (`GET /api/strategies/custom/language`). */
  language: RuleLanguage;
  onChange: (patch: Partial<StrategyDraft>) => void;
  messages: Record<string, string>;
  disabled?: boolean;
};

/** A number input with its label, its unit after it and its message (an error, else the hint) under it. */
function NumberField({
  id,
  label,
  unit,
  value,
  onChange,
  error,
  hint,
  min,
  max,
  step,
  disabled,
  className,
}: {
  id: string;
  label: string;
  unit?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint: string;
  min: number;
  max: number;
  step: number | "any";
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          type="number"
          inputMode={step === 1 ? "numeric" : "decimal"}
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={`${id}-message`}
          disabled={disabled}
          className="w-28 tabular"
        />
        {unit ? <span className="text-sm text-muted-foreground">{unit}</span> : null}
      </div>
      <p id={`${id}-message`} className={cn("text-[0.8rem]", error ? "font-medium text-destructive-strong" : "text-muted-foreground")}>
        {error ? <AlertTriangleIcon className="mr-1 inline size-3.5 align-[-2px]" aria-hidden /> : null}
        {error ?? hint}
      </p>
    </div>
  );
}

const STRIKE_MODES: readonly { value: StrikeMode; label: string }[] = [
  { value: "offset", label: "Listed strikes from the money" },
  { value: "delta", label: "Delta" },
];

/** What a signal opens: the contract, which strike, how far out it expires (the first listed expiration, or the first monthly one). */
export function OpensFields({ draft, language, onChange, messages, disabled }: Props) {
  const id = useId();
  const [offsetLow, offsetHigh] = language.ranges.offset;
  const [deltaLow, deltaHigh] = language.ranges.delta;
  const [firstDay, lastDay] = language.ranges.days;
  const straddle = draft.opens === "STRADDLE";
  const changeOpens = (opens: SignalKind) => onChange(opens === "STRADDLE" ? { opens, strikeMode: "offset", offset: "0" } : { opens });
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-x-6 gap-y-4">
        <Segmented
          name={`${id}-opens`}
          legend="Opens"
          value={draft.opens}
          options={OPTION_TYPES.map((t) => ({ value: t, label: t }))}
          onChange={changeOpens}
          disabled={disabled}
        />
        <Segmented
          name={`${id}-strike-mode`}
          legend="Strike"
          value={draft.strikeMode}
          options={STRIKE_MODES.map((m) => ({ ...m, disabled: m.value === "delta" && straddle }))}
          onChange={(strikeMode) => onChange({ strikeMode })}
          disabled={disabled}
        />
      </div>
      {messages.opens || messages.strike ? (
        <p role="alert" className="text-[0.8rem] font-medium text-destructive-strong">
          {[messages.opens, messages.strike].filter(Boolean).join(" ")}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {draft.strikeMode === "offset" || straddle ? (
          <NumberField
            id={`${id}-offset`}
            label="Strikes from the money"
            value={straddle ? "0" : draft.offset}
            onChange={(offset) => onChange({ offset })}
            error={messages.offset}
            hint={
              straddle
                ? "A straddle buys the strike nearest the price: 0."
                : `0 is the strike nearest the price; +1 the first out of the money, −1 the first in the money (${offsetLow} to ${offsetHigh}).`
            }
            min={offsetLow}
            max={offsetHigh}
            step={1}
            disabled={disabled || straddle}
          />
        ) : (
          <NumberField
            id={`${id}-delta`}
            label="Strike delta"
            value={draft.delta}
            onChange={(delta) => onChange({ delta })}
            error={messages.delta}
            hint={`The listed strike whose model delta is nearest, ${deltaLow} to ${deltaHigh} (0.5 is about at the money).`}
            min={deltaLow}
            max={deltaHigh}
            step={0.05}
            disabled={disabled}
          />
        )}
        <div className="grid content-start gap-3">
          <NumberField
            id={`${id}-min-days`}
            label="Minimum days to expiration"
            unit="days"
            value={draft.minDays}
            onChange={(minDays) => onChange({ minDays })}
            error={messages.minDays}
            hint={`The first ${draft.monthly ? "monthly" : "listed"} expiration at least this many calendar days out (${firstDay} to ${lastDay}).`}
            min={firstDay}
            max={lastDay}
            step={1}
            disabled={disabled}
          />
          <CheckboxField
            label="Monthly expiration (third Friday)"
            about="Opens the first monthly expiration at least this many days away, rather than the nearest weekly."
            checked={draft.monthly}
            onChange={(monthly) => onChange({ monthly })}
            disabled={disabled}
          />
        </div>
      </div>
    </div>
  );
}

/** A checkbox with its label, a line saying what it does (read with it) when given, and what goes under it. */
function CheckboxField({
  label,
  about,
  checked,
  onChange,
  disabled,
  className,
  children,
}: {
  label: string;
  about?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <label className="inline-flex w-fit cursor-pointer items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          className="size-4 rounded border-input accent-primary"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={about ? `${id}-about` : undefined}
          disabled={disabled}
        />
        {label}
      </label>
      {about ? (
        <p id={`${id}-about`} className="text-[0.8rem] text-muted-foreground">
          {about}
        </p>
      ) : null}
      {children}
    </div>
  );
}

/** How a trade closes: the target and the stop on the premium, and an optional time limit. */
export function ExitsFields({ draft, language, onChange, messages, disabled }: Props) {
  const id = useId();
  const [firstDay, lastDay] = language.ranges.days;
  const [targetLow, targetHigh] = language.ranges.targetGain.map(percentText);
  const [stopLow, stopHigh] = language.ranges.stopLoss.map(percentText);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <NumberField
        id={`${id}-target`}
        label="Target gain"
        unit="%"
        value={draft.targetGain}
        onChange={(targetGain) => onChange({ targetGain })}
        error={messages.targetGain}
        hint={`Closed when the premium is up this much (${targetLow}% to ${targetHigh}%).`}
        min={Number(targetLow)}
        max={Number(targetHigh)}
        step={1}
        disabled={disabled}
      />
      <NumberField
        id={`${id}-stop`}
        label="Stop loss"
        unit="%"
        value={draft.stopLoss}
        onChange={(stopLoss) => onChange({ stopLoss })}
        error={messages.stopLoss}
        hint={`Closed when the premium is down this much (${stopLow}% to ${stopHigh}%).`}
        min={Number(stopLow)}
        max={Number(stopHigh)}
        step={1}
        disabled={disabled}
      />
      <CheckboxField
        label="Close after a number of days"
        checked={draft.closeAfter}
        onChange={(closeAfter) => onChange({ closeAfter })}
        disabled={disabled}
        className="sm:col-span-2 lg:col-span-1"
      >
        <div className="flex items-center gap-2">
          <Label htmlFor={`${id}-max-days`} className="sr-only">
            Close after (days)
          </Label>
          <Input
            id={`${id}-max-days`}
            type="number"
            inputMode="numeric"
            min={firstDay}
            max={lastDay}
            step={1}
            value={draft.closeAfter ? draft.maxDays : ""}
            placeholder="—"
            onChange={(e) => onChange({ maxDays: e.target.value })}
            aria-invalid={Boolean(messages.maxDays) || undefined}
            aria-describedby={`${id}-max-days-message`}
            disabled={disabled || !draft.closeAfter}
            className="w-28 tabular"
          />
          <span className="text-sm text-muted-foreground">days</span>
        </div>
        <p
          id={`${id}-max-days-message`}
          className={cn("text-[0.8rem]", messages.maxDays ? "font-medium text-destructive-strong" : "text-muted-foreground")}
        >
          {messages.maxDays ??
            (draft.closeAfter
              ? `Closed at the first close this many calendar days after entry (${firstDay} to ${lastDay}), if neither was reached.`
              : "Held to expiry unless the target or the stop is reached.")}
        </p>
      </CheckboxField>
    </div>
  );
}

/**
 * What the model filter's helper says: what a custom AI strategy is, and why the model's figure is
 * a score out of 100 and not a chance (docs/decisions.md §20).
 */
export const MODEL_FILTER_TEXT =
  "A custom AI strategy: a setup becomes a signal only when the predictive model scores it at least this high. The model is calibrated on the house strategies' signals, so on your rule's setups its score is an estimate, shown out of 100 rather than as a chance. While no model ships, it issues nothing.";

/**
 * The model filter (`minProbability`): unchecked, the rule alone decides and the document has
 * no minimum; checked, the least model score out of 100, a whole number (60 the first time; the
 * document holds the fraction, 0.6).
 */
export function ModelFilterField({ draft, onChange, messages, disabled }: Omit<Props, "language">) {
  const id = useId();
  const [low, high] = MIN_PROBABILITY_RANGE;
  const error = messages.minProbability;
  const check = (modelFilter: boolean) =>
    onChange(
      modelFilter && draft.minProbability.trim() === "" ? { modelFilter, minProbability: DEFAULT_MIN_PROBABILITY } : { modelFilter },
    );
  return (
    <div className="grid gap-4">
      <CheckboxField
        label="Require a minimum model score"
        about={MODEL_FILTER_TEXT}
        checked={draft.modelFilter}
        onChange={check}
        disabled={disabled}
      >
        {!draft.modelFilter && error ? (
          <p role="alert" className="text-[0.8rem] font-medium text-destructive-strong">
            {error}
          </p>
        ) : null}
      </CheckboxField>
      {draft.modelFilter ? (
        <NumberField
          id={`${id}-min-probability`}
          label={`Minimum model score (${low}–${high})`}
          value={draft.minProbability}
          onChange={(minProbability) => onChange({ minProbability })}
          error={error}
          hint={`Out of 100, a whole number from ${low} to ${high}. Backtests run the rule alone, without it.`}
          min={low}
          max={high}
          step={1}
          disabled={disabled}
        />
      ) : null}
    </div>
  );
}
