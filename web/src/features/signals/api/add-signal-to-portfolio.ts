import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createManualPosition, manualPositionFromSignal, refreshAfterAdd } from "@/lib/api/manual-positions";
import type { ManualPosition, NewManualPosition, Signal } from "@/lib/api/models";

/**
 * The body of "Add to Portfolio" for a signal: one open contract
 * at the signal's entry price (else the option's current price, else the current price or
 * the strike, else 1), with a reasoning naming the strategy and the strength. The body has no
 * strategy field: the strategy is only said in the reasoning, so a custom strategy's signal
 * says "Custom strategy", with `strategyName` (its name, when the user's list has it). Null for
 * a locked signal, which has no contract to copy.
 */
export function signalToManualPosition(signal: Signal, strategyName?: string | null): NewManualPosition | null {
  if (signal.locked || signal.signalType == null || signal.strikePrice == null || signal.expirationDate == null) return null;
  return manualPositionFromSignal({
    symbol: signal.symbol,
    companyName: signal.companyName,
    type: signal.signalType,
    strikePrice: signal.strikePrice,
    expirationDate: signal.expirationDate,
    strategy: signal.strategy,
    strategyName,
    confidence: signal.confidence,
    entryPrice: signal.entryPrice,
    currentOptionPrice: signal.currentOptionPrice,
    currentPrice: signal.currentPrice,
  });
}

/**
 * POST /api/manual-positions with the signal's contract (the call is shared with the
 * portfolio feature through src/lib); the manual positions and portfolio figures refetch.
 */
export function addSignalToPortfolio({ signal, strategyName }: { signal: Signal; strategyName?: string | null }): Promise<ManualPosition> {
  const body = signalToManualPosition(signal, strategyName);
  if (!body) return Promise.reject(new Error("A locked signal cannot be added to the portfolio"));
  return createManualPosition(body);
}

export function useAddSignalToPortfolio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSignalToPortfolio,
    onSuccess: () => refreshAfterAdd(queryClient),
  });
}
