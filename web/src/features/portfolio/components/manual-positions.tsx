import { EyeIcon, NotebookPenIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import type * as React from "react";
import { EmptyState } from "@/components/empty-state";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { ManualPosition } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import { formatContractPrice, formatMoney, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useDeleteManualPosition } from "../api/delete-manual-position";
import { useManualPositions } from "../api/get-manual-positions";
import { contracts, portfolioSignedPercent } from "../lib/format";
import { AddPositionDialog } from "./add-position-dialog";
import { type DetailTarget, PositionDetailDialog } from "./position-detail-dialog";
import { ManualStatusBadge } from "./status-badges";

/** Manual position cards per page: 12 fills whole rows of the 1-, 2- and 3-column grids. */
export const MANUAL_PAGE_SIZE = 12;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words tabular">{children}</dd>
    </div>
  );
}

function ManualPositionCard({
  position,
  onDetails,
  onDelete,
}: {
  position: ManualPosition;
  onDetails: (p: ManualPosition) => void;
  onDelete: (p: ManualPosition) => void;
}) {
  const sign = SIGN_TEXT_CLASS[signOf(position.pnl)];
  const muted = position.status !== "open";
  return (
    <Card
      role="article"
      aria-label={`${position.symbol} ${position.type} manual position`}
      data-testid="manual-position-card"
      className={cn("flex min-w-0 flex-col gap-4 p-4 sm:p-5", muted && "bg-muted/40")}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-lg leading-none font-semibold tracking-tight">{position.symbol}</h3>
            <OptionTypeBadge type={position.type} />
          </div>
          <p className="mt-1 truncate text-sm text-muted-foreground">{position.companyName}</p>
        </div>
        <ManualStatusBadge status={position.status} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 border-t pt-4">
        <Fact label="Strike">{formatContractPrice(position.strikePrice)}</Fact>
        <Fact label="Expires">{formatShortDate(position.expirationDate)}</Fact>
        <Fact label="Quantity">{contracts(position.quantity)}</Fact>
        <Fact label="Entry / Now">
          {formatContractPrice(position.entryPrice)} <span className="text-muted-foreground">→</span>{" "}
          {formatContractPrice(position.currentPrice)}
        </Fact>
        <Fact label="P&L">
          <span className={sign} data-testid="manual-pnl">
            {formatMoney(position.pnl, { signed: true })} ({portfolioSignedPercent(position.pnlPercent)})
          </span>
        </Fact>
        <Fact label="Underlying">{formatContractPrice(position.underlyingPrice)}</Fact>
      </dl>
      <div className="mt-auto flex gap-2">
        <Button variant="outline" size="sm" className="flex-1" onClick={() => onDetails(position)}>
          <EyeIcon aria-hidden />
          Details<span className="sr-only"> of {position.symbol} position</span>
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onDelete(position)} aria-label={`Delete ${position.symbol} position`}>
          <Trash2Icon aria-hidden className="text-destructive-strong" />
        </Button>
      </div>
    </Card>
  );
}

/** Asks before a permanent delete; toasts "Position deleted successfully" or "Failed to delete position". */
function DeletePositionDialog({ position, onOpenChange }: { position: ManualPosition | null; onOpenChange: (open: boolean) => void }) {
  const mutation = useDeleteManualPosition();
  const onConfirm = async () => {
    if (!position) return;
    try {
      await mutation.mutateAsync(position.id);
      toast({ title: "Success", description: "Position deleted successfully" });
      onOpenChange(false);
    } catch {
      toast({ variant: "destructive", title: "Error", description: "Failed to delete position" });
    }
  };
  return (
    <Dialog open={position != null} onOpenChange={onOpenChange}>
      {position ? (
        <DialogContent className="max-w-md" role="alertdialog">
          <DialogHeader>
            <DialogTitle>Delete this position?</DialogTitle>
            <DialogDescription>
              {position.symbol} {position.type} {formatContractPrice(position.strikePrice)}, expiring{" "}
              {formatShortDate(position.expirationDate)}. It is removed from your portfolio for good.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void onConfirm()} disabled={mutation.isPending}>
              {mutation.isPending ? "Deleting..." : "Delete"}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/**
 * "Your Manual Positions": the user's own contracts as cards, each valued now, with
 * details and delete; the Add Position dialog; 'No Manual Positions' with 'Add Your First
 * Position' when there are none.
 */
export function ManualPositions() {
  const query = useManualPositions();
  const positions = query.data ?? [];
  const pager = usePagination(positions.length, MANUAL_PAGE_SIZE);
  const [adding, setAdding] = useState(false);
  const [target, setTarget] = useState<DetailTarget | null>(null);
  const [detailOpen, setDetailOpen] = useState(false);
  const [deleting, setDeleting] = useState<ManualPosition | null>(null);

  const openDetails = (p: ManualPosition) => {
    setTarget({ kind: "manual", id: p.id, symbol: p.symbol, position: p });
    setDetailOpen(true);
  };

  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
        <div className="grid gap-1.5">
          <h2 className="text-base leading-tight font-semibold">Your Manual Positions</h2>
          <CardDescription>Option contracts you entered yourself, valued at today&apos;s prices.</CardDescription>
        </div>
        <Button size="sm" onClick={() => setAdding(true)}>
          <PlusIcon aria-hidden />
          Add Position
        </Button>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        <QueryState
          query={query}
          loadingLabel="Loading manual positions"
          skeleton={<SkeletonRows count={3} className="h-52" />}
          skeletonClassName="sm:grid-cols-2 xl:grid-cols-3"
          errorTitle="Failed to fetch positions"
          staleData="show-with-error"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={NotebookPenIcon}
              title="No Manual Positions"
              description="Add the option contracts you hold elsewhere to see them valued and analysed next to your automated positions."
              action={
                <Button onClick={() => setAdding(true)}>
                  <PlusIcon aria-hidden />
                  Add Your First Position
                </Button>
              }
              className="border-none bg-transparent py-10"
            />
          }
        >
          {() => (
            <>
              <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
                {pager.slice(positions).map((p) => (
                  <ManualPositionCard key={p.id} position={p} onDetails={openDetails} onDelete={setDeleting} />
                ))}
              </div>
              <Pagination pager={pager} noun="positions" label="Manual positions pages" />
            </>
          )}
        </QueryState>
      </CardContent>
      <AddPositionDialog open={adding} onOpenChange={setAdding} />
      <PositionDetailDialog target={target} open={detailOpen} onOpenChange={setDetailOpen} />
      <DeletePositionDialog
        position={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </Card>
  );
}
