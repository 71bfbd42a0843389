import { BotIcon, CheckIcon, HeadsetIcon, MinusIcon } from "lucide-react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { COMPANY } from "@/content/company";
import { changePlanPath, paymentProviderName, subscribePath } from "@/lib/api/billing";
import { ApiError } from "@/lib/api/client";
import { isPaidPlan } from "@/lib/api/enums";
import type { Plan, PlanCatalogue, PlanInfo, SubscriptionStatus } from "@/lib/api/models";
import { withNext } from "@/lib/redirect";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { type Billing, usePlans } from "../api/get-plans";
import { usePublicStats } from "../api/get-public-stats";
import { useSubscriptionForPricing } from "../api/get-subscription";
import { useStartSubscription } from "../api/start-subscription";
import { describeStats, formatCount, signalsPerDay } from "../lib/figures";
import { PlanCards } from "./plan-cards";

/** The signed-in account as the pricing page needs it; null for visitors. */
export type PricingAccount = {
  plan: Plan;
  status: SubscriptionStatus;
  /** Paying for Pro or Premium now: another plan is a change of plan, made in Settings › Subscription. */
  paying: boolean;
  /** How the paid plan is billed; null on a trial or Free, or while unknown. */
  billing: Billing | null;
  /** The description of the 'Already on Free Plan' toast, for an account that does not pay. */
  freePlanNote: string;
};

const PLAN_LABELS: Record<Plan, string> = { free: "Free", pro: "Pro", premium: "Premium" };

const longDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });

/** "January 27, 2027"; null without a (valid) instant. */
function longDateOf(instant: string | null | undefined): string | null {
  if (!instant) return null;
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? null : longDate.format(date);
}

/**
 * A paying customer's Free: there is no switch to Free, only a cancellation that takes effect
 * at the end of the paid period. Says so, with the date when the subscription is known, and
 * leads to Settings › Subscription, where the cancellation is made.
 */
