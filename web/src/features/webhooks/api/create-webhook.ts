import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { CreatedWebhook, CreateWebhookRequest, WebhookEndpoint } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/webhooks → 201 with the endpoint and its signing secret, shown once; 403 when the
 * plan has no webhooks; 409 at 10 endpoints; 422 naming `url`, `eventType` or `accountId` (not one
 * of the user's accounts); 429 too many changes.
 */
export function createWebhook(body: CreateWebhookRequest): Promise<CreatedWebhook> {
  return dataOf(api.POST("/api/webhooks", { body }));
}

/** Registers an endpoint and puts it at the top of the list (newest first). */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: ({ endpoint }) => {
      queryClient.setQueryData<WebhookEndpoint[]>(queryKeys.webhooks.all(), (list) =>
        list ? [endpoint, ...list.filter((e) => e.id !== endpoint.id)] : [endpoint],
      );
    },
  });
}
