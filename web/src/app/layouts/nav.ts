import {
  BriefcaseBusinessIcon,
  BlocksIcon,
  CreditCardIcon,
  FlaskConicalIcon,
  LayersIcon,
  LayoutDashboardIcon,
  NewspaperIcon,
  SettingsIcon,
  SignalIcon,
  SlidersHorizontalIcon,
} from "lucide-react";
import type { SidebarSection } from "@/components/sidebar-nav";

/**
 * The signed-in navigation for the current path. On /settings the Dashboard
 * entry links to /dashboard instead of /; everywhere else it links to /.
 */
export function buildNav(pathname: string, activeSignals: number): SidebarSection[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const on = (href: string) => path === href;
  return [
    {
      title: "Trading",
      items: [
        {
          label: "Dashboard",
          href: path === "/settings" ? "/dashboard" : "/",
          active: on("/") || on("/dashboard"),
          icon: LayoutDashboardIcon,
        },
        { label: "Signals", href: "/signals", active: on("/signals"), badge: activeSignals, icon: SignalIcon },
        { label: "News", href: "/news", active: on("/news"), icon: NewspaperIcon },
        { label: "Backtest", href: "/backtest", active: on("/backtest"), icon: FlaskConicalIcon },
        { label: "Strategy builder", href: "/strategy-builder", active: on("/strategy-builder"), icon: LayersIcon },
        { label: "Custom strategies", href: "/custom-strategies", active: on("/custom-strategies"), icon: BlocksIcon },
        { label: "Portfolio", href: "/portfolio", active: on("/portfolio"), icon: BriefcaseBusinessIcon },
      ],
    },
    {
      title: "Account",
      items: [
        { label: "Preferences", href: "/preferences", active: on("/preferences"), icon: SlidersHorizontalIcon },
        { label: "Settings", href: "/settings", active: on("/settings"), icon: SettingsIcon },
        { label: "Pricing", href: "/pricing", active: on("/pricing") || on("/subscribe"), icon: CreditCardIcon },
      ],
    },
  ];
}
