import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { ProposalOrders, ProposedPosition, SentOrders } from "@/lib/api/models";
import { queryKeys } from "@/lib/query-keys";

/**
 * POST /api/orders/proposal → each position's order (docs/execution.md, "the optimiser's
 * proposal sent as orders"): one market order per position for the current account, filled at
 * once by the paper broker. `placed` counts the orders this send placed: a signal the account
 * ordered already (by the automation or an earlier send) is listed, not ordered again. Premium
 * only (403); 409 while a kill switch stops orders; 422 naming the field (`positions`,
 * `positions[i].signalId`, `positions[i].contracts`), nothing placed; 429 beyond the limit.
 */
export function sendProposal(body: ProposalOrders): Promise<SentOrders> {
  return dataOf(api.POST("/api/orders/proposal", { body }));
}

/** The request for a proposal's positions: each signal and its contracts, in the proposal's order. */
export function proposalOrders(positions: readonly Pick<ProposedPosition, "signalId" | "contracts">[]): ProposalOrders {
  return { positions: positions.map(({ signalId, contracts }) => ({ signalId, contracts })) };
}

/**
 * Sends a proposal as orders. The optimiser is the portfolio's action, so the hook lives here
 * (features do not import each other); the orders' key is shared (lib/query-keys.ts). Whether
 * the send went through or was refused, the orders and the positions and figures they opened
 * are read again.
 */
export function useSendProposal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ["/api/orders/proposal"],
    mutationFn: sendProposal,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.positions() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.metrics() });
    },
  });
}
