import { SearchIcon } from "lucide-react";
import { useId } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import {
  cleanSymbol,
  type FilterState,
  maxCostOptions,
  RISK_OPTIONS,
  STATUS_OPTIONS,
  STRATEGY_OPTIONS,
  TYPE_OPTIONS,
} from "../lib/filters";

type SelectKey = Exclude<keyof FilterState, "symbol">;

type Select = { key: SelectKey; label: string; options: readonly { value: string; label: string }[] };

/** The selects; the cost bands are labelled in the display currency of the moment. */
const selects = (): Select[] => [
  { key: "strategy", label: "Strategy", options: STRATEGY_OPTIONS },
  { key: "signalType", label: "Type", options: TYPE_OPTIONS },
  { key: "status", label: "Status", options: STATUS_OPTIONS },
  { key: "maxCost", label: "Cost per contract", options: maxCostOptions() },
  { key: "riskLevel", label: "Risk level", options: RISK_OPTIONS },
];

/** Symbol text and the five selects; "All" options are never sent to the server. */
export function FilterBar({ value, onChange }: { value: FilterState; onChange: (next: FilterState) => void }) {
  const id = useId();
  return (
    <div role="search" aria-label="Filter signals" className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
      <div className="col-span-2 grid gap-1.5 sm:col-span-1">
        <Label htmlFor={`${id}-symbol`} className="text-xs text-muted-foreground">
          Symbol
        </Label>
        <div className="relative">
          <SearchIcon aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id={`${id}-symbol`}
            value={value.symbol}
            onChange={(e) => onChange({ ...value, symbol: cleanSymbol(e.target.value) })}
            placeholder="e.g. AAPL"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="pl-9"
          />
        </div>
      </div>
      {selects().map((select) => (
        <div key={select.key} className="grid min-w-0 gap-1.5">
          <Label htmlFor={`${id}-${select.key}`} className="text-xs text-muted-foreground">
            {select.label}
          </Label>
          <NativeSelect
            id={`${id}-${select.key}`}
            value={value[select.key]}
            onChange={(e) => onChange({ ...value, [select.key]: e.target.value })}
          >
            {select.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </div>
      ))}
    </div>
  );
}
