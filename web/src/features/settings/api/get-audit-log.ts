import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AuditEntry } from "@/lib/api/models";

export const auditLogQueryKey = ["/api/user/audit"] as const;

/** The server answers this many entries a page; a shorter page is the last. */
export const AUDIT_PAGE_SIZE = 50;

/** GET /api/user/audit?before=…: the account's audit log, newest first, 50 entries older than `before`. */
export function getAuditLog(before?: string): Promise<AuditEntry[]> {
  return dataOf(api.GET("/api/user/audit", { params: { query: before ? { before } : {} } }));
}

/** The `before` of the page after `page`: its oldest entry's time; undefined after the last page. */
export function nextAuditCursor(page: readonly AuditEntry[]): string | undefined {
  return page.length >= AUDIT_PAGE_SIZE ? page.at(-1)?.at : undefined;
}

export function auditLogQueryOptions() {
  return infiniteQueryOptions({
    queryKey: auditLogQueryKey,
    queryFn: ({ pageParam }) => getAuditLog(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextAuditCursor,
  });
}

/** The audit log, read again each time the Security tab opens. */
export function useAuditLog() {
  return useInfiniteQuery({ ...auditLogQueryOptions(), refetchOnMount: "always" });
}
