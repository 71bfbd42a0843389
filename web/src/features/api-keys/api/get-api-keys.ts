import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ApiKey } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/api-keys: the user's keys, newest first (their prefixes, never the keys themselves). */
export function getApiKeys(): Promise<ApiKey[]> {
  return dataOf(api.GET("/api/api-keys"));
}

export function apiKeysQueryOptions() {
  return queryOptions({ queryKey: queryKeys.apiKeys.all(), queryFn: getApiKeys });
}

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
