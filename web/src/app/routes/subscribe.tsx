import { useSearchParams } from "react-router";
import { useUser } from "@/features/auth/api/get-me";
import { trialDaysLeft } from "@/features/auth/lib/plan";
import { SubscribePage } from "@/features/billing/components/subscribe-page";
import { parseSubscribeParams } from "@/features/billing/lib/subscribe-params";
import { usePlans } from "@/features/marketing/api/get-plans";
import { usePageMeta } from "@/lib/page-meta";

/** /subscribe: the billing feature's payment page, given the plan catalogue (marketing) and the user's trial (auth). */
export default function SubscribeRoute() {
  const [searchParams] = useSearchParams();
  usePageMeta("Complete Your Subscription", "Pay for the plan you chose, monthly or yearly, in US dollars.");
  const params = parseSubscribeParams(searchParams);
  const { user } = useUser();
  const { data: catalogue } = usePlans();
  const plan = params.ok ? catalogue?.plans.find((p) => p.id === params.choice.plan) : undefined;
  return <SubscribePage params={params} plan={plan} trialDaysLeft={user ? trialDaysLeft(user, Date.now()) : null} />;
}
