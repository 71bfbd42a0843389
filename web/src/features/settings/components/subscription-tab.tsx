import { CheckIcon, ReceiptTextIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { PlanInfo, User } from "@/lib/api/models";
import { days, PLAN_NAMES, STATUS_LABELS, trialDaysLeft } from "../lib/subscription";

const longDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });
const dateOf = (instant: string | null | undefined) => {
  if (!instant) return null;
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? null : longDate.format(date);
};
const count = new Intl.NumberFormat("en-US");

type Subscriber = Pick<User, "subscriptionPlan" | "subscriptionStatus" | "subscriptionExpiresAt">;

/** What the account's plan and status mean for the user, in a sentence. */
function statusNote(user: Subscriber, name: string, now: number): string {
  const end = dateOf(user.subscriptionExpiresAt);
  const left = trialDaysLeft(user, now);
  switch (user.subscriptionStatus) {
    case "trialing":
      return `${name} trial, ${days(left ?? 0)} left${end ? ` (until ${end})` : ""}. Afterwards the account moves to Free unless you subscribe.`;
    case "canceled":
      return end ? `Canceled: ${name} stays until ${end}, then the account moves to Free.` : `Canceled: the account moves to Free.`;
    case "past_due":
      return "The last payment did not go through. Update your payment to keep the plan.";
    default:
      if (user.subscriptionPlan === "free") return "The Free plan has no end date and no charges.";
      return end ? `Renews on ${end}.` : "Active.";
  }
}

/**
 * Subscription: the plan in force (GET /api/auth/me), its status, the trial's days left, what
 * the plan includes (GET /api/plans) and 'Upgrade Plan' to /pricing. Prices are in US dollars,
 * as billed. Billing history arrives with payments.
 */
export function SubscriptionTab({ user, plans, now = Date.now() }: { user: Subscriber; plans: PlanInfo[] | undefined; now?: number }) {
  const info = plans?.find((p) => p.id === user.subscriptionPlan);
  const name = info?.name ?? PLAN_NAMES[user.subscriptionPlan] ?? user.subscriptionPlan;
  const trialing = user.subscriptionStatus === "trialing";
  const top = user.subscriptionPlan === "premium" && !trialing;
  const price = info ? (info.monthlyPrice === 0 ? "$0, forever" : `$${count.format(info.monthlyPrice)}/month`) : null;

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="border-b pb-4">
          <CardTitle>Current Plan</CardTitle>
          <CardDescription>What your account has now.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 pt-5">
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div className="grid gap-1">
              <p className="flex flex-wrap items-center gap-2 text-xl font-semibold" data-testid="subscription-plan">
                {name}
                <Badge variant={user.subscriptionStatus === "past_due" ? "destructive" : "soft"}>
                  {STATUS_LABELS[user.subscriptionStatus] ?? user.subscriptionStatus}
                </Badge>
              </p>
              {price ? (
                <p className="text-sm text-muted-foreground">
                  {trialing ? `Free during the trial; then ${price} if you subscribe` : price}
                </p>
              ) : plans ? null : (
                <Skeleton className="h-4 w-32" />
              )}
            </div>
            <Button asChild variant={top ? "outline" : "default"}>
              <Link to="/pricing">{top ? "Compare Plans" : "Upgrade Plan"}</Link>
            </Button>
          </div>
          <p className="text-sm" data-testid="subscription-status">
            {statusNote(user, name, now)}
          </p>
          {info && info.features.length > 0 ? (
            <ul className="grid gap-1.5 text-sm sm:grid-cols-2" aria-label={`${name} includes`}>
              {[...info.features, ...info.aiFeatures].map((feature) => (
                <li key={feature} className="flex items-start gap-2">
                  <CheckIcon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
                  {feature}
                </li>
              ))}
            </ul>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="border-b pb-4">
          <CardTitle>Billing History</CardTitle>
          <CardDescription>Invoices and payments.</CardDescription>
        </CardHeader>
        <CardContent className="flex items-start gap-3 pt-5 text-sm">
          <ReceiptTextIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <p className="text-muted-foreground">
            Billing history arrives with card payments. No payment has been taken from this account.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
