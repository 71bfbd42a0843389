import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AutomationPanel } from "@/features/automation/components/automation-panel";
import { useUser } from "@/features/auth/api/get-me";
import { displayName, includesAiRecommendations } from "@/features/auth/lib/plan";
import { useStats } from "@/features/dashboard/api/get-stats";
import { AiAssistantPanel } from "@/features/dashboard/components/ai-assistant-panel";
import { DashboardHeader } from "@/features/dashboard/components/dashboard-header";
import { plansQueryOptions } from "@/features/marketing/api/get-plans";
import { InvestmentProfileCard } from "@/features/dashboard/components/investment-profile-card";
import { StatsGrid } from "@/features/dashboard/components/stats-grid";
import { MarketOverview } from "@/features/market/components/market-overview";
import { PriceAlertsCard } from "@/features/market/components/price-alerts-card";
import { SignalBrowser } from "@/features/signals/components/signal-browser";
import { SignalsHistoryTable } from "@/features/signals/components/signals-history-table";
import { EMPTY_FILTERS, type FilterState } from "@/features/signals/lib/filters";
import { ApiError } from "@/lib/api/client";
import { usePageMeta } from "@/lib/page-meta";

/** The dashboard lists 4 signals per page. */
export const DASHBOARD_PAGE_SIZE = 4;

/** The dashboard's fetch failure: "Failed to fetch signals: {status}", without the status when no response came. */
function fetchErrorText(error: Error): string {
  return error instanceof ApiError ? `Failed to fetch signals: ${error.status}` : "Failed to fetch signals";
}

/** When the figures were last computed by the server, else when the page opened. */
function useLastUpdate(): number {
  const [openedAt] = useState(() => Date.now());
  const { data } = useStats();
  const at = data ? Date.parse(data.lastUpdated) : Number.NaN;
  return Number.isNaN(at) ? openedAt : at;
}

/**
 * On a plan without AI recommendations: what the first plan with them adds (the catalogue's
 * `aiFeatures`), read only then. Empty while it loads or on a plan that has them.
 */
function useAiOffer(included: boolean): string[] {
  const { data } = useQuery({ ...plansQueryOptions(), enabled: !included });
  if (included || !data) return [];
  return data.plans.find((plan) => includesAiRecommendations(plan))?.aiFeatures ?? [];
}

export default function DashboardRoute() {
  usePageMeta("Dashboard", "Your signals, portfolio figures and investment profile at a glance.");
  const { user } = useUser();
  const updatedAt = useLastUpdate();
  const [filters, setFilters] = useState<FilterState>(EMPTY_FILTERS);
  const aiIncluded = user ? includesAiRecommendations(user) : false;
  const aiOffer = useAiOffer(aiIncluded);
  if (!user) return null;
  return (
    // One shrinkable column: wide tables scroll inside their cards instead of widening the page.
    <div className="grid grid-cols-1 gap-6">
      <DashboardHeader name={displayName(user)} updatedAt={updatedAt} />
      <StatsGrid />
      <SignalBrowser
        title="Live Signals"
        description="CALL, PUT and straddle signals with strike, expiry and strength."
        filters={filters}
        onFiltersChange={setFilters}
        pageSize={DASHBOARD_PAGE_SIZE}
        skeletons={DASHBOARD_PAGE_SIZE}
        fetchErrorText={fetchErrorText}
        gridClassName="sm:grid-cols-2"
      />
      <SignalsHistoryTable />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6 lg:col-span-2">
          <MarketOverview />
          <PriceAlertsCard />
        </div>
        <div className="grid min-w-0 content-start gap-6">
          <AutomationPanel canControl={user.isAdministrator} />
          <AiAssistantPanel included={aiIncluded} offer={aiOffer} />
          <InvestmentProfileCard profile={user} />
        </div>
      </div>
    </div>
  );
}
