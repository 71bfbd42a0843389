import { useUser } from "@/features/auth/api/get-me";
import { type BacktestPlan, BacktestPage } from "@/features/backtest/components/backtest-page";
import { usePageMeta } from "@/lib/page-meta";

/** The plan that decides what a backtest may cover (the server enforces it; the page explains it). */
function backtestPlan(plan: string | undefined): BacktestPlan {
  return plan === "pro" || plan === "premium" ? plan : "free";
}

export default function BacktestRoute() {
  usePageMeta("Strategy Backtesting", "See how each strategy would have performed on historical prices.");
  const { user } = useUser();
  return <BacktestPage plan={backtestPlan(user?.subscriptionPlan)} />;
}
