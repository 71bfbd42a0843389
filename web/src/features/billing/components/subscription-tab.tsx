import { useQueryClient } from "@tanstack/react-query";
import { CheckIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { refreshAfterBillingChange } from "@/lib/api/billing";
import { errorMessage } from "@/lib/api/client";
import type { PlanChoice, PlanInfo, SubscriptionView } from "@/lib/api/models";
import { formatUsdCents } from "@/lib/format";
import { announceToOtherTabs } from "@/lib/live-events";
import { toast } from "@/lib/toast";
import { isPaying, useSubscription } from "../api/get-subscription";
import { useResumeSubscription } from "../api/resume-subscription";
import { cardLabel, describeSubscription, longDateOf, PLAN_NAMES, priceLabel } from "../lib/subscription";
import { BillingHistory } from "./billing-history";
import { CancelSubscriptionDialog } from "./cancel-subscription-dialog";
import { ChangePlanDialog } from "./change-plan-dialog";

function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid gap-0.5" data-testid={testId}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function Details({ subscription, info }: { subscription: SubscriptionView; info: PlanInfo | undefined }) {
  const billing = subscription.billing;
  const next = subscription.nextBilling;
  return (
    <dl className="grid gap-4 rounded-lg bg-muted/50 p-4 sm:grid-cols-2">
      <Detail label="Billing" testId="subscription-billing">
        {billing ? (
          <>
            {billing === "yearly" ? "Yearly" : "Monthly"}
            {info ? <span className="font-normal text-muted-foreground"> · {priceLabel(info, billing)}</span> : null}
          </>
        ) : (
          "—"
        )}
      </Detail>
      <Detail label="Next billing" testId="subscription-next-billing">
        {next ? (
          <>
            {longDateOf(next.date)} · <span className="tabular">{formatUsdCents(next.amountCents)}</span>
          </>
        ) : subscription.cancelAtPeriodEnd ? (
          "None: the subscription is cancelled"
        ) : (
          "—"
        )}
      </Detail>
      <Detail label="Card on file" testId="subscription-card">
        {subscription.card ? cardLabel(subscription.card) : "None"}
      </Detail>
      <Detail label="Credit balance" testId="subscription-credit">
        <span className="tabular">{formatUsdCents(subscription.creditCents)}</span>
        {subscription.creditCents > 0 ? <span className="font-normal text-muted-foreground"> · taken off your next invoice</span> : null}
      </Detail>
    </dl>
  );
}

function ResumeButton({ subscription }: { subscription: SubscriptionView }) {
  const mutation = useResumeSubscription();
  const resume = async () => {
    try {
      const next = await mutation.mutateAsync();
      const on = longDateOf(next.nextBilling?.date ?? next.currentPeriodEnd);
      toast({ title: "Subscription Resumed", description: `${PLAN_NAMES[next.plan]} renews${on ? ` on ${on}` : ""}.` });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Resume Failed",
        description: errorMessage(error, "The subscription could not be resumed. Please try again."),
      });
    }
  };
  return (
    <Button onClick={() => void resume()} disabled={mutation.isPending}>
      {mutation.isPending ? "Resuming..." : `Resume ${PLAN_NAMES[subscription.plan]}`}
    </Button>
  );
}

function CurrentPlan({
  subscription,
  plans,
  requestedChange,
  onRequestedChangeHandled,
}: {
  subscription: SubscriptionView;
  plans: PlanInfo[] | undefined;
  requestedChange?: PlanChoice | null;
  onRequestedChangeHandled?: () => void;
}) {
  const info = plans?.find((p) => p.id === subscription.plan);
  const name = info?.name ?? PLAN_NAMES[subscription.plan];
  const status = describeSubscription(subscription, name);
  const paying = isPaying(subscription);
  const canChange = paying && !subscription.cancelAtPeriodEnd;
  const showDetails = paying || subscription.card !== null || subscription.creditCents > 0;

  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Current Plan</CardTitle>
        <CardDescription>What your account has now, and what it is billed.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        <div className="grid gap-1.5">
          <p className="flex flex-wrap items-center gap-2 text-xl font-semibold" data-testid="subscription-plan">
            {name}
            <Badge variant={status.tone} data-testid="subscription-badge">
              {status.badge}
            </Badge>
          </p>
          <p className="text-sm" data-testid="subscription-status">
            {status.note}
          </p>
        </div>
        {showDetails ? <Details subscription={subscription} info={info} /> : null}
        <div className="flex flex-wrap gap-2">
          {!paying ? (
            <Button asChild>
              <Link to="/pricing">Upgrade Plan</Link>
            </Button>
          ) : null}
          {subscription.cancelAtPeriodEnd && paying ? <ResumeButton subscription={subscription} /> : null}
          {canChange && plans ? (
            // A change chosen on the pricing page (`?change=premium-yearly`) opens the dialog with it.
            <ChangePlanDialog
              subscription={subscription}
              plans={plans}
              initial={requestedChange}
              onInitialHandled={onRequestedChangeHandled}
            />
          ) : null}
          {canChange ? <CancelSubscriptionDialog subscription={subscription} /> : null}
          {paying ? (
            <Button asChild variant="ghost">
              <Link to="/pricing">Compare plans</Link>
            </Button>
          ) : null}
        </div>
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
  );
}

/** The plan card's placeholder. */
function SubscriptionSkeleton() {
  return (
    <Card>
      <CardContent className="grid gap-3 pt-5">
        <Skeleton className="h-7 w-40" />
        <Skeleton className="h-4 w-full max-w-md" />
        <Skeleton className="h-20 w-full" />
      </CardContent>
    </Card>
  );
}

/**
 * Subscription (GET /api/billing/subscription): the plan in force with its status (Trial with
 * days left, Active, Past due with the grace end, Cancels on <date>), billing, next charge,
 * card on file and credit; Cancel (asks first), Resume, Change plan, Upgrade Plan; and the
 * Billing History. Money is in US dollars, as billed. With `confirming` (back from the payment
 * provider) the subscription is read again until the payment shows.
 */
export function SubscriptionTab({
  plans,
  confirming = false,
  requestedChange = null,
  onRequestedChangeHandled,
}: {
  plans: PlanInfo[] | undefined;
  confirming?: boolean;
  requestedChange?: PlanChoice | null;
  onRequestedChangeHandled?: () => void;
}) {
  const queryClient = useQueryClient();
  const subscription = useSubscription({ confirming });
  const paidNow = subscription.data ? isPaying(subscription.data) : false;

  // The provider confirmed after the page opened (unpaid, then paid): the user (sidebar,
  // header) and the invoices follow.
  const seenUnpaid = useRef(false);
  useEffect(() => {
    if (!confirming || !subscription.data) return;
    if (!paidNow) seenUnpaid.current = true;
    else if (seenUnpaid.current) {
      seenUnpaid.current = false;
      void refreshAfterBillingChange(queryClient, subscription.data);
      announceToOtherTabs("billing");
    }
  }, [confirming, paidNow, subscription.data, queryClient]);

  return (
    <div className="grid gap-6">
      <QueryState
        query={subscription}
        loadingLabel="Loading your subscription"
        skeleton={<SubscriptionSkeleton />}
        errorTitle={(error) => errorMessage(error, "Failed to fetch your subscription")}
        errorLayout="banner"
      >
        {(current) => (
          <CurrentPlan
            subscription={current}
            plans={plans}
            requestedChange={requestedChange}
            onRequestedChangeHandled={onRequestedChangeHandled}
          />
        )}
      </QueryState>
      <BillingHistory />
    </div>
  );
}
