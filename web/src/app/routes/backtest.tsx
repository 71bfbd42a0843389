import { FlaskConicalIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { usePageMeta } from "@/lib/page-meta";

export default function BacktestRoute() {
  usePageMeta("Strategy Backtesting", "See how each strategy would have performed on historical prices.");
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Strategy Backtesting"
        description="See how each strategy would have performed on historical prices."
      />
      <EmptyState
        icon={FlaskConicalIcon}
        title="No Backtest Results"
        description="Backtest results are listed here, always labelled as backtested rather than live performance."
      />
    </div>
  );
}
