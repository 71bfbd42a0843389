import { PlusIcon } from "lucide-react";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api/client";
import { manualPositionFromSignal } from "@/lib/api/manual-positions";
import type { ManualPosition, PositionDetail } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useCreateManualPosition } from "../api/create-manual-position";
import { useManualPosition } from "../api/get-manual-position";
import { usePortfolioPosition } from "../api/get-portfolio-position";
import { PositionDetailBody } from "./position-detail";
import { ManualStatusBadge, PositionStatusBadge } from "./status-badges";

/** Which position the dialog shows. `symbol` titles it while the details load. */
export type DetailTarget =
  { kind: "automated"; id: string; symbol: string } | { kind: "manual"; id: string; symbol: string; position?: ManualPosition };

/** The reasoning of a position copied from an automated one starts with "Added from automated signal". */
export const FROM_AUTOMATED_PREFIX = "Added from automated signal";

/** Copies an automated position's contract into the manual positions ("Add to Portfolio"). */
function AddToPortfolioButton({ detail }: { detail: PositionDetail }) {
  const mutation = useCreateManualPosition();
  const onClick = async () => {
    const s = detail.signal;
    const body = manualPositionFromSignal(
      {
        symbol: s.symbol,
        companyName: s.companyName,
        type: s.type,
        strikePrice: s.strikePrice,
        expirationDate: s.expirationDate,
        strategy: s.strategy,
        confidence: s.confidence,
        entryPrice: detail.entryPrice,
        currentOptionPrice: s.currentOptionPrice,
        currentPrice: s.currentPrice,
      },
      FROM_AUTOMATED_PREFIX,
    );
    try {
      await mutation.mutateAsync(body);
      toast({ title: "Position Added", description: "Signal has been added to your manual portfolio" });
    } catch {
      toast({ variant: "destructive", title: "Error", description: "Failed to add position to portfolio" });
    }
  };
  return (
    <Button variant="outline" onClick={() => void onClick()} disabled={mutation.isPending}>
      <PlusIcon aria-hidden />
      {mutation.isPending ? "Adding..." : "Add to Portfolio"}
    </Button>
  );
}

/** The dialog's placeholder: summary cards, the tabs and a chart. */
function DetailSkeleton() {
  return (
    <>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <SkeletonRows count={4} className="h-20" />
      </div>
      <Skeleton className="h-9 w-72 max-w-full" />
      <Skeleton className="h-48 w-full" />
    </>
  );
}

/**
 * One position, automated (GET /api/portfolio/position/{id}) or manual
 * (GET /api/manual-positions/{id}), loaded only while the dialog is open: summary cards,
 * the Details, Greeks, Risk and Performance tabs with the payoff chart, and for an automated
 * position an "Add to Portfolio" button that copies it into the manual positions.
 */
export function PositionDetailDialog({
  target,
  open,
  onOpenChange,
}: {
  target: DetailTarget | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = target?.id ?? "";
  const automated = usePortfolioPosition(id, open && target?.kind === "automated");
  const manual = useManualPosition(id, open && target?.kind === "manual");
  const query = target?.kind === "manual" ? manual : automated;
  const detail = query.data;
  const manualPosition = target?.kind === "manual" ? target.position : undefined;

  return (
    <Dialog open={open && target != null} onOpenChange={onOpenChange}>
      {target ? (
        <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-3xl gap-5 overflow-y-auto p-4 sm:p-6" data-testid="position-detail">
          <DialogHeader>
            <div className="flex flex-wrap items-center gap-2">
              <DialogTitle className="text-xl">{detail?.signal.symbol ?? target.symbol}</DialogTitle>
              {detail ? <OptionTypeBadge type={detail.signal.type} /> : null}
              {detail ? (
                target.kind === "manual" ? (
                  <ManualStatusBadge status={detail.status} />
                ) : (
                  <PositionStatusBadge status={detail.status} />
                )
              ) : null}
            </div>
            <DialogDescription>
              {detail ? `${detail.signal.companyName} · ` : ""}
              {target.kind === "manual" ? "Manual position" : "Automated position from a signal"}
            </DialogDescription>
          </DialogHeader>
          <QueryState
            query={query}
            loadingLabel="Loading position details"
            skeleton={<DetailSkeleton />}
            errorTitle="Failed to load position details"
            errorDetail={(error) => errorMessage(error, "Failed to fetch position details")}
            errorLayout="panel"
          >
            {(loaded) => <PositionDetailBody detail={loaded} manual={manualPosition} />}
          </QueryState>
          <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-4">
            {target.kind === "automated" && detail && !query.isError ? <AddToPortfolioButton detail={detail} /> : <span />}
            <DialogClose asChild>
              <Button variant="ghost">Close</Button>
            </DialogClose>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
