import { BellRingIcon, Trash2Icon, TrendingDownIcon, TrendingUpIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { PriceAlert } from "@/lib/api/models";
import { formatDateTime } from "@/lib/dates";
import { formatContractPrice } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useDeletePriceAlert } from "../api/delete-price-alert";
import { usePriceAlerts } from "../api/get-price-alerts";
import { ALERT_STATUS_LABELS, describeAlert, DIRECTION_LABELS } from "../lib/price-alert";
import { PriceAlertForm } from "./price-alert-form";

function AlertStatusBadge({ alert }: { alert: PriceAlert }) {
  const triggered = alert.status === "triggered";
  return (
    <Badge variant={triggered ? "outline" : "soft"} className={cn(triggered && "border-transparent bg-positive/12 text-positive-strong")}>
      {triggered ? <BellRingIcon aria-hidden /> : null}
      {ALERT_STATUS_LABELS[alert.status] ?? alert.status}
    </Badge>
  );
}

function PriceAlertRow({ alert, onDelete }: { alert: PriceAlert; onDelete: (alert: PriceAlert) => void }) {
  const DirectionIcon = alert.direction === "above" ? TrendingUpIcon : TrendingDownIcon;
  return (
    <li className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="price-alert-row">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-semibold">{alert.symbol}</span>
          <span className="inline-flex items-center gap-1 text-sm tabular">
            <DirectionIcon aria-hidden className="size-3.5 text-muted-foreground" />
            {DIRECTION_LABELS[alert.direction] ?? alert.direction} {formatContractPrice(alert.targetPrice)}
          </span>
          <AlertStatusBadge alert={alert} />
        </div>
        <p className="text-xs text-muted-foreground">
          {alert.status === "triggered" && alert.triggeredAt ? (
            <>
              Triggered <time dateTime={alert.triggeredAt}>{formatDateTime(alert.triggeredAt)}</time>
              {alert.triggeredPrice != null ? <span className="tabular"> at {formatContractPrice(alert.triggeredPrice)}</span> : null}
            </>
          ) : (
            <>
              Set <time dateTime={alert.createdAt}>{formatDateTime(alert.createdAt)}</time>
            </>
          )}
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        onClick={() => onDelete(alert)}
        className="-mt-1 -mr-2 shrink-0 text-muted-foreground hover:text-destructive-strong"
      >
        <Trash2Icon aria-hidden />
        <span className="sr-only">Delete alert {describeAlert(alert)}</span>
      </Button>
    </li>
  );
}

/** Asks before deleting an alert. */
function DeletePriceAlertDialog({ alert, onOpenChange }: { alert: PriceAlert | null; onOpenChange: (open: boolean) => void }) {
  const mutation = useDeletePriceAlert();
  return (
    <ConfirmDeleteDialog
      open={alert !== null}
      onOpenChange={onOpenChange}
      title="Delete this price alert?"
      description={alert ? `You will not be notified when ${describeAlert(alert)}. This cannot be undone.` : null}
      confirmLabel="Delete Alert"
      pending={mutation.isPending}
      remove={() => (alert ? mutation.mutateAsync(alert.id) : Promise.resolve())}
      success={{ title: "Price Alert Deleted", description: alert ? `No alert for ${describeAlert(alert)} any more.` : "" }}
      failure="Failed to delete the price alert"
    />
  );
}

function AlertList({ onDelete }: { onDelete: (alert: PriceAlert) => void }) {
  const query = usePriceAlerts();
  return (
    <QueryState
      query={query}
      loadingLabel="Loading price alerts"
      skeleton={<SkeletonRows count={3} className="h-12 w-full" />}
      errorTitle="Failed to load price alerts"
      errorLayout="centered"
      staleData="show"
      isEmpty={(alerts) => !Array.isArray(alerts) || alerts.length === 0}
      empty={
        <EmptyState
          icon={BellRingIcon}
          title="No price alerts yet"
          description="Set one above and you will get a notification when the stock reaches your price."
          className="py-10"
        />
      }
    >
      {(alerts) => (
        <ul className="divide-y" aria-label="Price alerts">
          {alerts.map((alert) => (
            <PriceAlertRow key={alert.id} alert={alert} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </QueryState>
  );
}

/**
 * Price alerts: set one on a watchlist symbol (Above or Below a price in US dollars), and the
 * user's alerts with their status, newest first, each deleted after a confirmation. A
 * triggered alert also writes a notification (the bell).
 */
export function PriceAlertsCard() {
  const [deleting, setDeleting] = useState<PriceAlert | null>(null);
  return (
    <Card>
      <CardHeader className="gap-1 border-b pb-4">
        <h2 className="text-base leading-tight font-semibold">Price Alerts</h2>
        <CardDescription>Get a notification when a stock on the watchlist reaches your price. Each alert fires once.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-4">
        <PriceAlertForm />
        <AlertList onDelete={setDeleting} />
      </CardContent>
      <DeletePriceAlertDialog
        alert={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </Card>
  );
}
