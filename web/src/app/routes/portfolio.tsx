import { BriefcaseBusinessIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { usePageMeta } from "@/lib/page-meta";

export default function PortfolioRoute() {
  usePageMeta("Portfolio Analysis", "Performance and risk across automated and manual positions.");
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Portfolio Analysis"
        description="Performance and risk across positions opened from signals and the contracts you add yourself."
      />
      <EmptyState
        icon={BriefcaseBusinessIcon}
        title="No portfolio data available"
        description="You have no open or closed positions yet, so there is nothing to analyse."
      />
    </div>
  );
}
