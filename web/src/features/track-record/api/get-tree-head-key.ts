import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { TreeHeadKey } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/public/track-record/key: the Ed25519 public key tree heads are signed with. */
export function getTreeHeadKey(): Promise<TreeHeadKey> {
  return dataOf(api.GET("/api/public/track-record/key"));
}

export function treeHeadKeyQueryOptions() {
  // The key is generated once, at first start: the app's default (never stale) fits.
  return queryOptions({ queryKey: queryKeys.trackRecord.key(), queryFn: getTreeHeadKey });
}

export function useTreeHeadKey() {
  return useQuery(treeHeadKeyQueryOptions());
}
