import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "@/lib/api/client";
import type { BacktestRequest, StrategyBacktest } from "@/lib/api/models";

/**
 * POST /api/backtest/strategy → one result per strategy (backtested, not live). 403 with
 * the reason on the Free plan. May take a few seconds.
 */
export function runStrategyBacktest(body: BacktestRequest = {}): Promise<StrategyBacktest[]> {
  return dataOf(api.POST("/api/backtest/strategy", { body }));
}

export function useRunStrategyBacktest() {
  return useMutation({ mutationKey: ["/api/backtest/strategy"], mutationFn: runStrategyBacktest });
}
