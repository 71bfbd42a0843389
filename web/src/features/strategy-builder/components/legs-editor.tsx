import { PlusIcon, Trash2Icon } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { INSTRUMENTS, SIDES } from "@/lib/api/enums";
import type { Instrument, LegView, Side } from "@/lib/api/models";
import { todayIso } from "@/lib/calendar";
import { formatContractPrice } from "@/lib/format";
import { cn } from "@/lib/utils";
import { type LegDraft, type LegErrors, type LegField, MAX_LEGS, newDraft } from "../lib/builder";

const INSTRUMENT_LABELS: Record<Instrument, string> = { call: "Call", put: "Put", stock: "Stock" };
const SIDE_LABELS: Record<Side, string> = { long: "Long (buy)", short: "Short (sell)" };

function Field({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      {children}
      {error ? (
        <p id={`${id}-message`} className="text-[0.8rem] font-medium text-destructive-strong">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-message`} className="text-[0.8rem] text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** One leg's inputs, in a fieldset named "Leg N". */
function LegRow({
  index,
  leg,
  errors,
  analysed,
  onChange,
  onRemove,
  disabled,
}: {
  index: number;
  leg: LegDraft;
  errors: LegErrors;
  analysed: LegView | undefined;
  onChange: (leg: LegDraft) => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const id = useId();
  const set = (field: LegField, value: string) => onChange({ ...leg, [field]: value });
  const input = (field: LegField) => ({
    id: `${id}-${field}`,
    "aria-invalid": Boolean(errors[field]) || undefined,
    "aria-describedby": errors[field] || field === "entryPrice" || field === "volatility" ? `${id}-${field}-message` : undefined,
    disabled,
  });
  const option = leg.instrument !== "stock";
  const modelPrice = analysed ? `Model ${formatContractPrice(analysed.modelPrice)}` : undefined;
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3" data-testid="leg">
      <legend className="px-1 text-sm font-semibold">Leg {index + 1}</legend>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
        <Field id={`${id}-instrument`} label="Instrument" error={errors.instrument}>
          <NativeSelect {...input("instrument")} value={leg.instrument} onChange={(e) => set("instrument", e.target.value)}>
            {INSTRUMENTS.map((i) => (
              <option key={i} value={i}>
                {INSTRUMENT_LABELS[i]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${id}-side`} label="Side" error={errors.side}>
          <NativeSelect {...input("side")} value={leg.side} onChange={(e) => set("side", e.target.value)}>
            {SIDES.map((s) => (
              <option key={s} value={s}>
                {SIDE_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={`${id}-quantity`} label={option ? "Contracts" : "Shares"} error={errors.quantity}>
          <Input
            {...input("quantity")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={leg.quantity}
            onChange={(e) => set("quantity", e.target.value)}
            className="tabular"
          />
        </Field>
        {option ? (
          <>
            <Field id={`${id}-strike`} label="Strike ($)" error={errors.strike}>
              <Input
                {...input("strike")}
                type="number"
                inputMode="decimal"
                min={0.01}
                step={0.01}
                value={leg.strike}
                onChange={(e) => set("strike", e.target.value)}
                className="tabular"
              />
            </Field>
            <Field id={`${id}-expirationDate`} label="Expiration" error={errors.expirationDate}>
              <Input
                {...input("expirationDate")}
                type="date"
                min={todayIso()}
                value={leg.expirationDate}
                onChange={(e) => set("expirationDate", e.target.value)}
              />
            </Field>
          </>
        ) : null}
        <Field id={`${id}-entryPrice`} label="Entry price ($/share)" error={errors.entryPrice} hint={modelPrice ?? "Model price if empty"}>
          <Input
            {...input("entryPrice")}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="Model"
            value={leg.entryPrice}
            onChange={(e) => set("entryPrice", e.target.value)}
            className="tabular"
          />
        </Field>
        {option ? (
          <Field id={`${id}-volatility`} label="Implied vol (%)" error={errors.volatility} hint="Stock's estimate if empty">
            <Input
              {...input("volatility")}
              type="number"
              inputMode="decimal"
              min={1}
              max={500}
              step={0.1}
              placeholder="Estimate"
              value={leg.volatility}
              onChange={(e) => set("volatility", e.target.value)}
              className="tabular"
            />
          </Field>
        ) : null}
      </div>
      <div>
        <Button type="button" variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
          <Trash2Icon aria-hidden />
          Remove leg {index + 1}
        </Button>
      </div>
    </fieldset>
  );
}

/** The position's legs: add (up to eight, by hand or with `actions`), edit, remove. */
export function LegsEditor({
  legs,
  errors,
  analysed,
  onChange,
  disabled = false,
  actions,
}: {
  legs: LegDraft[];
  errors: LegErrors[];
  analysed: LegView[] | undefined;
  onChange: (legs: LegDraft[]) => void;
  disabled?: boolean;
  /** More ways to add a leg, beside "Add leg" (picking from the chain). */
  actions?: React.ReactNode;
}) {
  const full = legs.length >= MAX_LEGS;
  return (
    <div className="grid gap-3">
      {legs.map((leg, i) => (
        <LegRow
          key={leg.key}
          index={i}
          leg={leg}
          errors={errors[i] ?? {}}
          analysed={analysed?.length === legs.length ? analysed[i] : undefined}
          onChange={(next) => onChange(legs.map((l, j) => (j === i ? next : l)))}
          onRemove={() => onChange(legs.filter((_, j) => j !== i))}
          disabled={disabled}
        />
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...legs, newDraft(legs)])} disabled={disabled || full}>
          <PlusIcon aria-hidden />
          Add leg
        </Button>
        {actions}
        <p className="text-[0.8rem] text-muted-foreground">
          {legs.length} of {MAX_LEGS} legs{full ? " (the most a position may have)" : ""}.
        </p>
      </div>
    </div>
  );
}
