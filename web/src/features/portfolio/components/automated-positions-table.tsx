import { BotIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { OptionTypeBadge } from "@/components/option-type-badge";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { PortfolioPosition } from "@/lib/api/models";
import { formatContractPrice, formatCurrency, formatMoney, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { cn } from "@/lib/utils";
import { usePortfolioPositions } from "../api/get-portfolio-positions";
import { portfolioSignedPercent } from "../lib/format";
import { type DetailTarget, PositionDetailDialog } from "./position-detail-dialog";
import { PositionStatusBadge } from "./status-badges";

/** Positions per page: 10. */
export const POSITIONS_PAGE_SIZE = 10;

const HEADERS = [
  { label: "Symbol" },
  { label: "Company" },
  { label: "Type" },
  { label: "Strike", right: true },
  { label: "Quantity", right: true },
  { label: "Entry Price", right: true },
  { label: "Current Value", right: true },
  { label: "P&L", right: true },
  { label: "Days Held", right: true },
  { label: "Status" },
] as const;

function PositionRow({ position, onOpen }: { position: PortfolioPosition; onOpen: (p: PortfolioPosition) => void }) {
  const sign = SIGN_TEXT_CLASS[signOf(position.unrealizedPnl)];
  const muted = position.status !== "open";
  return (
    <tr
      className={cn("cursor-pointer border-b transition-colors last:border-b-0 hover:bg-accent/60", muted && "text-muted-foreground")}
      onClick={() => onOpen(position)}
      data-testid="position-row"
    >
      <td className="py-2.5 pr-3 font-semibold text-foreground">{position.signal.symbol}</td>
      <td className="max-w-44 truncate py-2.5 pr-3">{position.signal.companyName}</td>
      <td className="py-2.5 pr-3">
        <OptionTypeBadge type={position.signal.type} />
      </td>
      <td className="py-2.5 pr-3 text-right tabular">{formatContractPrice(position.signal.strikePrice)}</td>
      <td className="py-2.5 pr-3 text-right tabular">{position.quantity}</td>
      <td className="py-2.5 pr-3 text-right tabular">{formatContractPrice(position.entryPrice)}</td>
      <td className="py-2.5 pr-3 text-right tabular">{formatCurrency(position.currentValue)}</td>
      <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">
        <span className={cn("block", sign)}>{formatMoney(position.unrealizedPnl, { signed: true })}</span>
        <span className={cn("block text-xs", sign)}>{portfolioSignedPercent(position.unrealizedPnlPercent)}</span>
      </td>
      <td className="py-2.5 pr-3 text-right tabular">{position.daysHeld}</td>
      <td className="py-2.5 pr-3">
        <PositionStatusBadge status={position.status} />
      </td>
      <td className="py-2.5 text-right">
        <Button
          variant="ghost"
          size="sm"
          onClick={(event) => {
            event.stopPropagation();
            onOpen(position);
          }}
        >
          View<span className="sr-only"> {position.signal.symbol} position</span>
        </Button>
      </td>
    </tr>
  );
}

/** One page of positions as a table, scrolling sideways on narrow screens. */
function PositionsTable({ positions, onOpen }: { positions: PortfolioPosition[]; onOpen: (p: PortfolioPosition) => void }) {
  return (
    <div
      className="relative -mx-5 overflow-x-auto rounded-md px-5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      tabIndex={0}
      role="region"
      aria-label="Automated positions table"
    >
      <table className="w-full min-w-[800px] text-sm">
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            {HEADERS.map((h) => (
              <th key={h.label} scope="col" className={cn("py-2 pr-3 font-medium", "right" in h && "text-right")}>
                {h.label}
              </th>
            ))}
            <th scope="col" className="py-2 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {positions.map((p) => (
            <PositionRow key={p.id} position={p} onOpen={onOpen} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The automated positions (paper trades opened from signals that match the user's
 * preferences), 10 per page. The table keeps a minimum width of 800 px and scrolls inside
 * its card on narrow screens; a row or its View button opens the position's details.
 */
export function AutomatedPositionsTable() {
  const query = usePortfolioPositions();
  const positions = query.data ?? [];
  const pager = usePagination(positions.length, POSITIONS_PAGE_SIZE);
  const [target, setTarget] = useState<DetailTarget | null>(null);
  const [open, setOpen] = useState(false);
  const openDetail = (p: PortfolioPosition) => {
    setTarget({ kind: "automated", id: p.id, symbol: p.signal.symbol });
    setOpen(true);
  };

  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <h2 className="text-base leading-tight font-semibold">Automated Signals</h2>
        <CardDescription>Positions the platform opened for you from signals that match your investment preferences.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        <QueryState
          query={query}
          loadingLabel="Loading positions"
          skeleton={<SkeletonRows count={5} className="h-10 w-full" />}
          skeletonClassName="gap-2"
          errorTitle="Failed to fetch positions"
          staleData="show-with-error"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={BotIcon}
              title="No positions found"
              description="Positions open here when a signal matches your preferred strategies, risk tolerance and position size."
              className="border-none bg-transparent py-10"
            />
          }
        >
          {() => (
            <>
              <PositionsTable positions={pager.slice(positions)} onOpen={openDetail} />
              <Pagination pager={pager} noun="positions" label="Automated positions pages" />
            </>
          )}
        </QueryState>
      </CardContent>
      <PositionDetailDialog target={target} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
