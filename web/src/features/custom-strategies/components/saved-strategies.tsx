import { BookmarkIcon, Trash2Icon } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { EmptyState } from "@/components/empty-state";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { CustomStrategyView } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { cn } from "@/lib/utils";
import { useCustomStrategies, useDeleteCustomStrategy } from "../api/custom-strategies";
import { exitsText, strikeText } from "../lib/describe";

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

function StrategyItem({
  strategy,
  selected,
  onSelect,
  onDelete,
}: {
  strategy: CustomStrategyView;
  selected: boolean;
  onSelect?: () => void;
  onDelete: () => void;
}) {
  const doc = strategy.document;
  const details = (
    <>
      <span className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium">{strategy.name}</span>
        <OptionTypeBadge type={doc.opens} />
      </span>
      <span className="block text-xs text-muted-foreground">
        {strikeText(doc.strike)}, {doc.minDays}+ days · {exitsText(doc)}
      </span>
      <span className="block text-xs text-muted-foreground">Updated {dayOf(strategy.updatedAt)}</span>
    </>
  );
  return (
    <li
      className={cn("flex items-stretch gap-1 rounded-lg border bg-card", selected && "border-primary ring-1 ring-primary")}
      data-testid="saved-strategy"
    >
      {onSelect ? (
        <button
          type="button"
          onClick={onSelect}
          aria-current={selected ? "true" : undefined}
          className="grid min-w-0 flex-1 gap-0.5 rounded-l-lg px-3 py-2 text-left text-sm outline-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring"
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
    </li>
  );
}

/**
 * The user's saved strategies: name, what each opens and how it closes, when it was last
 * changed; select one to edit it (`onSelect`; without it the list is read-only), or delete it
 * after a confirmation. `onDeleted` hears of a deletion (the page forgets a strategy it was editing).
 * `maxStrategies` (the rule language's) says how many more may be saved.
 */
export function SavedStrategies({
  selectedId,
  maxStrategies,
  onSelect,
  onDeleted,
  action,
  className,
}: {
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
