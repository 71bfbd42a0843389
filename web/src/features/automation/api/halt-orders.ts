import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { AutomationStatus, OrdersHalt } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * PUT /api/automation/orders (administrators; 403 otherwise) → the new status. The kill switch
 * for every account: while on, no order is sent for any account, and turning it on cancels every
 * standing order. Idempotent.
 */
export function haltOrders(body: OrdersHalt): Promise<AutomationStatus> {
  return dataOf(api.PUT("/api/automation/orders", { body }));
}

/** Turns the kill switch on or off; the orders are read again, since turning it on cancels the standing ones. */
export function useHaltOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: haltOrders,
    onSuccess: (status) => {
      queryClient.setQueryData(queryKeys.automation(), status);
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    },
  });
}
