import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { NotificationList } from "@/lib/api/models";
import { LIVE_REFETCH_MS } from "@/lib/live-events";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/notifications: the newest 50, newest first, and how many of all are unread. */
export function getNotifications(): Promise<NotificationList> {
  return dataOf(api.GET("/api/notifications"));
}

export function notificationsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.notifications(), queryFn: getNotifications, refetchInterval: LIVE_REFETCH_MS });
}

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
