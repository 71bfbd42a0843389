import { useUser } from "@/features/auth/api/get-me";
import { useLogout } from "@/features/auth/api/logout";
import { usePlans } from "@/features/marketing/api/get-plans";
import { usePublicStats } from "@/features/marketing/api/get-public-stats";
import { SettingsPage } from "@/features/settings/components/settings-page";
import { WebhooksCard } from "@/features/webhooks/components/webhooks-card";
import { usePageMeta } from "@/lib/page-meta";

/**
 * /settings: the settings feature's page, given the signed-in user (auth), the plan
 * catalogue and the signal schedule (marketing), signing out (auth) and, in the API Keys
 * tab, the webhooks card (webhooks).
 */
export default function SettingsRoute() {
  usePageMeta("Settings", "Your account, preferences, API keys, subscription and security.");
  const { user } = useUser();
  const logout = useLogout();
  const plans = usePlans();
  const stats = usePublicStats();
  if (!user) return null;
  return (
    <SettingsPage
      user={user}
      plans={plans.data?.plans}
      signalRefreshSeconds={stats.data?.signalRefreshSeconds}
      onLogout={() => logout.mutateAsync()}
      loggingOut={logout.isPending}
      apiKeysExtra={<WebhooksCard plan={user.subscriptionPlan} />}
    />
  );
}
