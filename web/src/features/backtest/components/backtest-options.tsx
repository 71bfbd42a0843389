import { useId } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { STRATEGIES } from "@/lib/api/enums";
import { todayIso } from "@/lib/calendar";
import type { BacktestOptions } from "../lib/options";

/** The optional inputs of a run: date range, symbols and strategies. Empty means "all". */
export function BacktestOptionsFields({
  options,
  onChange,
  disabled = false,
}: {
  options: BacktestOptions;
  onChange: (options: BacktestOptions) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const today = todayIso();
  const toggleStrategy = (strategy: string, checked: boolean) => {
    const next = checked ? [...options.strategies, strategy] : options.strategies.filter((s) => s !== strategy);
    onChange({ ...options, strategies: STRATEGIES.filter((s) => next.includes(s)) });
  };
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-start`}>Start Date</Label>
          <Input
            id={`${id}-start`}
            type="date"
            value={options.startDate}
            max={options.endDate || today}
            onChange={(e) => onChange({ ...options, startDate: e.target.value })}
            disabled={disabled}
          />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-end`}>End Date</Label>
          <Input
            id={`${id}-end`}
            type="date"
            value={options.endDate}
            min={options.startDate || undefined}
            max={today}
            onChange={(e) => onChange({ ...options, endDate: e.target.value })}
            disabled={disabled}
          />
        </div>
        <div className="grid content-start gap-2 sm:col-span-2 lg:col-span-1">
          <Label htmlFor={`${id}-symbols`}>Symbols</Label>
          <Input
            id={`${id}-symbols`}
            value={options.symbols}
            placeholder="All tracked symbols"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={`${id}-symbols-hint`}
            onChange={(e) => onChange({ ...options, symbols: e.target.value.toUpperCase() })}
            disabled={disabled}
          />
          <p id={`${id}-symbols-hint`} className="text-[0.8rem] text-muted-foreground">
            Separated by commas, e.g. AAPL, MSFT.
          </p>
        </div>
      </div>
      <fieldset className="grid gap-2" disabled={disabled}>
        <legend className="mb-2 text-sm font-medium">Strategies</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {STRATEGIES.map((strategy) => (
            <label key={strategy} className="inline-flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 rounded border-input accent-primary"
                checked={options.strategies.includes(strategy)}
                onChange={(e) => toggleStrategy(strategy, e.target.checked)}
              />
              {strategy}
            </label>
          ))}
        </div>
        <p className="text-[0.8rem] text-muted-foreground">None ticked tests every strategy.</p>
      </fieldset>
    </div>
  );
}
