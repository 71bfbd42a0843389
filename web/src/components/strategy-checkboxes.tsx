import type { Ref } from "react";
import { STRATEGIES, type Strategy } from "@/lib/api/enums";
import { toggleStrategy } from "@/lib/investment-sizes";
import { cn } from "@/lib/utils";

type StrategyCheckboxesProps = {
  /** The id of the message under the boxes (the error, else `hint`). */
  messageId: string;
  name: string;
  value: readonly Strategy[];
  onChange: (strategies: Strategy[]) => void;
  onBlur: () => void;
  /** Given to the first box, so a form can focus the group. */
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  /** Shown under the boxes when there is no error. */
  hint: string;
  legendClassName?: string;
};

/**
 * The preferred strategies as one checkbox each, in the canonical order, with the error or a
 * hint under them: the one group every form that sets an account's strategies shows
 * (Investment Preferences, the trading accounts' form).
 */
export function StrategyCheckboxes({
  messageId,
  name,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  hint,
  legendClassName,
}: StrategyCheckboxesProps) {
  return (
    <fieldset className="min-w-0" aria-describedby={messageId}>
      <legend className={cn("mb-3 text-sm font-medium", legendClassName)}>Preferred strategies</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {STRATEGIES.map((strategy, index) => (
          <label
            key={strategy}
            className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2.5 text-sm transition-colors hover:bg-accent/60 has-checked:border-primary/60"
          >
            <input
              ref={index === 0 ? inputRef : undefined}
              type="checkbox"
              name={name}
              value={strategy}
              className="size-4 shrink-0 rounded border-input accent-primary"
              checked={value.includes(strategy)}
              aria-invalid={error ? true : undefined}
              onChange={() => onChange(toggleStrategy(value, strategy))}
              onBlur={onBlur}
            />
            {strategy}
          </label>
        ))}
      </div>
      {error ? (
        <p id={messageId} className="mt-2 text-[0.8rem] font-medium text-destructive-strong">
          {error}
        </p>
      ) : (
        <p id={messageId} className="mt-2 text-[0.8rem] text-muted-foreground">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
