import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { ApiKey } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** DELETE /api/api-keys/{id} → 204: requests with the key fail from now on. */
export async function deleteApiKey(id: string): Promise<void> {
  await api.DELETE("/api/api-keys/{id}", { params: { path: { id } } });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys.all(), (keys) => keys?.filter((k) => k.id !== id));
    },
  });
}
