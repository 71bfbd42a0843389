import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { Optimisation } from "@/lib/api/models";

/**
 * POST /api/portfolio/optimise (no body) → the proposal: how many contracts of which visible
 * signals maximise expected P&L within the risk model's comfortable levels (docs/optimisation.md).
 * Premium only (403 otherwise); 429 beyond 60 an hour. A proposal: nothing is bought.
 */
export function optimisePortfolio(): Promise<Optimisation> {
  return dataOf(api.POST("/api/portfolio/optimise"));
}

export function useOptimisePortfolio() {
  return useMutation({ mutationKey: ["/api/portfolio/optimise"], mutationFn: optimisePortfolio });
}
