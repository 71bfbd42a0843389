import { SecurityTab } from "@/features/account/components/security-tab";
import { ApiKeysTab } from "@/features/api-keys/components/api-keys-tab";
import { useUser } from "@/features/auth/api/get-me";
import { useLogout } from "@/features/auth/api/logout";
import { SubscriptionTab } from "@/features/billing/components/subscription-tab";
import { usePaymentReturn } from "@/features/billing/hooks/use-payment-return";
import { useRequestedPlanChange } from "@/features/billing/hooks/use-requested-plan-change";
import { usePlans } from "@/features/marketing/api/get-plans";
import { usePublicStats } from "@/features/marketing/api/get-public-stats";
import { ReportBrandCard } from "@/features/reports/components/report-brand-card";
import { SettingsPage } from "@/features/settings/components/settings-page";
import { TradingAccountsTab } from "@/features/trading-accounts/components/trading-accounts-tab";
import { WebhooksCard } from "@/features/webhooks/components/webhooks-card";
import type { User } from "@/lib/api/models";
import { usePageMeta } from "@/lib/page-meta";

/**
 * The settings page with the tabs other features give it: Trading accounts (trading-accounts:
 * opening, editing, switching and deleting accounts), Reports (reports: the brand on PDF
 * reports), API Keys (api-keys, with the webhooks
 * card below the keys), Subscription (billing, which also handles the return from paying) and
 * Security (account); the plan catalogue and the signal schedule come from marketing.
 */
function SettingsScreen({ user }: { user: User }) {
  const logout = useLogout();
  const plans = usePlans().data?.plans;
  const stats = usePublicStats();
  const { confirming } = usePaymentReturn();
  const { requestedChange, clear } = useRequestedPlanChange();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <SettingsPage
      user={user}
      signalRefreshSeconds={stats.data?.signalRefreshSeconds}
      onLogout={() => logout.mutateAsync()}
      loggingOut={logout.isPending}
      tradingAccounts={<TradingAccountsTab plans={plans} />}
      reports={<ReportBrandCard />}
      apiKeys={
        <ApiKeysTab
          plans={plans}
          currentPlan={user.subscriptionPlan}
          origin={origin}
          addressConfirmed={user.emailVerified}
          email={user.email}
        >
          <WebhooksCard plan={user.subscriptionPlan} addressConfirmed={user.emailVerified} email={user.email} />
        </ApiKeysTab>
      }
      subscription={
        <SubscriptionTab plans={plans} confirming={confirming} requestedChange={requestedChange} onRequestedChangeHandled={clear} />
      }
      security={<SecurityTab />}
    />
  );
}

/** /settings, for the signed-in user. */
export default function SettingsRoute() {
  usePageMeta("Settings", "Your account, preferences, report branding, API keys, subscription and security.");
  const { user } = useUser();
  return user ? <SettingsScreen user={user} /> : null;
}
