import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/api-keys → 201 with the whole key, shown once; 409 at 20 keys; 422 naming a bad field
 * (`accountId` when it is not one of the user's accounts); 429 too many this hour.
 */
export function createApiKey(body: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return dataOf(api.POST("/api/api-keys", { body }));
}

/** Creates a key and puts it at the top of the list (newest first). */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: ({ apiKey }) => {
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys.all(), (keys) =>
        keys ? [apiKey, ...keys.filter((k) => k.id !== apiKey.id)] : [apiKey],
      );
    },
  });
}
