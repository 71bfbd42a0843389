import {
  BellIcon,
  CreditCardIcon,
  FileTextIcon,
  KeyRoundIcon,
  LineChartIcon,
  LogOutIcon,
  type LucideIcon,
  SettingsIcon,
  ShieldIcon,
  WalletIcon,
} from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { User } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useMediaQuery } from "@/lib/use-media-query";
import { FETCH_SETTINGS_FAILED, useUserSettings } from "../api/get-user-settings";
import { DEFAULT_SETTINGS_TAB, parseSettingsTab, SETTINGS_TABS, type SettingsTab } from "../lib/tabs";
import { GeneralTab } from "./general-tab";
import { NotificationsTab } from "./notifications-tab";
import { PushCard } from "./push-card";
import { SmsCard } from "./sms-card";
import { TradingTab } from "./trading-tab";

const TAB_ICONS: Record<SettingsTab, LucideIcon> = {
  general: SettingsIcon,
  trading: LineChartIcon,
  accounts: WalletIcon,
  notifications: BellIcon,
  reports: FileTextIcon,
  "api-keys": KeyRoundIcon,
  subscription: CreditCardIcon,
  security: ShieldIcon,
};

/** The settings page's logout failure, toasted under "Error". */
export const LOGOUT_FAILED = "Failed to log out. Please try again.";

type SettingsPageProps = {
  user: User;
  /** The server's signal schedule in seconds (GET /api/public/stats), for the Auto-update copy. */
  signalRefreshSeconds?: number;
  /** Signs out; rejects when the server could not. */
  onLogout: () => Promise<void>;
  loggingOut: boolean;
  /** The Trading accounts, Reports, API Keys, Subscription and Security tabs: other features, composed in src/app. */
  tradingAccounts: ReactNode;
  reports: ReactNode;
  apiKeys: ReactNode;
  subscription: ReactNode;
  security: ReactNode;
};

/** Toasts "Error" with 'Failed to fetch preferences' once each time the settings fail to load. */
function useSettingsFetchToast() {
  const { isError, errorUpdatedAt } = useUserSettings();
  const shown = useRef(0);
  useEffect(() => {
    if (isError && errorUpdatedAt !== shown.current) {
      shown.current = errorUpdatedAt;
      toast({ variant: "destructive", title: "Error", description: FETCH_SETTINGS_FAILED });
    }
  }, [isError, errorUpdatedAt]);
}

/**
 * Settings: a tab list (vertical from 768 px, a scrolling row on
 * phones) with General, Trading, Trading accounts, Notifications, Reports, API Keys, Subscription and Security, and a
 * logout button that goes to the home page afterwards. The open tab is in the URL
 * (`/settings?tab=api-keys`), so each can be linked to.
 */
export function SettingsPage({
  user,
  signalRefreshSeconds,
  onLogout,
  loggingOut,
  tradingAccounts,
  reports,
  apiKeys,
  subscription,
  security,
}: SettingsPageProps) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = params.get("success") === "true" ? "subscription" : parseSettingsTab(params.get("tab"));
  const vertical = useMediaQuery("(min-width: 768px)");
  useSettingsFetchToast();
  const listRef = useRef<HTMLDivElement>(null);

  // On a phone the tabs are a scrolling row: keep the open one in view (a link may open the last).
  useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!list || !active || vertical) return;
    const box = list.getBoundingClientRect();
    const item = active.getBoundingClientRect();
    if (item.left < box.left || item.right > box.right) {
      list.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
    }
  }, [tab, vertical]);

  const selectTab = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("change");
        if (value === DEFAULT_SETTINGS_TAB) next.delete("tab");
        else next.set("tab", value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const logout = async () => {
    try {
      await onLogout();
    } catch {
      toast({ variant: "destructive", title: "Error", description: LOGOUT_FAILED });
      return;
    }
    toast({ title: "Logged out successfully" });
    navigate("/", { replace: true });
  };

  return (
    <div className="grid gap-6">
      <PageHeader title="Settings" description="Your account, preferences, report branding, API access and security." />
      <Tabs
        value={tab}
        onValueChange={selectTab}
        orientation={vertical ? "vertical" : "horizontal"}
        className="grid grid-cols-1 gap-6 md:grid-cols-[13rem_minmax(0,1fr)] md:items-start"
      >
        <div className="flex min-w-0 items-center gap-2 md:sticky md:top-20 md:flex-col md:items-stretch md:gap-3">
          <TabsList
            ref={listRef}
            aria-label="Settings sections"
            className="min-w-0 flex-1 justify-start md:flex-col md:items-stretch md:overflow-visible md:bg-transparent md:p-0"
          >
            {SETTINGS_TABS.map(({ value, label }) => {
              const Icon = TAB_ICONS[value];
              return (
                <TabsTrigger
                  key={value}
                  value={value}
                  className="md:justify-start md:px-3 md:py-2 md:data-[state=active]:bg-accent md:data-[state=active]:shadow-none"
                >
                  <Icon aria-hidden className="hidden sm:block" />
                  {label}
                </TabsTrigger>
              );
            })}
          </TabsList>
          <Button
            variant="outline"
            onClick={() => void logout()}
            disabled={loggingOut}
            className="shrink-0 md:justify-start"
            aria-label="Log out"
          >
            <LogOutIcon aria-hidden />
            <span className="hidden md:inline">{loggingOut ? "Logging out..." : "Log out"}</span>
          </Button>
        </div>

        <div className="min-w-0">
          <TabsContent value="general">
            <GeneralTab account={user} />
          </TabsContent>
          <TabsContent value="trading">
            <TradingTab signalRefreshSeconds={signalRefreshSeconds} />
          </TabsContent>
          <TabsContent value="accounts">{tradingAccounts}</TabsContent>
          <TabsContent value="notifications">
            <div className="grid gap-6">
              <NotificationsTab />
              <PushCard available={user.capabilities.includes("pushNotifications")} />
              <SmsCard available={user.capabilities.includes("smsNotifications")} />
            </div>
          </TabsContent>
          <TabsContent value="reports">{reports}</TabsContent>
          <TabsContent value="api-keys">{apiKeys}</TabsContent>
          <TabsContent value="subscription">{subscription}</TabsContent>
          <TabsContent value="security">{security}</TabsContent>
        </div>
      </Tabs>
    </div>
  );
}
