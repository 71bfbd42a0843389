import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { MarkedRead, NotificationList } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { allMarkedRead } from "../lib/notifications";

/** POST /api/notifications/read-all → how many were marked. */
export function markAllNotificationsRead(): Promise<MarkedRead> {
  return dataOf(api.POST("/api/notifications/read-all"));
}

/** Marks every notification read: shown read at once, then the list is read again. */
export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      queryClient.setQueryData<NotificationList>(queryKeys.notifications(), (list) => (list ? allMarkedRead(list) : list));
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
    },
  });
}
