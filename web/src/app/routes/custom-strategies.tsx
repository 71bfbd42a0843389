import { useUser } from "@/features/auth/api/get-me";
import { includesCustomStrategies } from "@/features/auth/lib/plan";
import { OverallResults } from "@/features/backtest/components/overall-results";
import { CustomStrategiesPage } from "@/features/custom-strategies/components/custom-strategies-page";
import type { OverallBacktest } from "@/lib/api/models";
import { usePageMeta } from "@/lib/page-meta";

export default function CustomStrategiesRoute() {
  usePageMeta(
    "Custom strategies",
    "Write your own options strategy from rules over indicators, see where it fires today, backtest it and save it.",
  );
  const { user } = useUser();
  return <CustomStrategiesPage unlocked={user ? includesCustomStrategies(user) : false} backtestResults={backtestResults} />;
}

/** A custom strategy's backtest reads as the backtest screen's overall run: figures, equity curve, trades. */
function backtestResults(result: OverallBacktest) {
  return <OverallResults result={result} />;
}
