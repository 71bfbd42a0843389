import { ActivityIcon, GaugeIcon, TargetIcon, WalletIcon } from "lucide-react";
import { NO_VALUE } from "@/lib/format";
import { StatCard, type StatCardProps } from "./stat-card";

/**
 * The four dashboard figures. Until the stats API reports values and daily
 * snapshots exist to compare with, each value and change reads "—".
 */
const CARDS: StatCardProps[] = [
  { title: "Active Signals", value: NO_VALUE, change: NO_VALUE, changeType: "neutral", icon: ActivityIcon, description: "vs yesterday" },
  { title: "Win Rate", value: NO_VALUE, change: NO_VALUE, changeType: "neutral", icon: TargetIcon, description: "this week" },
  { title: "Avg Confidence", value: NO_VALUE, change: NO_VALUE, changeType: "neutral", icon: GaugeIcon, description: "from last week" },
  { title: "Portfolio Value", value: NO_VALUE, change: NO_VALUE, changeType: "neutral", icon: WalletIcon, description: "today" },
];

export function StatsGrid() {
  return (
    <section aria-label="Key figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {CARDS.map((card) => (
        <StatCard key={card.title} {...card} />
      ))}
    </section>
  );
}
