import { ActivityIcon, GaugeIcon, TargetIcon, WalletIcon } from "lucide-react";
import { QueryError } from "@/components/query-state";
import type { Change, DashboardStats } from "@/lib/api/models";
import { formatCount, formatCurrency, formatPercentOrDash, formatScore, formatSignedPercent, NO_VALUE, signOf } from "@/lib/format";
import { useStats } from "../api/get-stats";
import { StatCard, type StatCardProps } from "./stat-card";

/** A change as shown: "+12.0%", "-1.2 pts", or "—" when there is nothing to compare with. */
export function changeText(change: Change | undefined): Pick<StatCardProps, "change" | "changeType"> {
  if (!change || change.value == null || !Number.isFinite(change.value)) return { change: NO_VALUE, changeType: "neutral" };
  const text = change.unit === "points" ? `${formatSignedPercent(change.value).replace("%", "")} pts` : formatSignedPercent(change.value);
  return { change: text, changeType: signOf(change.value) };
}

/** The four cards from GET /api/stats; every figure and change is the server's, "—" when it has none. */
export function statCards(stats: DashboardStats | undefined): Omit<StatCardProps, "loading">[] {
  const c = stats?.changes;
  return [
    {
      title: "Active Signals",
      value: stats ? formatCount(stats.activeSignals) : NO_VALUE,
      icon: ActivityIcon,
      description: c?.activeSignals.label ?? "vs yesterday",
      ...changeText(c?.activeSignals),
    },
    {
      title: "Win Rate",
      value: stats ? formatPercentOrDash(stats.winRate) : NO_VALUE,
      icon: TargetIcon,
      description: c?.winRate.label ?? "this week",
      ...changeText(c?.winRate),
    },
    {
      // The average strength of the active signals: a heuristic score out of 100, not a
      // probability, so it is never shown as a percentage (docs/decisions.md#20-a-percentage-is-a-probability).
      title: "Avg Strength",
      value: stats ? formatScore(stats.avgConfidence) : NO_VALUE,
      icon: GaugeIcon,
      description: c?.avgConfidence.label ?? "from last week",
      ...changeText(c?.avgConfidence),
    },
    {
      title: "Portfolio Value",
      value: stats ? formatCurrency(stats.portfolioValue) : NO_VALUE,
      icon: WalletIcon,
      description: c?.portfolioValue.label ?? "today",
      ...changeText(c?.portfolioValue),
    },
  ];
}

export function StatsGrid() {
  const query = useStats();
  return (
    <section aria-label="Key figures" className="grid gap-3">
      {query.isError ? (
        <QueryError title="Failed to fetch stats" layout="banner" className="py-2.5" onRetry={() => void query.refetch()} />
      ) : null}
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {statCards(query.data).map((card) => (
          <StatCard key={card.title} {...card} loading={query.isPending} />
        ))}
      </div>
    </section>
  );
}
