import { RefreshCwIcon } from "lucide-react";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { WebhookDelivery } from "@/lib/api/models";
import { NO_VALUE } from "@/lib/format";
import { useWebhookDeliveries } from "../api/get-webhook-deliveries";
import { cn } from "@/lib/utils";
import { formatAttemptClock, formatAttemptDay } from "../lib/webhooks";

const TONES = { good: "bg-positive/10 text-positive-strong", bad: "bg-destructive/10 text-destructive-strong" };

/** The attempts, newest first; on phones an attempt's error takes a row of its own under it. */
function DeliveryTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <div className="-mx-1 overflow-x-auto px-1">
      <table className="w-full table-fixed text-left text-sm" data-testid="delivery-table">
        <caption className="sr-only">Delivery attempts, newest first</caption>
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="w-22 pr-2 pb-2 font-medium sm:w-44 sm:pr-3">
              Time
            </th>
            <th scope="col" className="w-22 pr-2 pb-2 font-medium sm:w-28 sm:pr-3">
              Result
            </th>
            <th scope="col" className="w-10 pr-2 pb-2 text-right font-medium sm:w-16 sm:pr-3">
              HTTP
            </th>
            <th scope="col" className="pb-2 text-right font-medium sm:w-24 sm:pr-3">
              Latency
            </th>
            <th scope="col" className="hidden pb-2 font-medium sm:table-cell sm:pl-3">
              Error
            </th>
          </tr>
        </thead>
        {deliveries.map((delivery, index) => {
          const result = delivery.succeeded ? "Delivered" : "Failed";
          return (
            // One group per attempt: on phones its error takes a row of its own under it.
            <tbody key={`${delivery.messageId}-${delivery.attemptedAt}-${index}`} className="border-t">
              <tr data-testid="delivery-row" className="align-top">
                <td className="py-2 pr-2 tabular sm:pr-3">
                  <time dateTime={delivery.attemptedAt} className="grid sm:block">
                    <span className="text-xs text-muted-foreground sm:text-sm sm:text-foreground">
                      {formatAttemptDay(delivery.attemptedAt)}
                    </span>
                    <span className="sm:hidden">{formatAttemptClock(delivery.attemptedAt)}</span>
                    <span className="hidden sm:inline">, {formatAttemptClock(delivery.attemptedAt)}</span>
                  </time>
                </td>
                <td className="py-2 pr-2 sm:pr-3">
                  <Badge className={cn("border-transparent", delivery.succeeded ? TONES.good : TONES.bad)}>{result}</Badge>
                </td>
                <td className="py-2 pr-2 text-right tabular sm:pr-3">{delivery.statusCode ?? NO_VALUE}</td>
                <td className="py-2 text-right whitespace-nowrap tabular sm:pr-3">{delivery.latencyMs.toLocaleString("en-US")} ms</td>
                <td className="hidden py-2 break-words text-muted-foreground sm:table-cell sm:pl-3">{delivery.error ?? NO_VALUE}</td>
              </tr>
              {delivery.error ? (
                <tr className="sm:hidden">
                  <td colSpan={4} className="pb-2 text-xs break-words text-muted-foreground">
                    <span className="sr-only">Error: </span>
                    {delivery.error}
                  </td>
                </tr>
              ) : null}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}

/**
 * An endpoint's newest delivery attempts (GET /api/webhooks/{id}/deliveries, at most 50,
 * newest first): time, result, HTTP status, latency and error. On phones the error goes
 * under the result instead of a column of its own.
 */
export function DeliveryLog({ endpointId, id }: { endpointId: string; id: string }) {
  const deliveries = useWebhookDeliveries(endpointId);
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="grid gap-3 rounded-lg border bg-muted/30 p-3 sm:p-4">
      <div className="flex items-center justify-between gap-3">
        <h4 id={`${id}-title`} className="text-sm font-medium">
          Delivery log
        </h4>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void deliveries.refetch()}
          disabled={deliveries.isFetching}
          aria-label="Refresh the delivery log"
        >
          <RefreshCwIcon aria-hidden className={deliveries.isFetching ? "animate-spin motion-reduce:animate-none" : undefined} />
          Refresh
        </Button>
      </div>
      <QueryState
        query={deliveries}
        loadingLabel="Loading the delivery log"
        skeleton={<SkeletonRows count={2} className="h-8 w-full" />}
        skeletonClassName="gap-2"
        errorTitle="Failed to fetch the delivery log"
        isEmpty={(list) => list.length === 0}
        empty={
          <p className="text-sm text-muted-foreground">
            <span className="font-medium text-foreground">No deliveries yet.</span> Send a test to see one here.
          </p>
        }
      >
        {(list) => <DeliveryTable deliveries={list} />}
      </QueryState>
    </section>
  );
}
