import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AuditEntry } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** The server answers this many entries a page; a shorter page is the last. */
export const AUDIT_PAGE_SIZE = 50;

/** Where the next page starts: the previous page's oldest entry (its time, and its id for ties). */
export type AuditCursor = { before: string; beforeId: string };

/** GET /api/user/audit?before=…&beforeId=…: the account's audit log, newest first, 50 entries after the cursor. */
export function getAuditLog(cursor?: AuditCursor): Promise<AuditEntry[]> {
  return dataOf(api.GET("/api/user/audit", { params: { query: cursor ?? {} } }));
}

/** The cursor of the page after `page`: its oldest entry; undefined after the last page. */
export function nextAuditCursor(page: readonly AuditEntry[]): AuditCursor | undefined {
  const last = page.at(-1);
  return page.length >= AUDIT_PAGE_SIZE && last ? { before: last.at, beforeId: last.id } : undefined;
}

export function auditLogQueryOptions() {
  return infiniteQueryOptions({
    queryKey: queryKeys.auditLog(),
    queryFn: ({ pageParam }) => getAuditLog(pageParam),
    initialPageParam: undefined as AuditCursor | undefined,
    getNextPageParam: nextAuditCursor,
  });
}

/** The audit log, read again each time the Security tab opens. */
export function useAuditLog() {
  return useInfiniteQuery({ ...auditLogQueryOptions(), refetchOnMount: "always" });
}
