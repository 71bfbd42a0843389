import { useUser } from "@/features/auth/api/get-me";
import { includesStrategyBuilder } from "@/features/auth/lib/plan";
import { StrategyBuilderPage } from "@/features/strategy-builder/components/strategy-builder-page";
import { usePageMeta } from "@/lib/page-meta";

export default function StrategyBuilderRoute() {
  usePageMeta("Strategy builder", "Build a multi-leg options position and see its payoff, breakevens, probability of profit and Greeks.");
  const { user } = useUser();
  return <StrategyBuilderPage unlocked={user ? includesStrategyBuilder(user) : false} />;
}
