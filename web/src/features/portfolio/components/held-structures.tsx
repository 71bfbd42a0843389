import { LayersIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import type * as React from "react";
import { Link } from "react-router";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { EmptyState } from "@/components/empty-state";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useDeleteHeldStructure, useHeldStructures } from "@/lib/api/held-structures";
import type { ExtremeView, HeldStructureView, Instrument, LegInput, Side } from "@/lib/api/models";
import { formatShortDate } from "@/lib/dates";
import {
  formatContractPrice,
  formatDayCount,
  formatFractionPercent,
  formatMoney,
  formatRatio,
  SIGN_TEXT_CLASS,
  signOf,
} from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { cn } from "@/lib/utils";
import { portfolioSignedPercent } from "../lib/format";
import { ManualStatusBadge } from "./status-badges";

/** Multi-leg position cards per page: 12 fills whole rows of the 1- and 2-column grids. */
export const HELD_PAGE_SIZE = 12;

/** Where a position is built and saved from (src/app/router.tsx). */
const BUILDER_PATH = "/strategy-builder";

const SIDE_TEXT: Record<Side, string> = { long: "Long", short: "Short" };
const INSTRUMENT_TEXT: Record<Instrument, string> = { call: "Call", put: "Put", stock: "Stock" };

/** "Short 1 Put $95.00", "Long 100 shares"; with the expiry when the legs do not share one. */
function legText(leg: LegInput, withExpiry: boolean): string {
  if (leg.instrument === "stock") return `${SIDE_TEXT[leg.side]} ${leg.quantity} ${leg.quantity === 1 ? "share" : "shares"}`;
  const expiry = withExpiry && leg.expirationDate ? ` exp ${formatShortDate(leg.expirationDate)}` : "";
  return `${SIDE_TEXT[leg.side]} ${leg.quantity} ${INSTRUMENT_TEXT[leg.instrument]} ${formatContractPrice(leg.strike)}${expiry}`;
}

/** The legs on one line: "Short 1 Put $95.00 · Long 1 Put $90.00 · … exp Dec 18, 2026". */
export function legsSummary(legs: readonly LegInput[]): string {
  const expiries = new Set(legs.filter((l) => l.instrument !== "stock" && l.expirationDate).map((l) => l.expirationDate));
  const shared = expiries.size === 1 ? [...expiries][0] : null;
  const text = legs.map((l) => legText(l, shared === null)).join(" · ");
  return shared ? `${text} exp ${formatShortDate(shared)}` : text;
}

/** A maximum profit or loss at expiry: "Unlimited" when unbounded, else the signed amount. */
function extreme(view: ExtremeView): string {
  return view.unbounded || view.pnl == null ? "Unlimited" : formatMoney(view.pnl, { signed: true });
}

function Fact({ label, children, testId }: { label: React.ReactNode; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0" data-testid={testId}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words tabular">{children}</dd>
    </div>
  );
}

/** A Greek's symbol for the eye, its name for a screen reader. */
function GreekLabel({ symbol, name }: { symbol: string; name: string }) {
  return (
    <>
      <span aria-hidden>{symbol}</span>
      <span className="sr-only">{name}</span>
    </>
  );
}

