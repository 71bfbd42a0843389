import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { OrderView } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/orders/{id}/cancel → the order, cancelled, keeping what filled. 404 for an order
 * that is not the current account's; 409 for one no longer standing (filled, cancelled or
 * rejected).
 */
export function cancelOrder(id: string): Promise<OrderView> {
  return dataOf(api.POST("/api/orders/{id}/cancel", { params: { path: { id } } }));
}

/**
 * Cancels an order: the list shows it cancelled at once. Then, whether the cancel went through
 * or was refused (a 409 means the list was out of date), the orders and the automated positions
 * (what a partial fill opened) are read again.
 */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (order) => {
      queryClient.setQueryData<OrderView[]>(queryKeys.orders(), (list) => list?.map((o) => (o.id === order.id ? order : o)));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.positions() });
    },
  });
}
