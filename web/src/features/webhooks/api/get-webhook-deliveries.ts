import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { WebhookDelivery } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/webhooks/{id}/deliveries: the endpoint's newest delivery attempts (at most 50), newest first. */
export function getWebhookDeliveries(id: string): Promise<WebhookDelivery[]> {
  return dataOf(api.GET("/api/webhooks/{id}/deliveries", { params: { path: { id } } }));
}

/**
 * Deliveries happen in the background, so the log is read again each time it is opened
 * (stale at once) rather than kept like the app's other queries.
 */
export function webhookDeliveriesQueryOptions(id: string) {
  return queryOptions({ queryKey: queryKeys.webhooks.deliveries(id), queryFn: () => getWebhookDeliveries(id), staleTime: 0 });
}

export function useWebhookDeliveries(id: string) {
  return useQuery(webhookDeliveriesQueryOptions(id));
}
