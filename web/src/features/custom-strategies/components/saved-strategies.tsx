import { BookmarkIcon, Loader2Icon, Trash2Icon } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { EmptyState } from "@/components/empty-state";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/lib/api/client";
import type { CustomStrategyView } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useCustomStrategies, useDeleteCustomStrategy, useSetCustomStrategyActive } from "../api/custom-strategies";
import { exitsText, expiryText, modelText, strikeText } from "../lib/describe";

function ListSkeleton() {
  return (
    <div className="grid gap-2">
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} className="h-14 w-full" />
      ))}
    </div>
  );
}

/** The date part of an instant, as the lists show dates ("Nov 28, 2026"). */
const dayOf = (instant: string) => formatShortDate(instant.slice(0, 10));

/** What the switch's helper says: what the strategy's live signals do now. */
function liveSignalsText(active: boolean, canSwitchOn: boolean): string {
  if (active) {
    return canSwitchOn
      ? "Signals from this rule appear in your Signals list, for you alone."
      : "On, but paused: live signals are part of Premium.";
  }
  return canSwitchOn
    ? "Off. When on, signals from this rule appear in your Signals list, for you alone."
    : "Live signals are part of Premium.";
}

/**
 * One switch of a saved strategy (PUT /api/strategies/custom/{id}/active): it shows what the
 * server answered, waits (disabled, with a spinner and "Saving…" for screen readers) while it
 * asks, and a refusal is said in a toast with the server's reason. Off, it switches on only
 * when not `locked`; on, it may always be switched off.
 */