function MoveToFreeDialog({ plan, variant }: { plan: Plan; variant: "default" | "outline" }) {
  const { data: subscription } = useSubscriptionForPricing({ enabled: true });
  const name = PLAN_LABELS[plan];
  const end = longDateOf(subscription?.plan === plan ? subscription.currentPeriodEnd : null);
  const cancelled = subscription?.plan === plan && subscription.cancelAtPeriodEnd;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button className="w-full" variant={variant} size="lg">
          Free Plan
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Moving to Free means cancelling</DialogTitle>
          <DialogDescription>
            {cancelled
              ? `Your ${name} subscription is already cancelled: it stays until ${end ?? "the end of the period you paid for"}, then your account moves to Free and nothing more is charged.`
              : `There is no separate switch to Free: you cancel your ${name} subscription. ${name} stays until the end of the period you have paid for${end ? `, ${end}` : ""}; then your account moves to Free and nothing more is charged.`}
          </DialogDescription>
        </DialogHeader>
        <p className="text-sm text-muted-foreground">
          {cancelled
            ? "You can resume it in Settings › Subscription before then."
            : "Cancel in Settings › Subscription; you can resume there any time before the period ends. Paid time is not refunded."}
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="ghost">Keep {name}</Button>
          </DialogClose>
          <Button asChild>
            <Link to={changePlanPath()}>Go to Settings › Subscription</Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Creating the subscription failed: the toast's title, with the server's reason below. */
export const START_SUBSCRIPTION_FAILED = "Failed to start subscription. Please try again.";

export function BillingToggle({
  billing,
  onChange,
  discountPercent,
}: {
  billing: Billing;
  onChange: (billing: Billing) => void;
  discountPercent: number | undefined;
}) {
  const option = (value: Billing, label: string) => (
    <button
      type="button"
      aria-pressed={billing === value}
      onClick={() => onChange(value)}
      className={cn(
        "inline-flex h-9 items-center gap-2 rounded-md px-4 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
        billing === value ? "bg-card text-foreground shadow-xs" : "text-muted-foreground hover:text-foreground",
      )}
    >
      {label}
      {value === "yearly" && discountPercent ? (
        <Badge variant="soft" className="px-2">
          Save {discountPercent}%
        </Badge>
      ) : null}
    </button>
  );
  return (
    <div role="group" aria-label="Billing period" className="inline-flex items-center gap-1 rounded-lg bg-muted p-1">
      {option("monthly", "Monthly")}
      {option("yearly", "Yearly")}
    </div>
  );
}

function AiFeatures({ plans }: { plans: PlanInfo[] }) {
  return (
    <section aria-labelledby="ai-heading" className="mt-24">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold text-primary">AI features</p>
        <h2 id="ai-heading" className="mt-2 text-2xl font-semibold tracking-tight sm:text-3xl">
          What the AI does on each plan
        </h2>
        <p className="mt-3 text-muted-foreground">
          Every AI analysis names the analyser that produced it: the built-in financial-sentiment analyser or a connected language model. AI
          output is information, not financial advice.
        </p>
      </div>
      <div className="mt-10 grid gap-5 md:grid-cols-3">
        {plans.map((plan) => (
          <div key={plan.id} className="rounded-xl border bg-card p-6">
            <h3 className="flex items-center gap-2 font-semibold">
              <BotIcon className="size-4 text-primary" aria-hidden />
              {plan.name}
            </h3>
            {plan.aiFeatures.length === 0 ? (
              <p className="mt-4 flex gap-2 text-sm text-muted-foreground">
                <MinusIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                No AI features. Upgrade to Pro for AI trade recommendations.
              </p>
            ) : (
              <ul className="mt-4 space-y-2.5">
                {plan.aiFeatures.map((feature) => (
                  <li key={feature} className="flex gap-2 text-sm">
                    <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                    {feature}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

function responseText(response: string): string {
  return /^\d+\s*(minute|hour|day)/.test(response) ? `Response within ${response}` : `Available ${response}`;
}

function SupportLevels({ plans }: { plans: PlanInfo[] }) {
  return (
    <section aria-labelledby="support-heading" className="mt-24">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold text-primary">Support and limits</p>
        <h2 id="support-heading" className="mt-2 text-2xl font-semibold tracking-tight sm:text-3xl">
          Support levels and limits
        </h2>
        <p className="mt-3 text-muted-foreground">
          Limits are enforced by the server exactly as listed here. Support answers within {COMPANY.emailResponse}.
        </p>
      </div>
      <div className="mt-10 overflow-x-auto rounded-xl border bg-card" tabIndex={0} role="region" aria-label="Plan comparison">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="bg-muted/60">
            <tr>
              <th scope="col" className="px-5 py-3 font-semibold">
                <span className="sr-only">Feature</span>
              </th>
              {plans.map((plan) => (
                <th key={plan.id} scope="col" className="px-5 py-3 font-semibold">
                  {plan.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            <tr>
              <th scope="row" className="px-5 py-3 font-medium text-muted-foreground">
                <span className="inline-flex items-center gap-2">
                  <HeadsetIcon className="size-4" aria-hidden />
                  Support
                </span>
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="px-5 py-3">
                  {plan.support}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className="px-5 py-3 font-medium text-muted-foreground">
                Response time
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="px-5 py-3">
                  {responseText(plan.supportResponse)}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className="px-5 py-3 font-medium text-muted-foreground">
                Signals
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="px-5 py-3 tabular">
                  {signalsPerDay(plan.signalsPerDay)}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className="px-5 py-3 font-medium text-muted-foreground">
                API requests
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="px-5 py-3 tabular">
                  {formatCount(plan.apiRequestsPerHour)} per hour
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Faq({ catalogue }: { catalogue: PlanCatalogue }) {
  const { data: stats } = usePublicStats();
  const winRate = stats ? describeStats(stats).find((f) => f.id === "win-rate") : undefined;
  const pro = catalogue.plans.find((p) => p.id === "pro");
  const items = [
    {
      q: "How does the free trial work?",
      a: `Every new account gets ${catalogue.trialDays} days of Pro with no credit card. When the trial ends the account moves to Free unless you choose a plan, and nothing is charged.`,
    },
    {
      q: "How does yearly billing work?",
      a: `Yearly plans cost ${catalogue.yearlyDiscountPercent}% less: twelve months at the monthly price, less ${catalogue.yearlyDiscountPercent}%, rounded down to the dollar.${
        pro ? ` Pro is $${formatCount(pro.yearlyPrice)} a year instead of $${formatCount(pro.monthlyPrice * 12)}.` : ""
      }`,
    },
    {
      q: "Can I cancel at any time?",
      a: "Yes, from Settings. Cancellation takes effect at the end of the billing period, and you keep your plan until then. Partial months are not refunded.",
    },
    {
      q: "What counts toward my signals per day?",
      a: "Each day you see your plan's number of signals, strongest first; the rest are shown locked. Signals you generate on demand count toward the same allowance.",
    },
    {
      q: "How accurate are the signals?",
      a: `We publish the win rate of closed signals, with its period, and only once enough signals have closed to mean something. We do not quote accuracy figures we cannot back up.${
        winRate
          ? ` Right now: ${winRate.value ?? winRate.empty.toLowerCase()} (${winRate.detail.charAt(0).toLowerCase()}${winRate.detail.slice(1)}).`
          : ""
      }`,
    },
    {
      q: "Will prices change?",
      a: `If they do, we email you at least ${COMPANY.priceChangeNoticeDays} days before a new price applies to your subscription, so you can cancel first.`,
    },
    {
      q: "How do I pay?",
      a: "By card, through our payment provider. Card details go directly to the provider and are never stored on Strikeline's servers. Subscriptions renew automatically until cancelled.",
    },
    {
      q: "Is Strikeline financial advice?",
      a: "No. Signals, analysis and recommendations are information to help you decide. Options trading involves substantial risk, and you can lose the money you invest.",
    },
  ];
  return (
    <section aria-labelledby="faq-heading" className="mx-auto mt-24 max-w-3xl">
      <h2 id="faq-heading" className="text-center text-2xl font-semibold tracking-tight sm:text-3xl">
        Frequently asked questions
      </h2>
      <Accordion type="single" collapsible className="mt-8 rounded-xl border bg-card px-5">
        {items.map((item) => (
          <AccordionItem key={item.q} value={item.q}>
            <AccordionTrigger>{item.q}</AccordionTrigger>
            <AccordionContent>{item.a}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        More questions? See the{" "}
        <Link to="/help/account-billing" className="font-medium text-primary underline-offset-4 hover:underline">
          account and billing help
        </Link>{" "}
        or{" "}
        <Link to="/#contact" className="font-medium text-primary underline-offset-4 hover:underline">
          contact us
        </Link>
        .
      </p>
    </section>
  );
}

/**
 * Pricing: monthly/yearly toggle, the three plans from the server's catalogue
 * (docs/decisions.md#2-one-plan-catalogue), AI features, support levels and an FAQ. Visitors are
 * sent to /register (and from a paid plan on to /subscribe); signed in, a paid plan starts the
 * subscription and opens /subscribe. A subscriber's page opens on their billing period with
 * their plan marked "Current plan"; another plan or period is a change made in Settings ›
 * Subscription, and Free explains that moving to Free means cancelling at the end of the paid
 * period. An account that does not pay gets the 'Already on Free Plan' toast on Free.
 */
export function PricingPage({ account }: { account: PricingAccount | null }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get("billing");
  // A subscriber's own period unless another one was asked for.
  const billing: Billing = asked === "yearly" || asked === "monthly" ? asked : (account?.billing ?? "monthly");
  const { data: catalogue } = usePlans();

  const setBilling = (value: Billing) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        // Always said outright: a period left to the default would follow the subscriber's own
        // period once their subscription has loaded, undoing a click made before it had.
        next.set("billing", value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  /** The signed-in account's plan, marked: "Current plan" (with its period when another is shown), or its trial. */
  const badge = (plan: PlanInfo) => {
    if (!account || plan.id !== account.plan) return null;
    if (account.status === "trialing") {
      return (
        <Badge variant="soft" data-testid="current-plan-badge">
          Your trial
        </Badge>
      );
    }
    if (plan.id !== "free" && !account.paying) return null;
    const other = account.paying && account.billing !== null && account.billing !== billing;
    return (
      <Badge variant="soft" data-testid="current-plan-badge">
        {other ? `Current plan, billed ${account.billing}` : "Current plan"}
      </Badge>
    );
  };

  const navigate = useNavigate();
  const start = useStartSubscription();
  const starting = start.isPending ? start.variables : undefined;

  /** A paid plan, signed in and not paying: create the subscription, then /subscribe to pay for it. */
  const choose = (plan: PlanInfo) => {
    if (!isPaidPlan(plan.id)) return;
    const choice = { plan: plan.id, billing };
    start.mutate(choice, {
      onSuccess: (checkout) => {
        toast({
          title: `Redirecting to ${paymentProviderName(checkout.provider)}`,
          description: `Complete your ${plan.name} subscription, billed ${billing}.`,
        });
        navigate(subscribePath(choice));
      },
      onError: (error) => {
        const detail = error instanceof ApiError ? error.problem?.detail : undefined;
        toast({ variant: "destructive", title: START_SUBSCRIPTION_FAILED, description: detail || undefined });
      },
    });
  };

  const action = (plan: PlanInfo) => {
    const variant = plan.mostPopular ? "default" : "outline";
    if (plan.monthlyPrice === 0) {
      if (!account) {
        return (
          <Button asChild className="w-full" variant={variant} size="lg">
            <Link to="/register">Get Started Free</Link>
          </Button>
        );
      }
      // Paying: Free is reached by cancelling, never "already on Free".
      if (account.paying) return <MoveToFreeDialog plan={account.plan} variant={variant} />;
      return (
        <Button
          className="w-full"
          variant={variant}
          size="lg"
          onClick={() => toast({ title: "Already on Free Plan", description: account.freePlanNote })}
        >
          {account.plan === "free" ? "Current Plan" : "Free Plan"}
        </Button>
      );
    }
    if (!isPaidPlan(plan.id)) return null;
    const choice = { plan: plan.id, billing };
    if (!account) {
      // Signed up, the visitor comes straight back to pay for the plan they chose.
      return (
        <Button asChild className="w-full" variant={variant} size="lg">
          <Link to={withNext("/register", subscribePath(choice))}>Start with {plan.name}</Link>
        </Button>
      );
    }
    if (account.paying) {
      if (account.plan === plan.id && (account.billing === billing || account.billing === null)) {
        return (
          <Button className="w-full" variant="outline" size="lg" disabled>
            Current Plan
          </Button>
        );
      }
      // Paying already: another plan or period is a prorated change, made in Settings.
      return (
        <Button asChild className="w-full" variant={variant} size="lg">
          <Link to={changePlanPath(choice)}>{account.plan === plan.id ? `Switch to ${billing}` : `Change to ${plan.name}`}</Link>
        </Button>
      );
    }
    const pending = starting?.plan === plan.id && starting.billing === billing;
    return (
      <Button className="w-full" variant={variant} size="lg" disabled={start.isPending} onClick={() => choose(plan)}>
        {pending ? "Starting..." : `Choose ${plan.name}`}
      </Button>
    );
  };

  return (
    <div className="min-w-0">
      <div className="flex justify-center">
        <BillingToggle billing={billing} onChange={setBilling} discountPercent={catalogue?.yearlyDiscountPercent} />
      </div>
      <div className="mt-12">
        <PlanCards billing={billing} action={action} badge={badge} />
      </div>
      {catalogue ? (
        <>
          <AiFeatures plans={catalogue.plans} />
          <SupportLevels plans={catalogue.plans} />
          <Faq catalogue={catalogue} />
        </>
      ) : null}
    </div>
  );
}