function HeldStructureCard({ position, onDelete }: { position: HeldStructureView; onDelete: (p: HeldStructureView) => void }) {
  const open = position.status === "open";
  const debit = position.netPremium >= 0;
  const pnlSign = SIGN_TEXT_CLASS[signOf(position.pnl)];
  const { atExpiry, greeks } = position;
  const returnOnRisk = position.returnOnRiskPercent == null ? null : `${portfolioSignedPercent(position.returnOnRiskPercent)} on risk`;
  return (
    <Card
      role="article"
      aria-label={`${position.name} multi-leg position`}
      data-testid="held-structure-card"
      className={cn("flex min-w-0 flex-col gap-4 p-4 sm:p-5", !open && "bg-muted/40")}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-base leading-snug font-semibold tracking-tight break-words">{position.name}</h3>
          <p className="mt-1 text-sm text-muted-foreground">
            {position.symbol} ·{" "}
            {open ? `expires ${formatShortDate(position.firstExpiration)}` : `expired ${formatShortDate(position.firstExpiration)}`}
          </p>
        </div>
        <ManualStatusBadge status={position.status} />
      </div>
      <p className="text-sm break-words" data-testid="held-legs">
        <span className="sr-only">Legs: </span>
        {legsSummary(position.legs)}
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 border-t pt-4 sm:grid-cols-3">
        <Fact label={debit ? "Net debit" : "Net credit"} testId="held-net-premium">
          {formatMoney(Math.abs(position.netPremium))}
        </Fact>
        {open ? (
          <>
            <Fact label="Current value">{formatMoney(position.currentValue)}</Fact>
            <Fact label="P&L" testId="held-pnl">
              <span className={pnlSign}>
                {formatMoney(position.pnl, { signed: true })}
                {returnOnRisk ? ` (${returnOnRisk})` : null}
              </span>
            </Fact>
            <Fact label="Capital at risk">{formatMoney(position.capitalAtRisk)}</Fact>
            <Fact label="Days to expiry">{formatDayCount(position.daysToExpiry)}</Fact>
          </>
        ) : (
          <>
            <Fact label="Settled price" testId="held-settled-price">
              {formatContractPrice(position.settledPrice)}
            </Fact>
            <Fact label="Realized P&L" testId="held-pnl">
              <span className={pnlSign}>
                {formatMoney(position.pnl, { signed: true })}
                {returnOnRisk ? ` (${returnOnRisk})` : null}
              </span>
            </Fact>
            <Fact label="Capital at risk">{formatMoney(position.capitalAtRisk)}</Fact>
          </>
        )}
        {atExpiry ? (
          <>
            <Fact label="Max profit" testId="held-max-profit">
              <span className={SIGN_TEXT_CLASS[atExpiry.maxProfit.unbounded ? "positive" : signOf(atExpiry.maxProfit.pnl)]}>
                {extreme(atExpiry.maxProfit)}
              </span>
            </Fact>
            <Fact label="Max loss" testId="held-max-loss">
              <span className={SIGN_TEXT_CLASS[atExpiry.maxLoss.unbounded ? "negative" : signOf(atExpiry.maxLoss.pnl)]}>
                {extreme(atExpiry.maxLoss)}
              </span>
            </Fact>
            <Fact label={atExpiry.breakevens.length === 1 ? "Breakeven" : "Breakevens"} testId="held-breakevens">
              {atExpiry.breakevens.length > 0 ? atExpiry.breakevens.map((b) => formatContractPrice(b)).join(", ") : "None"}
            </Fact>
            <Fact label="Probability of profit" testId="held-probability">
              {formatFractionPercent(atExpiry.probabilityOfProfit, 1)}
            </Fact>
          </>
        ) : null}
      </dl>
      {greeks ? (
        <div className="grid gap-2 border-t pt-3">
          <p className="text-xs text-muted-foreground">Greeks, whole position</p>
          <dl className="grid grid-cols-4 gap-x-3 gap-y-2" data-testid="held-greeks">
            <Fact label={<GreekLabel symbol="Δ" name="Delta" />}>{formatRatio(greeks.delta)}</Fact>
            <Fact label={<GreekLabel symbol="Γ" name="Gamma" />}>{formatRatio(greeks.gamma, 4)}</Fact>
            <Fact label={<GreekLabel symbol="Θ" name="Theta, per day" />}>{formatMoney(greeks.theta, { signed: true })}</Fact>
            <Fact label={<GreekLabel symbol="V" name="Vega, per volatility point" />}>{formatMoney(greeks.vega, { signed: true })}</Fact>
          </dl>
        </div>
      ) : null}
      <div className="mt-auto flex justify-end">
        <Button variant="ghost" size="sm" onClick={() => onDelete(position)}>
          <Trash2Icon aria-hidden className="text-destructive-strong" />
          Delete<span className="sr-only"> {position.name}</span>
        </Button>
      </div>
    </Card>
  );
}

/**
 * "Multi-leg positions": the structures saved from the strategy builder, each valued now
 * (open) or as settled at its first expiration (expired), with delete; a way to the builder
 * when there are none.
 */
export function HeldStructures() {
  const query = useHeldStructures();
  const positions = query.data ?? [];
  const pager = usePagination(positions.length, HELD_PAGE_SIZE);
  const [deleting, setDeleting] = useState<HeldStructureView | null>(null);
  const remove = useDeleteHeldStructure();

  return (
    <Card className="min-w-0">
      <CardHeader className="grid gap-1.5 border-b pb-4">
        <h2 className="text-base leading-tight font-semibold">Multi-leg positions</h2>
        <CardDescription>
          Structures you saved from the strategy builder, valued at today&apos;s prices. Amounts are for the whole position.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        <QueryState
          query={query}
          loadingLabel="Loading multi-leg positions"
          skeleton={<SkeletonRows count={2} className="h-72" />}
          skeletonClassName="lg:grid-cols-2"
          errorTitle="Failed to fetch multi-leg positions"
          staleData="show-with-error"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={LayersIcon}
              title="No multi-leg positions yet"
              description="Build one in the Strategy Builder and save it to your portfolio."
              action={
                <Button asChild>
                  <Link to={BUILDER_PATH}>Open the Strategy Builder</Link>
                </Button>
              }
              className="border-none bg-transparent py-10"
            />
          }
        >
          {() => (
            <>
              <div className="grid gap-3 lg:grid-cols-2">
                {pager.slice(positions).map((p) => (
                  <HeldStructureCard key={p.id} position={p} onDelete={setDeleting} />
                ))}
              </div>
              <Pagination pager={pager} noun="positions" label="Multi-leg positions pages" />
            </>
          )}
        </QueryState>
      </CardContent>
      <ConfirmDeleteDialog
        open={deleting != null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete this position?"
        description={
          deleting ? (
            <>
              {deleting.name}: {legsSummary(deleting.legs)}. It is removed from your portfolio for good.
            </>
          ) : null
        }
        confirmLabel="Delete"
        pending={remove.isPending}
        remove={() => (deleting ? remove.mutateAsync(deleting.id) : Promise.resolve())}
        success={{ title: "Success", description: "Position deleted successfully" }}
        failure="Failed to delete position"
      />
    </Card>
  );
}
