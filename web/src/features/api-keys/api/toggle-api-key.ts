import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ApiKey } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** PATCH /api/api-keys/{id}/toggle → the key as it is now; 422 when it has expired. */
export function toggleApiKey({ id, isActive }: { id: string; isActive: boolean }): Promise<ApiKey> {
  return dataOf(api.PATCH("/api/api-keys/{id}/toggle", { params: { path: { id } }, body: { isActive } }));
}

/** Switches one key on or off (each row has its own, so only that row's switch waits). */
export function useToggleApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleApiKey,
    onSuccess: (key) => {
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys.all(), (keys) => keys?.map((k) => (k.id === key.id ? key : k)));
    },
  });
}
