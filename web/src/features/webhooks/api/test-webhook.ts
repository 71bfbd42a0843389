import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { WebhookDelivery } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/webhooks/{id}/test → what came of a signed test message sent now (logged, not
 * retried); 422 when the endpoint is switched off; 429 too many test sends.
 */
export function testWebhook(id: string): Promise<WebhookDelivery> {
  return dataOf(api.POST("/api/webhooks/{id}/test", { params: { path: { id } } }));
}

/** Sends a test; afterwards the list and every delivery log are read again (the attempt is logged). */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testWebhook,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all() }),
  });
}
