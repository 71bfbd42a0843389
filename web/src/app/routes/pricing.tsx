import { PageHeader } from "@/components/page-header";
import { useUser } from "@/features/auth/api/get-me";
import { trialDaysLeft } from "@/features/auth/lib/plan";
import { type PricingAccount, PricingPage } from "@/features/marketing/components/pricing-page";
import { useSubscription } from "@/features/billing/api/get-subscription";
import type { User } from "@/lib/api/models";
import { usePageMeta } from "@/lib/page-meta";

/** What 'Already on Free Plan' adds for this account: every account includes Free. */
function freePlanNote(user: User): string {
  const days = trialDaysLeft(user, Date.now());
  if (days !== null) {
    return `Every account includes Free. Your Pro trial ends in ${days} ${days === 1 ? "day" : "days"}; then your account moves to Free automatically.`;
  }
  if (user.subscriptionPlan === "free") return "Your account is on the Free plan. Choose Pro or Premium to upgrade.";
  return "Every account includes Free. To move to Free, cancel your subscription in Settings; it ends with the billing period.";
}

export default function PricingRoute() {
  const { user } = useUser();
  usePageMeta(
    "Plans and Pricing",
    "Free, Pro and Premium plans for options traders: signals per day, backtests, AI features, API quotas and support. Monthly or yearly, save 20%.",
  );
  // How a paid plan is billed is the subscription's (the user has the plan and status only).
  const subscription = useSubscription({ enabled: Boolean(user) });
  const account: PricingAccount | null = user
    ? {
        plan: user.subscriptionPlan,
        status: user.subscriptionStatus,
        paying: user.subscriptionPlan !== "free" && (user.subscriptionStatus === "active" || user.subscriptionStatus === "past_due"),
        billing: subscription.data?.plan === user.subscriptionPlan ? (subscription.data.billing ?? null) : null,
        freePlanNote: freePlanNote(user),
      }
    : null;

  if (account) {
    return (
      <div className="grid grid-cols-1 gap-8">
        <PageHeader
          title="Plans and Pricing"
          description="Pick the plan that fits how you trade. Cancel any time; cancellation applies at the end of the billing period."
        />
        <PricingPage account={account} />
      </div>
    );
  }
  return (
    <section className="px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="mx-auto max-w-7xl">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-primary">Pricing</p>
          <h1 className="mt-2 text-4xl font-semibold tracking-tight">Plans and Pricing</h1>
          <p className="mt-4 text-muted-foreground">
            Every account starts with a Pro trial, no credit card. Afterwards stay on Free or pick a plan. Cancel any time; cancellation
            applies at the end of the billing period.
          </p>
        </div>
        <div className="mt-10">
          <PricingPage account={null} />
        </div>
      </div>
    </section>
  );
}
