import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { SessionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/user/sessions: the account's signed-in sessions, newest first; `current` marks this one. */
export function getSessions(): Promise<SessionView[]> {
  return dataOf(api.GET("/api/user/sessions"));
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.sessions(), queryFn: getSessions });
}

/** The sessions, read again each time the Security tab opens (other browsers come and go). */
export function useSessions() {
  return useQuery({ ...sessionsQueryOptions(), refetchOnMount: "always" });
}
