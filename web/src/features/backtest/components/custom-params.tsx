import { SlidersHorizontalIcon } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/button";
import { LockedFeature } from "@/components/locked-feature";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import type { ParamsRequest } from "@/lib/api/models";
import { changedParams, DEFAULT_PARAM_VALUES, PARAM_GROUPS, PARAM_KEYS, type ParamErrors, type ParamValues, PARAMS } from "../lib/params";

const range = (key: keyof typeof PARAMS) => `${PARAMS[key].min}–${PARAMS[key].max}`;

/** Free and Pro: what the Premium option does, locked, with the way to it. */
function Locked() {
  return (
    <LockedFeature plan="Premium" title="Custom strategy parameters" testId="custom-params-locked">
      Backtest the strategies with your own thresholds: RSI zones, Bollinger width, breakout look-back and volume, volatility thresholds,
      ATR targets and stops, and expiries.
    </LockedFeature>
  );
}

/**
 * Premium's custom strategy parameters (BacktestRequest.params): off by default (the engine's
 * defaults); on, every parameter with its default, range and message under the input. `allowed`
 * is the page's Premium rule; without it (Free and Pro) it is shown locked with a link to the plans.
 */
export function CustomParamsFields({
  allowed,
  enabled,
  onEnabledChange,
  values,
  onChange,
  errors,
  disabled = false,
}: {
  allowed: boolean;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  values: ParamValues;
  onChange: (values: ParamValues) => void;
  errors: ParamErrors;
  disabled?: boolean;
}) {
  const id = useId();
  const sectionRef = useRef<HTMLElement>(null);
  // A run refused for a parameter (here or by the server): the first one refused gets the focus.
  useEffect(() => {
    if (Object.keys(errors).length > 0) sectionRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }, [errors]);
  if (!allowed) return <Locked />;
  return (
    <section ref={sectionRef} aria-labelledby={`${id}-title`} className="grid gap-4 rounded-lg border p-4" data-testid="custom-params">
      {/* Wraps: at phone widths the switch goes under the title instead of pushing out of the box. */}
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3" data-testid="custom-params-header">
        <div className="grid max-w-prose min-w-0 flex-[1_1_16rem] gap-1">
          <h3 id={`${id}-title`} className="inline-flex items-center gap-2 text-sm font-semibold">
            <SlidersHorizontalIcon className="size-4 text-primary" aria-hidden />
            Custom strategy parameters
          </h3>
          <p id={`${id}-description`} className="text-sm text-muted-foreground">
            Replay the strategies with your own thresholds. Live signals keep the defaults.
          </p>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <Label htmlFor={`${id}-enabled`} className="text-sm">
            Use custom parameters
          </Label>
          <Switch
            id={`${id}-enabled`}
            checked={enabled}
            onCheckedChange={onEnabledChange}
            disabled={disabled}
            aria-describedby={`${id}-description`}
          />
        </div>
      </div>
      {enabled ? (
        <div className="grid gap-5">
          {PARAM_GROUPS.map((group) => (
            <fieldset key={group} className="grid gap-3" disabled={disabled}>
              <legend className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{group}</legend>
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {PARAM_KEYS.filter((key) => PARAMS[key].group === group).map((key) => {
                  const spec = PARAMS[key];
                  const inputId = `${id}-${key}`;
                  const error = errors[key];
                  return (
                    <div key={key} className="grid content-start gap-1.5">
                      <Label htmlFor={inputId}>{spec.label}</Label>
                      <Input
                        id={inputId}
                        type="number"
                        inputMode={spec.integer ? "numeric" : "decimal"}
                        min={spec.min}
                        max={spec.max}
                        step={spec.step}
                        value={values[key]}
                        onChange={(e) => onChange({ ...values, [key]: e.target.value })}
                        aria-invalid={Boolean(error)}
                        aria-describedby={`${inputId}-message`}
                        className="tabular"
                      />
                      <p
                        id={`${inputId}-message`}
                        className={error ? "text-[0.8rem] font-medium text-destructive-strong" : "text-[0.8rem] text-muted-foreground"}
                      >
                        {error ?? `${spec.hint} Default ${spec.defaultValue}, ${range(key)}.`}
                      </p>
                    </div>
                  );
                })}
              </div>
            </fieldset>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => onChange(DEFAULT_PARAM_VALUES)} disabled={disabled}>
              Reset parameters to defaults
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** A result's label: the parameters its run used (those that differ from the defaults), or the defaults. */
export function ParamsUsed({ params }: { params: ParamsRequest | null | undefined }) {
  const changed = changedParams(params);
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="params-used">
      <Badge variant={params ? "soft" : "outline"}>{params ? "Custom parameters" : "Default parameters"}</Badge>
      {params ? (
        changed.length > 0 ? (
          <span>
            {changed.map((c) => `${c.label}: ${c.value}`).join(" · ")}
            <span className="text-muted-foreground">; the others at their defaults.</span>
          </span>
        ) : (
          <span className="text-muted-foreground">All at their default values.</span>
        )
      ) : (
        <span className="text-muted-foreground">The strategies as the live engine runs them.</span>
      )}
    </p>
  );
}
