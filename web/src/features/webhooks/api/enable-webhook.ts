import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { WebhookEndpoint } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** POST /api/webhooks/{id}/enable → the endpoint switched back on (a fresh start); 403 when the plan has no webhooks. */
export function enableWebhook(id: string): Promise<WebhookEndpoint> {
  return dataOf(api.POST("/api/webhooks/{id}/enable", { params: { path: { id } } }));
}

export function useEnableWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableWebhook,
    onSuccess: (endpoint) => {
      queryClient.setQueryData<WebhookEndpoint[]>(queryKeys.webhooks.all(), (list) =>
        list?.map((e) => (e.id === endpoint.id ? endpoint : e)),
      );
    },
  });
}
