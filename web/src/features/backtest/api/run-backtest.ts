import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { BacktestRequest, OverallBacktest } from "@/lib/api/models";

/**
 * POST /api/backtest → the overall result (backtested, not live). 403 with the reason when
 * the plan does not allow the request (Free: the last year only; custom parameters: Premium).
 * May take a few seconds.
 */
export function runBacktest(body: BacktestRequest = {}): Promise<OverallBacktest> {
  return dataOf(api.POST("/api/backtest", { body }));
}

export function useRunBacktest() {
  return useMutation({ mutationKey: ["/api/backtest"], mutationFn: runBacktest });
}
