import { LockedFeature } from "@/components/locked-feature";

/** Free and Pro: what the Premium builder does, locked, with the way to it. */
export function StrategyBuilderLocked() {
  return (
    <LockedFeature title="Custom strategy builder" plan="Premium" testId="strategy-builder-locked" heading="h2">
      Build multi-leg options positions (spreads, straddles, iron condors, calendars or your own legs) and see their payoff at expiry and
      before, maximum profit and loss, breakevens, probability of profit, Greeks and a price × volatility scenario grid.
    </LockedFeature>
  );
}
