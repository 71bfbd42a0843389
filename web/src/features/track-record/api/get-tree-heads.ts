import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { HeadList } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/public/track-record/heads?limit=: signed tree heads, oldest first, and the newest (`latest`). */
export function getTreeHeads(limit: number): Promise<HeadList> {
  return dataOf(api.GET("/api/public/track-record/heads", { params: { query: { limit } } }));
}

export function treeHeadsQueryOptions(limit: number) {
  // A head is signed every hour; a minute-old copy is fresh enough.
  return queryOptions({ queryKey: queryKeys.trackRecord.heads(limit), queryFn: () => getTreeHeads(limit), staleTime: 60_000 });
}

/** The newest signed head is `data.latest`; `limit` = 1 keeps the list itself short. */
export function useTreeHeads(limit = 1) {
  return useQuery(treeHeadsQueryOptions(limit));
}
