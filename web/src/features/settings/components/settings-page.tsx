import { BellIcon, CreditCardIcon, KeyRoundIcon, LineChartIcon, LogOutIcon, type LucideIcon, SettingsIcon, ShieldIcon } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { BILLING_INTERVALS, isOneOf, PAID_PLANS } from "@/lib/api/enums";
import type { PlanChoice, PlanInfo, User } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useMediaQuery } from "@/lib/use-media-query";
import { FETCH_SETTINGS_FAILED, useUserSettings } from "../api/get-user-settings";
import { DEFAULT_SETTINGS_TAB, parseSettingsTab, SETTINGS_TABS, type SettingsTab } from "../lib/tabs";
import { ApiKeysTab } from "./api-keys-tab";
import { GeneralTab } from "./general-tab";
import { NotificationsTab } from "./notifications-tab";
import { SecurityTab } from "./security-tab";
import { SubscriptionTab } from "./subscription-tab";
import { TradingTab } from "./trading-tab";

const TAB_ICONS: Record<SettingsTab, LucideIcon> = {
  general: SettingsIcon,
  trading: LineChartIcon,
  notifications: BellIcon,
  "api-keys": KeyRoundIcon,
  subscription: CreditCardIcon,
  security: ShieldIcon,
};

/** Back from paying (`?success=true`): the toast, shown once, before the parameter is removed. */
export const PAYMENT_SUCCESS_TOAST = {
  title: "Payment Successful",
  description: "Thank you for subscribing. Your plan and its invoice are shown below.",
};

/** The parameters Stripe adds to the return URL (`redirect_status`: succeeded, processing or failed). */
const STRIPE_RETURN_PARAMS = ["payment_intent", "payment_intent_client_secret", "redirect_status"];

/** The toast for a return from paying: Stripe's redirect can also come back unpaid or still processing. */
function paymentReturnToast(redirectStatus: string | null) {
  if (!redirectStatus || redirectStatus === "succeeded") return PAYMENT_SUCCESS_TOAST;
  if (redirectStatus === "processing") {
    return { title: "Payment Processing", description: "Your payment is being confirmed. The plan starts as soon as it is." };
  }
  return {
    variant: "destructive" as const,
    title: "Payment Failed",
    description: "The payment was not completed and nothing was charged. Choose a plan again to retry.",
  };
}

/** `?change=premium-yearly` (from the pricing page): the change of plan to offer. */
function parseChange(value: string | null): PlanChoice | null {
  const [plan, billing] = (value ?? "").split("-");
  return isOneOf(PAID_PLANS, plan) && isOneOf(BILLING_INTERVALS, billing) ? { plan, billing } : null;
}

/** Product spec, section 8: the settings page's logout failure. */
export const LOGOUT_FAILED = "Failed to log out. Please try again.";

type SettingsPageProps = {
  user: User;
  /** The plan catalogue (GET /api/plans): prices and API quotas; undefined while it loads. */
  plans: PlanInfo[] | undefined;
  /** The server's signal schedule in seconds (GET /api/public/stats), for the Auto-update copy. */
  signalRefreshSeconds?: number;
  /** Signs out; rejects when the server could not. */
  onLogout: () => Promise<void>;
  loggingOut: boolean;
  /** Shown in the API Keys tab below the keys (the webhooks card, from another feature). */
  apiKeysExtra?: ReactNode;
};

/** Toasts the spec's 'Failed to fetch preferences' once each time the settings fail to load. */
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
 * Settings (product spec, "Settings"): a tab list (vertical from 768 px, a scrolling row on
 * phones) with General, Trading, Notifications, API Keys, Subscription and Security, and a
 * logout button that goes to the home page afterwards. The open tab is in the URL
 * (`/settings?tab=api-keys`), so each can be linked to.
 */
export function SettingsPage({ user, plans, signalRefreshSeconds, onLogout, loggingOut, apiKeysExtra }: SettingsPageProps) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = params.get("success") === "true" ? "subscription" : parseSettingsTab(params.get("tab"));
  const vertical = useMediaQuery("(min-width: 768px)");
  useSettingsFetchToast();
  const listRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();

  // Back from the payment page or provider: toast once, show the subscription, drop `success`.
  // Stripe's confirmation may reach the server a moment later: the tab reads again until it shows.
  const [confirming] = useState(() => params.get("success") === "true");
  const successShown = useRef(false);
  useEffect(() => {
    if (params.get("success") !== "true" || successShown.current) return;
    successShown.current = true;
    toast(paymentReturnToast(params.get("redirect_status")));
    void refreshAfterBillingChange(queryClient);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("success");
        for (const name of STRIPE_RETURN_PARAMS) next.delete(name);
        next.set("tab", "subscription");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams, queryClient]);
  const requestedChange = parseChange(params.get("change"));
  const clearRequestedChange = () =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("change");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

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

  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <div className="grid gap-6">
      <PageHeader title="Settings" description="Your account, preferences, API access and security." />
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
          <TabsContent value="notifications">
            <NotificationsTab />
          </TabsContent>
          <TabsContent value="api-keys">
            <ApiKeysTab plans={plans} currentPlan={user.subscriptionPlan} origin={origin}>
              {apiKeysExtra}
            </ApiKeysTab>
          </TabsContent>
          <TabsContent value="subscription">
            <SubscriptionTab
              plans={plans}
              confirming={confirming}
              requestedChange={requestedChange}
              onRequestedChangeHandled={clearRequestedChange}
            />
          </TabsContent>
          <TabsContent value="security">
            <SecurityTab />
          </TabsContent>
        </div>
      </Tabs>
    </div>
  );
}
