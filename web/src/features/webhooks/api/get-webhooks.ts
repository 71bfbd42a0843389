import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { WebhookEndpoint } from "@/lib/api/models";

/** Every webhook query starts with it: the list, and each endpoint's deliveries below it. */
export const webhooksQueryKey = ["/api/webhooks"] as const;

/** GET /api/webhooks: the user's endpoints, newest first (never their secrets). */
export function getWebhooks(): Promise<WebhookEndpoint[]> {
  return dataOf(api.GET("/api/webhooks"));
}

export function webhooksQueryOptions() {
  return queryOptions({ queryKey: webhooksQueryKey, queryFn: getWebhooks });
}

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
