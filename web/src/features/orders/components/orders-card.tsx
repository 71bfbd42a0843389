import { ReceiptTextIcon, XIcon } from "lucide-react";
import { useState } from "react";
import type * as React from "react";
import { EmptyState } from "@/components/empty-state";
import { FilterChips } from "@/components/filter-chips";
import { Pagination } from "@/components/pagination";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { OrderView } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { NO_VALUE } from "@/lib/format";
import { usePagination } from "@/lib/pagination";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useCancelOrder } from "../api/cancel-order";
import { useOrders } from "../api/get-orders";
import {
  commission,
  contractLabels,
  fillPrice,
  inFilter,
  isStanding,
  ORDER_FILTER_LABELS,
  ORDER_FILTERS,
  type OrderFilter,
  orderReason,
} from "../lib/orders";
import { CancelOrderDialog } from "./cancel-order-dialog";
import { OrderStatusBadge } from "./order-status-badge";

/** Orders per page: 10, as the automated positions. */
export const ORDERS_PAGE_SIZE = 10;

const HEADERS = [
  { label: "Placed" },
  { label: "Contract" },
  { label: "Qty", right: true },
  { label: "Status" },
  { label: "Fill price", right: true },
  { label: "Commission", right: true },
  { label: "Reason" },
] as const;

type OrderItemProps = {
  order: OrderView;
  /** Whether this order's cancel is being sent. */
  cancelling: boolean;
  onCancel: (order: OrderView) => void;
};

/** How much filled: "1/2" on screen, "1 of 2 filled" to a screen reader. */
function FilledQuantity({ order }: { order: OrderView }) {
  return (
    <>
      <span aria-hidden>
        {order.filledUnits}/{order.quantity}
      </span>
      <span className="sr-only">
        {order.filledUnits} of {order.quantity} filled
      </span>
    </>
  );
}

/** Cancel, for a standing order: opens the confirmation; its name says which order. */
function CancelOrderButton({ order, cancelling, onCancel, className }: OrderItemProps & { className?: string }) {
  return (
    <Button variant="outline" size="sm" className={className} onClick={() => onCancel(order)} disabled={cancelling}>
      <XIcon aria-hidden />
      {cancelling ? "Cancelling..." : "Cancel"}
      <span className="sr-only"> order {contractLabels(order).join(" + ")}</span>
    </Button>
  );
}

function OrderRow({ order, cancelling, onCancel }: OrderItemProps) {
  const contracts = contractLabels(order);
  return (
    <tr
      className={cn("border-b align-top last:border-b-0", order.status === "cancelled" && "text-muted-foreground")}
      data-testid="order-row"
    >
      <td className="py-2.5 pr-3 whitespace-nowrap">
        <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
      </td>
      <td className="py-2.5 pr-3">
        {contracts.map((label) => (
          <span key={label} className="block font-medium whitespace-nowrap text-foreground">
            {label}
          </span>
        ))}
      </td>
      <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">
        <FilledQuantity order={order} />
      </td>
      <td className="py-2.5 pr-3">
        <OrderStatusBadge status={order.status} />
      </td>
      <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">{fillPrice(order)}</td>
      <td className="py-2.5 pr-3 text-right whitespace-nowrap tabular">{commission(order)}</td>
      <td className="max-w-72 min-w-48 py-2.5 pr-3 text-muted-foreground">{orderReason(order)}</td>
      <td className="py-2.5 text-right">
        {isStanding(order) ? <CancelOrderButton order={order} cancelling={cancelling} onCancel={onCancel} /> : null}
      </td>
    </tr>
  );
}

