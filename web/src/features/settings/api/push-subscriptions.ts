import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { NewPushSubscription, PushDevices, PushSubscriptionView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/** GET /api/push/subscriptions: the server's VAPID key and the user's subscribed browsers, newest first. */
export function getPushDevices(): Promise<PushDevices> {
  return dataOf(api.GET("/api/push/subscriptions"));
}

export function usePushDevices() {
  return useQuery({ queryKey: queryKeys.pushSubscriptions(), queryFn: getPushDevices });
}

/**
 * POST /api/push/subscriptions with this browser's `PushSubscription.toJSON()` → 201; 403 on
 * Free, 409 with ten browsers already, 422 naming `endpoint`, `keys.p256dh` or `keys.auth`.
 */
export function savePushSubscription(body: NewPushSubscription): Promise<PushSubscriptionView> {
  return dataOf(api.POST("/api/push/subscriptions", { body }));
}

/** DELETE /api/push/subscriptions/{id} → 204; 404 for another user's id. */
export async function deletePushSubscription(id: string): Promise<void> {
  await dataOf(api.DELETE("/api/push/subscriptions/{id}", { params: { path: { id } } }));
}

/** Any change to the browsers: the list is read again. */
export function useRefreshPushDevices() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.pushSubscriptions() });
}

export function useDeletePushSubscription() {
  const refresh = useRefreshPushDevices();
  return useMutation({ mutationFn: deletePushSubscription, onSettled: refresh });
}
