import { useUser } from "@/features/auth/api/get-me";
import { includesStrategyBuilder } from "@/features/auth/lib/plan";
import { OptionChainPicker } from "@/features/market/components/option-chain";
import { StrategyBuilderPage } from "@/features/strategy-builder/components/strategy-builder-page";
import type { ChainPickerProps } from "@/lib/options";
import { usePageMeta } from "@/lib/page-meta";

export default function StrategyBuilderRoute() {
  usePageMeta("Strategy builder", "Build a multi-leg options position and see its payoff, breakevens, probability of profit and Greeks.");
  const { user } = useUser();
  return <StrategyBuilderPage unlocked={user ? includesStrategyBuilder(user) : false} chainPicker={chainPicker} />;
}

/** "Pick from chain" shows the market's option chain, its quotes as buttons. */
function chainPicker(props: ChainPickerProps) {
  return <OptionChainPicker {...props} />;
}