/** One page of orders as a table, from 768 px (wider than its card there, it scrolls sideways). */
function OrdersTable({
  orders,
  cancellingId,
  onCancel,
}: {
  orders: OrderView[];
  cancellingId?: string;
  onCancel: (order: OrderView) => void;
}) {
  return (
    <div
      className="relative -mx-5 hidden overflow-x-auto rounded-md px-5 outline-none focus-visible:ring-2 focus-visible:ring-ring md:block"
      tabIndex={0}
      role="region"
      aria-label="Orders table"
    >
      <table className="w-full min-w-[900px] text-sm">
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
          {orders.map((order) => (
            <OrderRow key={order.id} order={order} cancelling={cancellingId === order.id} onCancel={onCancel} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A label over its value, in an order item's facts. */
function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <div className={cn("min-w-0", wide && "col-span-full")}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn("mt-0.5 break-words", wide ? "text-muted-foreground" : "font-medium tabular")}>{children}</dd>
    </div>
  );
}

/**
 * One order on a phone: its contract (a line per leg) and status, when it was placed, how much
 * filled, the fill price and commission once something filled, why a rejected or cancelled one
 * ended so, and Cancel while it stands.
 */
function OrderItem({ order, cancelling, onCancel }: OrderItemProps) {
  const contracts = contractLabels(order);
  const reason = orderReason(order);
  const filled = order.fills.length > 0;
  return (
    <article
      aria-label={`${contracts.join(" + ")} order`}
      data-testid="order-item"
      className={cn("grid gap-3 text-sm", order.status === "cancelled" && "text-muted-foreground")}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-0.5">
          {contracts.map((label) => (
            <p key={label} className="font-medium break-words text-foreground">
              {label}
            </p>
          ))}
          <p className="text-xs text-muted-foreground">
            Placed <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
          </p>
        </div>
        <OrderStatusBadge status={order.status} className="shrink-0" />
      </div>
      <dl className="grid grid-cols-3 gap-x-4 gap-y-2">
        <Fact label="Qty">
          <FilledQuantity order={order} />
        </Fact>
        {filled ? (
          <>
            <Fact label="Fill price">{fillPrice(order)}</Fact>
            <Fact label="Commission">{commission(order)}</Fact>
          </>
        ) : null}
        {reason !== NO_VALUE ? (
          <Fact label="Reason" wide>
            {reason}
          </Fact>
        ) : null}
      </dl>
      {isStanding(order) ? (
        <CancelOrderButton order={order} cancelling={cancelling} onCancel={onCancel} className="w-full sm:w-fit" />
      ) : null}
    </article>
  );
}

/** One page of orders as a list of stacked items, on phones (below 768 px). */
function OrdersList({
  orders,
  cancellingId,
  onCancel,
}: {
  orders: OrderView[];
  cancellingId?: string;
  onCancel: (order: OrderView) => void;
}) {
  return (
    <ul className="grid divide-y md:hidden" aria-label="Orders">
      {orders.map((order) => (
        <li key={order.id} className="py-3 first:pt-0 last:pb-0">
          <OrderItem order={order} cancelling={cancellingId === order.id} onCancel={onCancel} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Cancelling one order after the dialog confirms it: "Order Cancelled", or "Order Not
 * Cancelled" with the server's reason. A 404 or 409 (the order is gone, or no longer
 * standing) closes the dialog, since trying again cannot help; the list is read again either way.
 */
function useCancelOrderFlow() {
  const mutation = useCancelOrder();
  const [target, setTarget] = useState<OrderView | null>(null);
  const confirm = async (order: OrderView) => {
    const contract = contractLabels(order).join(" + ");
    try {
      const cancelled = await mutation.mutateAsync(order.id);
      toast({
        title: "Order Cancelled",
        description:
          cancelled.filledUnits > 0
            ? `${contract} is cancelled. What filled (${cancelled.filledUnits} of ${cancelled.quantity}) stays in your portfolio.`
            : `${contract} is cancelled before anything filled.`,
      });
      setTarget(null);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Order Not Cancelled",
        description: errorMessage(error, "Failed to cancel the order. Please try again."),
      });
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) setTarget(null);
    }
  };
  return { target, setTarget, confirm, pending: mutation.isPending, cancellingId: mutation.isPending ? mutation.variables : undefined };
}

/**
 * "Orders": what the automation (or the optimiser's "Send as orders") sent for the current account, newest first (the server's latest
 * 100), 10 per page, all of them or only the open, filled, or rejected and cancelled ones (chips with their counts): when each was placed, its contract (every leg), how much filled, its
 * status, the first fill's net price per share (US dollars, as contract prices are), the
 * commission (in the display currency), and why a rejected or cancelled one ended so. A
 * standing order (new, accepted, partially filled) can be cancelled after a confirmation. From
 * 768 px a table (a minimum width of 900 px, scrolling inside its card when narrower); on
 * phones a list, each order stacked so that its status, fill and reason need no scrolling.
 */
export function OrdersCard() {
  const query = useOrders();
  const all = query.data ?? [];
  const [filter, setFilter] = useState<OrderFilter>("all");
  const orders = all.filter((order) => inFilter(order, filter));
  const pager = usePagination(orders.length, ORDERS_PAGE_SIZE, filter);
  const filters = ORDER_FILTERS.map((value) => ({
    value,
    label: ORDER_FILTER_LABELS[value],
    count: all.filter((order) => inFilter(order, value)).length,
  }));
  const cancel = useCancelOrderFlow();

  return (
    <Card className="min-w-0">
      <CardHeader className="border-b pb-4">
        <h2 className="text-base leading-tight font-semibold">Orders</h2>
        <CardDescription>
          The orders sent for this account, by the automation or from the optimiser's proposal, newest first: how each filled, or why it was
          refused or cancelled.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 pt-4">
        <QueryState
          query={query}
          loadingLabel="Loading orders"
          skeleton={<SkeletonRows count={4} className="h-10 w-full" />}
          skeletonClassName="gap-2"
          errorTitle="Failed to fetch orders"
          staleData="show-with-error"
          isEmpty={(list) => list.length === 0}
          empty={
            <EmptyState
              icon={ReceiptTextIcon}
              title="No orders yet"
              description="When the automation takes a signal in this account, its order appears here."
              className="border-none bg-transparent py-10"
            />
          }
        >
          {() => {
            const page = pager.slice(orders);
            return (
              <>
                <FilterChips label="Show orders" options={filters} value={filter} onChange={setFilter} />
                {orders.length === 0 ? (
                  <p className="py-6 text-center text-sm text-muted-foreground" data-testid="orders-filter-empty">
                    No {ORDER_FILTER_LABELS[filter].toLowerCase()} orders among the latest {all.length}.
                  </p>
                ) : (
                  <>
                    <OrdersTable orders={page} cancellingId={cancel.cancellingId} onCancel={cancel.setTarget} />
                    <OrdersList orders={page} cancellingId={cancel.cancellingId} onCancel={cancel.setTarget} />
                    <Pagination pager={pager} noun="orders" label="Orders pages" />
                  </>
                )}
              </>
            );
          }}
        </QueryState>
      </CardContent>
      <CancelOrderDialog
        order={cancel.target}
        pending={cancel.pending}
        onConfirm={(order) => void cancel.confirm(order)}
        onOpenChange={(open) => {
          if (!open) cancel.setTarget(null);
        }}
      />
    </Card>
  );
}