function StrategySwitch({
  strategy,
  checked,
  locked,
  label,
  accessibleName,
  description,
  request,
  failure,
  className,
}: {
  strategy: CustomStrategyView;
  checked: boolean;
  locked: boolean;
  label: string;
  accessibleName: string;
  description: string;
  /** The request body for the switch turned to `on`. */
  request: (on: boolean) => { active: boolean; automate?: boolean };
  /** The toast's title when turning to `on` failed. */
  failure: (on: boolean) => string;
  className?: string;
}) {
  const id = useId();
  const toggle = useSetCustomStrategyActive();
  const onToggle = async (on: boolean) => {
    try {
      await toggle.mutateAsync({ id: strategy.id, ...request(on) });
    } catch (error) {
      toast({
        variant: "destructive",
        title: failure(on),
        description: errorMessage(error, `“${strategy.name}” could not be switched ${on ? "on" : "off"}. Try again.`),
      });
    }
  };
  const disabled = locked && !checked;
  return (
    <div className={cn("flex items-start gap-3 px-3", className)}>
      <Switch
        id={id}
        checked={checked}
        disabled={toggle.isPending || disabled}
        onCheckedChange={(on) => void onToggle(on)}
        aria-label={accessibleName}
        aria-describedby={`${id}-description`}
        aria-busy={toggle.isPending || undefined}
        className="mt-0.5"
      />
      <div className="grid min-w-0 gap-1">
        <Label
          htmlFor={id}
          className={cn("inline-flex items-center gap-1.5", disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer")}
        >
          {label}
          {toggle.isPending ? (
            <Loader2Icon className="size-3.5 animate-spin text-muted-foreground motion-reduce:animate-none" aria-hidden />
          ) : null}
        </Label>
        <span className="sr-only" aria-live="polite">
          {toggle.isPending ? "Saving…" : ""}
        </span>
        <p id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
    </div>
  );
}

/** What automating a strategy does. */
const AUTOMATE_TEXT = "your automation opens paper positions from its signals, sized by your investment preferences.";

/**
 * A strategy's switches: its live signals and, while those are on, whether the user's
 * automation opens paper positions from them (the same request, with `automate`). Either
 * switches on only with `canSwitchOn` (Premium).
 */
function StrategySwitches({ strategy, canSwitchOn }: { strategy: CustomStrategyView; canSwitchOn: boolean }) {
  return (
    <div className="border-t">
      <StrategySwitch
        strategy={strategy}
        checked={strategy.active}
        locked={!canSwitchOn}
        label="Live signals"
        accessibleName={`Live signals for ${strategy.name}`}
        description={liveSignalsText(strategy.active, canSwitchOn)}
        request={(active) => ({ active })}
        failure={(on) => (on ? "Live signals not switched on" : "Live signals not switched off")}
        className="py-2.5"
      />
      {strategy.active ? (
        <StrategySwitch
          strategy={strategy}
          checked={strategy.automate}
          locked={!canSwitchOn}
          label="Open positions automatically"
          accessibleName={`Open paper positions automatically for ${strategy.name}`}
          description={strategy.automate ? `${AUTOMATE_TEXT[0].toUpperCase()}${AUTOMATE_TEXT.slice(1)}` : `Off. When on, ${AUTOMATE_TEXT}`}
          request={(automate) => ({ active: true, automate })}
          failure={(on) => (on ? "Automation not switched on" : "Automation not switched off")}
          className="pb-2.5 pl-6"
        />
      ) : null}
    </div>
  );
}

function StrategyItem({
  strategy,
  selected,
  canSwitchOn,
  onSelect,
  onDelete,
}: {
  strategy: CustomStrategyView;
  selected: boolean;
  canSwitchOn: boolean;
  onSelect?: () => void;
  onDelete: () => void;
}) {
  const doc = strategy.document;
  const model = modelText(doc);
  const details = (
    <>
      <span className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium">{strategy.name}</span>
        <OptionTypeBadge type={doc.opens} />
      </span>
      <span className="block text-xs text-muted-foreground">
        {strikeText(doc.strike)}, {expiryText(doc)} · {exitsText(doc)}
        {model ? ` · ${model}` : null}
      </span>
      <span className="block text-xs text-muted-foreground">Updated {dayOf(strategy.updatedAt)}</span>
    </>
  );
  return (
    <li className={cn("rounded-lg border bg-card", selected && "border-primary ring-1 ring-primary")} data-testid="saved-strategy">
      <div className="flex items-stretch gap-1">
        {onSelect ? (
          <button
            type="button"
            onClick={onSelect}
            aria-current={selected ? "true" : undefined}
            className="grid min-w-0 flex-1 gap-0.5 rounded-tl-lg px-3 py-2 text-left text-sm outline-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="sr-only">Edit </span>
            {details}
          </button>
        ) : (
          <div className="grid min-w-0 flex-1 gap-0.5 px-3 py-2 text-sm">{details}</div>
        )}
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="m-1 self-center text-muted-foreground hover:text-destructive-strong"
          onClick={onDelete}
          aria-label={`Delete ${strategy.name}`}
        >
          <Trash2Icon aria-hidden />
        </Button>
      </div>
      <StrategySwitches strategy={strategy} canSwitchOn={canSwitchOn} />
    </li>
  );
}

/**
 * The user's saved strategies: name, what each opens and how it closes, when it was last
 * changed; select one to edit it (`onSelect`; without it the list is read-only), or delete it
 * after a confirmation. `onDeleted` hears of a deletion (the page forgets a strategy it was editing).
 * `maxStrategies` (the rule language's) says how many more may be saved. Each has a live
 * signals switch; `canSwitchOn` (Premium) lets one be switched on, and any plan switches one off.
 */
export function SavedStrategies({
  canSwitchOn,
  selectedId,
  maxStrategies,
  onSelect,
  onDeleted,
  action,
  className,
}: {
  canSwitchOn: boolean;
  selectedId?: string | null;
  maxStrategies?: number;
  onSelect?: (strategy: CustomStrategyView) => void;
  onDeleted?: (id: string) => void;
  /** Beside the title ("New strategy"). */
  action?: React.ReactNode;
  className?: string;
}) {
  const id = useId();
  const strategies = useCustomStrategies();
  const remove = useDeleteCustomStrategy();
  const [deleting, setDeleting] = useState<CustomStrategyView | null>(null);
  const count = strategies.data?.length ?? 0;
  return (
    <Card className={cn("min-w-0", className)} data-testid="saved-strategies">
      <CardHeader className="pb-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${id}-title`} className="text-base leading-tight font-semibold">
            Saved strategies
          </h2>
          {action}
        </div>
        <CardDescription>
          {strategies.data ? (maxStrategies ? `${count} of ${maxStrategies} kept.` : `${count} kept.`) : "Your own rules, kept by name."}
          {onSelect ? " Select one to edit it." : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={strategies}
          loadingLabel="Loading your saved strategies"
          skeleton={<ListSkeleton />}
          errorTitle="Failed to load your saved strategies"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={BookmarkIcon}
              title="No saved strategies"
              description={onSelect ? "Start from a template or a blank rule, then save it here." : "Strategies you save appear here."}
              className="py-8"
            />
          }
        >
          {(list) => (
            <ul className="grid max-h-[28rem] gap-2 overflow-y-auto p-0.5" aria-labelledby={`${id}-title`}>
              {list.map((strategy) => (
                <StrategyItem
                  key={strategy.id}
                  strategy={strategy}
                  selected={strategy.id === selectedId}
                  canSwitchOn={canSwitchOn}
                  onSelect={onSelect ? () => onSelect(strategy) : undefined}
                  onDelete={() => setDeleting(strategy)}
                />
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete this strategy?"
        description={deleting ? `“${deleting.name}” will be deleted for good.` : ""}
        confirmLabel="Delete strategy"
        pending={remove.isPending}
        remove={async () => {
          if (!deleting) return;
          const gone = deleting.id;
          await remove.mutateAsync(gone);
          onDeleted?.(gone);
        }}
        success={{ title: "Strategy deleted.", description: deleting ? `“${deleting.name}” is no longer kept.` : "" }}
        failure="The strategy could not be deleted. Try again."
      />
    </Card>
  );
}
