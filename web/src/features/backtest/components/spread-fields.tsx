import { Layers2Icon } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { LockedFeature } from "@/components/locked-feature";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { SPREAD_WIDTH, spreadWidthLabel } from "../lib/spread";

/** Free and Pro: what the Premium option does, locked, with the way to it. */
function Locked() {
  return (
    <LockedFeature plan="Premium" title="Vertical spreads" testId="spread-fields-locked">
      Backtest calls and puts as vertical debit spreads: each long contract paired with a short one further out of the money.
    </LockedFeature>
  );
}

/**
 * Premium's vertical spreads (BacktestRequest.spreadWidth): off by default (each proposal traded
 * as proposed); on, the width in percent with its range, or the reason it is refused, under the
 * input. `allowed` is the page's Premium rule; without it the switch is shown locked.
 */
export function SpreadFields({
  allowed,
  enabled,
  onEnabledChange,
  width,
  onWidthChange,
  error,
  disabled = false,
}: {
  allowed: boolean;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  /** Percent, as typed. */
  width: string;
  onWidthChange: (width: string) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // A width refused (here or by the server) gets the focus.
  useEffect(() => {
    if (error) inputRef.current?.focus();
  }, [error]);
  if (!allowed) return <Locked />;
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-4 rounded-lg border p-4" data-testid="spread-fields">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
        <div className="grid max-w-prose min-w-0 flex-[1_1_16rem] gap-1">
          <h3 id={`${id}-title`} className="inline-flex items-center gap-2 text-sm font-semibold">
            <Layers2Icon className="size-4 text-primary" aria-hidden />
            Vertical spreads
          </h3>
          <p id={`${id}-description`} className="text-sm text-muted-foreground">
            Each CALL or PUT is bought with a short contract further out of the money, for a debit. Straddles are traded as proposed.
          </p>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <Label htmlFor={`${id}-enabled`} className="text-sm">
            Trade calls and puts as vertical spreads
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
        <div className="grid max-w-xs content-start gap-1.5">
          <Label htmlFor={`${id}-width`}>Spread width (%)</Label>
          <Input
            ref={inputRef}
            id={`${id}-width`}
            type="number"
            inputMode="decimal"
            min={SPREAD_WIDTH.minPercent}
            max={SPREAD_WIDTH.maxPercent}
            step={SPREAD_WIDTH.step}
            value={width}
            onChange={(e) => onWidthChange(e.target.value)}
            disabled={disabled}
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-width-message`}
            className="tabular"
          />
          <p
            id={`${id}-width-message`}
            className={error ? "text-[0.8rem] font-medium text-destructive-strong" : "text-[0.8rem] text-muted-foreground"}
          >
            {error ??
              `The short strike is this share of the long strike further out of the money. Default ${SPREAD_WIDTH.defaultPercent}%, ${SPREAD_WIDTH.minPercent}–${SPREAD_WIDTH.maxPercent}%.`}
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** A result's label when its run traded spreads: "Vertical spreads, 5% wide". Nothing otherwise. */
export function SpreadUsed({ spreadWidth }: { spreadWidth: number | null | undefined }) {
  if (spreadWidth == null) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="spread-used">
      <Badge variant="soft">Vertical spreads, {spreadWidthLabel(spreadWidth)} wide</Badge>
      <span className="text-muted-foreground">Calls and puts traded as debit spreads; prices are net premiums per share.</span>
    </p>
  );
}
