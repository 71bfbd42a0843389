import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { WebhookEndpoint } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** DELETE /api/webhooks/{id} → 204: the endpoint, its queued deliveries and its log are gone. */
export async function deleteWebhook(id: string): Promise<void> {
  await api.DELETE("/api/webhooks/{id}", { params: { path: { id } } });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_data, id) => {
      // Only the list: its open delivery log unmounts with the row, and its cached copy is
      // collected once unused (removing it while still observed would read it again: a 404).
      queryClient.setQueryData<WebhookEndpoint[]>(queryKeys.webhooks.all(), (list) => list?.filter((e) => e.id !== id));
    },
  });
}
