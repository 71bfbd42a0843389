import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import type { NotificationList } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";
import { markedRead } from "../lib/notifications";

/** POST /api/notifications/{id}/read → 204; 404 when it is not one of the user's. */
export async function markNotificationRead(id: string): Promise<void> {
  await api.POST("/api/notifications/{id}/read", { params: { path: { id } } });
}

/** Marks one read: shown read at once, then the list is read again. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<NotificationList>(queryKeys.notifications(), (list) => (list ? markedRead(list, id) : list));
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
    },
  });
}
