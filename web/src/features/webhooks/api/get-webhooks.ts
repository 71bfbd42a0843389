import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { WebhookEndpoint } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/webhooks: the user's endpoints, newest first (never their secrets). */
export function getWebhooks(): Promise<WebhookEndpoint[]> {
  return dataOf(api.GET("/api/webhooks"));
}

export function webhooksQueryOptions() {
  return queryOptions({ queryKey: queryKeys.webhooks.all(), queryFn: getWebhooks });
}

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
