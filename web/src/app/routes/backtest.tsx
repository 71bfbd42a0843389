import { useUser } from "@/features/auth/api/get-me";
import { includesStrategyBuilder } from "@/features/auth/lib/plan";
import { BacktestPage } from "@/features/backtest/components/backtest-page";
import type { Plan } from "@/lib/api/models";
import { usePageMeta } from "@/lib/page-meta";

/** The plan that decides what a backtest may cover (the server enforces it; the page explains it). */
function backtestPlan(plan: Plan | undefined): Plan {
  return plan ?? "free";
}

export default function BacktestRoute() {
  usePageMeta("Strategy Backtesting", "See how each strategy would have performed on historical prices.");
  const { user } = useUser();
  return <BacktestPage plan={backtestPlan(user?.subscriptionPlan)} multiLeg={user ? includesStrategyBuilder(user) : false} />;
}
