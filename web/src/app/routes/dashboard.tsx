import { useState } from "react";
import { useUser } from "@/features/auth/api/get-me";
import { displayName } from "@/features/auth/lib/plan";
import { DashboardHeader } from "@/features/dashboard/components/dashboard-header";
import { InvestmentProfileCard } from "@/features/dashboard/components/investment-profile-card";
import { StatsGrid } from "@/features/dashboard/components/stats-grid";
import { SignalsPanel } from "@/features/signals/components/signals-panel";
import { usePageMeta } from "@/lib/page-meta";

export default function DashboardRoute() {
  usePageMeta("Dashboard", "Your signals, portfolio figures and investment profile at a glance.");
  const { user } = useUser();
  const [updatedAt] = useState(() => Date.now());
  if (!user) return null;
  return (
    <div className="grid gap-6">
      <DashboardHeader name={displayName(user)} updatedAt={updatedAt} />
      <StatsGrid />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <SignalsPanel />
        </div>
        <InvestmentProfileCard profile={user} />
      </div>
    </div>
  );
}
