import { AlertCircleIcon, ArrowLeftIcon, CheckIcon, Loader2Icon } from "lucide-react";
import { lazy, type ReactNode, Suspense } from "react";
import { Link, useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { changePlanPath, PAYMENT_SUCCESS_PATH, paymentProviderName } from "@/lib/api/billing";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { CheckoutView, PlanChoice, PlanInfo } from "@/lib/api/models";
import { formatUsdCents } from "@/lib/format";
import { useCheckout } from "../api/start-checkout";
import type { SubscribeParams } from "../lib/subscribe-params";
import { TestCardForm } from "./test-card-form";

// Stripe's Payment Element and Stripe.js load only for a Stripe checkout.
const StripePaymentForm = lazy(() => import("./stripe-payment-form"));

const PLAN_NAMES: Record<PlanChoice["plan"], string> = { pro: "Pro", premium: "Premium" };
const PER: Record<PlanChoice["billing"], string> = { monthly: "month", yearly: "year" };

const pricingPath = (choice?: PlanChoice) => (choice?.billing === "yearly" ? "/pricing?billing=yearly" : "/pricing");

function BackToPlans({ choice }: { choice?: PlanChoice }) {
  return (
    <Link
      to={pricingPath(choice)}
      className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ArrowLeftIcon className="size-4" aria-hidden />
      Back to plans
    </Link>
  );
}

function Problem({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <Card className="mx-auto w-full max-w-xl">
      <CardHeader className="border-b pb-4">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      </CardHeader>
      <CardContent className="grid gap-4 pt-5">
        <div role="alert" className="flex items-start gap-2 text-sm" data-testid="subscribe-problem">
          <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive-strong" aria-hidden />
          <div className="grid gap-1">{children}</div>
        </div>
        <div className="flex flex-wrap gap-2">{actions}</div>
      </CardContent>
    </Card>
  );
}

function Summary({ checkout, name }: { checkout: CheckoutView; name: string }) {
  const amount = formatUsdCents(checkout.amountCents);
  const rows: [string, ReactNode][] = [
    ["Plan", name],
    ["Billing", checkout.billing === "yearly" ? "Yearly" : "Monthly"],
    [
      "Due today",
      <span key="amount" className="text-base font-semibold" data-testid="checkout-amount">
        {amount} <span className="text-xs font-normal text-muted-foreground">{checkout.currency.toUpperCase()}</span>
      </span>,
    ],
    ["Then", `${amount} every ${PER[checkout.billing]} until you cancel`],
  ];
  return (
    <dl className="grid gap-2.5 rounded-lg bg-muted/50 p-4 text-sm" data-testid="checkout-summary">
      {rows.map(([label, value]) => (
        <div key={label} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="ml-auto text-right font-medium tabular">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PaymentForm({ checkout, onPaid }: { checkout: CheckoutView; onPaid: () => void }) {
  const amount = formatUsdCents(checkout.amountCents);
  if (checkout.provider === "test") return <TestCardForm clientSecret={checkout.clientSecret} amount={amount} onPaid={onPaid} />;
  if (checkout.provider === "stripe") {
    return (
      <Suspense
        fallback={
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2Icon className="size-4 animate-spin" aria-hidden /> Loading the payment form...
          </p>
        }
      >
        <StripePaymentForm
          clientSecret={checkout.clientSecret}
          publishableKey={checkout.publishableKey}
          amount={amount}
          returnUrl={`${window.location.origin}${PAYMENT_SUCCESS_PATH}`}
        />
      </Suspense>
    );
  }
  return (
    <p role="alert" className="text-sm text-destructive-strong">
      This version of the app cannot take payments through “{checkout.provider}”. Nothing has been charged.
    </p>
  );
}

function Checkout({ choice, plan, trialDaysLeft }: { choice: PlanChoice; plan: PlanInfo | undefined; trialDaysLeft: number | null }) {
  const navigate = useNavigate();
  const checkout = useCheckout(choice);
  const name = plan?.name ?? PLAN_NAMES[choice.plan];

  if (checkout.isPending) {
    return (
      <div className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-center" aria-busy="true">
        <h1 className="sr-only">Subscribe to {name}</h1>
        <Loader2Icon className="size-7 animate-spin text-primary" aria-hidden />
        <p role="status" className="text-sm text-muted-foreground">
          Setting up your subscription...
        </p>
      </div>
    );
  }
  if (checkout.isError) {
    const paying = checkout.error instanceof ApiError && checkout.error.status === 409;
    return (
      <Problem
        title={paying ? "You already have a subscription" : "Your subscription could not be started"}
        actions={
          paying ? (
            <Button asChild>
              <Link to={changePlanPath(choice)}>Change plan in Settings</Link>
            </Button>
          ) : (
            <>
              <Button onClick={() => void checkout.refetch()}>Try again</Button>
              <Button asChild variant="outline">
                <Link to={pricingPath(choice)}>Back to plans</Link>
              </Button>
            </>
          )
        }
      >
        <p className="font-medium">
          {errorMessage(checkout.error, "The payment could not be set up. Check your connection and try again.")}
        </p>
        <p className="text-muted-foreground">Nothing has been charged.</p>
      </Problem>
    );
  }

  const data = checkout.data;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card className="min-w-0">
        <CardHeader className="border-b pb-4">
          <h1 className="text-xl leading-tight font-semibold tracking-tight">Complete Your Subscription</h1>
          <CardDescription>
            {name}, billed {data.billing}. Payment through {paymentProviderName(data.provider)}.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 pt-5">
          <Summary checkout={data} name={name} />
          {trialDaysLeft !== null ? (
            <p className="text-sm text-muted-foreground" data-testid="trial-note">
              Your Pro trial ({trialDaysLeft} {trialDaysLeft === 1 ? "day" : "days"} left) ends when you pay: {name} starts at once and is
              billed from today.
            </p>
          ) : null}
          <PaymentForm checkout={data} onPaid={() => navigate(PAYMENT_SUCCESS_PATH)} />
        </CardContent>
      </Card>
      <Card className="min-w-0">
        <CardHeader className="border-b pb-4">
          <h2 className="text-base leading-tight font-semibold">{name} includes</h2>
        </CardHeader>
        <CardContent className="grid gap-4 pt-5 text-sm">
          {plan ? (
            <ul className="grid gap-2">
              {[...plan.features, ...plan.aiFeatures].map((feature) => (
                <li key={feature} className="flex gap-2">
                  <CheckIcon className="mt-0.5 size-4 shrink-0 text-positive-strong" aria-hidden />
                  {feature}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="text-muted-foreground">
            Cancel any time in Settings: the plan stays until the end of the period you paid for. Prices are in US dollars.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * /subscribe?plan=pro|premium&billing=monthly|yearly: starts the checkout on load
 * ('Setting up your subscription...'), then 'Complete Your Subscription' with the plan, billing
 * and amount (US cents from the server) and the provider's form: Strikeline's own card form
 * for the test provider, Stripe's Payment Element for Stripe. Paid, it goes to Settings ›
 * Subscription with `success=true`. A failure to start is shown on the page, not toasted.
 */
export function SubscribePage({
  params,
  plan,
  trialDaysLeft,
}: {
  params: SubscribeParams;
  /** The chosen plan from the catalogue (its name and features); undefined while it loads. */
  plan: PlanInfo | undefined;
  /** Days left of the Pro trial, or null when the account is not trialing. */
  trialDaysLeft: number | null;
}) {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-5">
      <BackToPlans choice={params.ok ? params.choice : undefined} />
      {params.ok ? (
        <Checkout key={`${params.choice.plan}-${params.choice.billing}`} choice={params.choice} plan={plan} trialDaysLeft={trialDaysLeft} />
      ) : (
        <Problem
          title="This plan cannot be bought"
          actions={
            <Button asChild>
              <Link to="/pricing">Choose a plan</Link>
            </Button>
          }
        >
          {params.problems.map((problem) => (
            <p key={problem} className="font-medium">
              {problem}
            </p>
          ))}
        </Problem>
      )}
    </div>
  );
}
