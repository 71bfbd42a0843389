import { LockIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

/** Free and Pro: what the Premium builder does, locked, with the way to it. */
export function StrategyBuilderLocked() {
  return (
    <section
      aria-labelledby="strategy-builder-locked"
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-dashed p-4"
      data-testid="strategy-builder-locked"
    >
      <div className="grid max-w-prose gap-1">
        <h2 id="strategy-builder-locked" className="inline-flex items-center gap-2 text-sm font-semibold">
          <LockIcon className="size-4 text-muted-foreground" aria-hidden />
          Custom strategy builder
          <Badge variant="soft">Premium</Badge>
        </h2>
        <p className="text-sm text-muted-foreground">
          Build multi-leg options positions (spreads, straddles, iron condors, calendars or your own legs) and see their payoff at expiry
          and before, maximum profit and loss, breakevens, probability of profit, Greeks and a price × volatility scenario grid.
        </p>
      </div>
      <Button asChild variant="outline" size="sm">
        <Link to="/pricing">Upgrade to Premium</Link>
      </Button>
    </section>
  );
}
