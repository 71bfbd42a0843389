import { AlertCircleIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { QueryState } from "@/components/query-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError, errorMessage } from "@/lib/api/client";
import { BILLING_INTERVALS, PAID_PLANS } from "@/lib/api/enums";
import type { Plan, PlanChoice, PlanInfo, SubscriptionView } from "@/lib/api/models";
import { formatUsdCents } from "@/lib/format";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useChangePlan } from "../api/change-plan";
import { type ChangePreview, useChangePreview } from "../api/get-change-preview";
import { cardLabel, PLAN_NAMES, priceLabel, shortDateOf } from "../lib/subscription";

const key = (choice: { plan: Plan; billing: PlanChoice["billing"] }) => `${choice.plan}-${choice.billing}`;
const PERIOD: Record<PlanChoice["billing"], string> = { monthly: "Monthly", yearly: "Yearly" };

type Option = { choice: PlanChoice; name: string; price: string };

/** Pro and Premium, monthly and yearly, as the catalogue prices them. */
function options(plans: PlanInfo[]): Option[] {
  return PAID_PLANS.flatMap((id) => {
    const plan = plans.find((p) => p.id === id);
    if (!plan) return [];
    return BILLING_INTERVALS.map((billing) => ({ choice: { plan: id, billing }, name: plan.name, price: priceLabel(plan, billing) }));
  });
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[8.5rem_1fr] sm:gap-3" data-testid={testId}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

const muted = "font-normal text-muted-foreground";

/**
 * What the change costs, as the server computed it: charged today (or nothing), the credit
 * kept, and what the next period charges and when. US dollars, as billed.
 */
function PreviewFigures({ preview, card }: { preview: ChangePreview; card: string }) {
  const next = shortDateOf(preview.periodEnd);
  const per = preview.billing === "yearly" ? "year" : "month";
  const today = preview.chargedTodayCents;
  // What today's charge is made of, when it is more than the change itself.
  const makeUp: string[] = [];
  if (preview.owedFirstCents > 0) makeUp.push(`${formatUsdCents(preview.owedFirstCents)} owed for your current plan first`);
  if (preview.creditAppliedCents > 0) makeUp.push(`${formatUsdCents(preview.creditAppliedCents)} of your credit used`);
  return (
    <dl className="grid gap-3 text-sm">
      <Row label="Today" testId="preview-today">
        {today > 0 ? (
          <>
            <span className="tabular">{formatUsdCents(today)}</span> charged to {card}
            {makeUp.length > 0 ? <span className={cn("block", muted)}>{makeUp.join("; ")}</span> : null}
          </>
        ) : (
          <>
            Nothing to pay today
            {preview.creditAppliedCents > 0 ? (
              <span className={cn("block", muted)}>{formatUsdCents(preview.creditAppliedCents)} of your credit pays for it</span>
            ) : null}
          </>
        )}
      </Row>
      <Row label="Credit kept" testId="preview-credit">
        <span className="tabular">{formatUsdCents(preview.creditAfterCents)}</span>
        {preview.creditAfterCents > 0 ? <span className={muted}> · taken off your next invoices</span> : null}
      </Row>
      <Row label="Next period" testId="preview-next">
        {preview.nextChargeCents > 0 ? (
          <>
            Then <span className="tabular">{formatUsdCents(preview.nextChargeCents)}</span> on {next}
            {preview.nextChargeCents < preview.priceCents ? (
              <span className={cn("block", muted)}>
                {formatUsdCents(preview.priceCents)}/{per} less {formatUsdCents(preview.priceCents - preview.nextChargeCents)} of credit
              </span>
            ) : null}
          </>
        ) : (
          <>
            Your credit of <span className="tabular">{formatUsdCents(preview.creditAfterCents)}</span> covers it
            <span className={cn("block", muted)}>
              The {formatUsdCents(preview.priceCents)} due on {next} is taken from your credit; nothing is charged to your card.
            </span>
          </>
        )}
      </Row>
      {preview.provider === "stripe" ? (
        <p className="text-xs text-muted-foreground">Billed by Stripe, which prorates the change by the same rule; its invoice is final.</p>
      ) : null}
    </dl>
  );
}

function PreviewSkeleton() {
  return (
    <div className="grid gap-3">
      <Skeleton className="h-5 w-3/4" />
      <Skeleton className="h-5 w-2/3" />
      <Skeleton className="h-5 w-4/5" />
    </div>
  );
}

/** The figures of the chosen change, or what to do before there are any. */
function Preview({ choice, card, query }: { choice: Option | null; card: string; query: ReturnType<typeof useChangePreview> }) {
  return (
    <section
      aria-label="What this change costs"
      aria-live="polite"
      className="grid min-h-24 gap-2 rounded-lg bg-muted/50 p-4"
      data-testid="change-preview"
    >
      {choice ? (
        <>
          <h3 className="text-sm font-semibold">
            {choice.name} · {PERIOD[choice.choice.billing]}
          </h3>
          <QueryState
            query={query}
            loadingLabel="Working out what this change costs"
            skeleton={<PreviewSkeleton />}
            errorTitle="Could not work out what this change costs"
            errorDetail={(error) => errorMessage(error, "Try again in a moment.")}
          >
            {(preview) => <PreviewFigures preview={preview} card={card} />}
          </QueryState>
        </>
      ) : (
        <p className="self-center text-sm text-muted-foreground">
          Choose a plan and billing period to see what it costs today and from the next period.
        </p>
      )}
    </section>
  );
}

/** The dialog's form; mounted each time the dialog opens, with nothing chosen (or the change asked for). */
function ChangePlanForm({
  subscription,
  plans,
  initial,
  close,
}: {
  subscription: SubscriptionView;
  plans: PlanInfo[];
  initial?: PlanChoice | null;
  close: () => void;
}) {
  const id = useId();
  const mutation = useChangePlan();
  const list = options(plans);
  const current = subscription.billing ? key({ plan: subscription.plan, billing: subscription.billing }) : null;
  // Nothing is chosen for the customer; a change picked on the pricing page is theirs already.
  const initialKey = initial && key(initial) !== current && list.some((o) => key(o.choice) === key(initial)) ? key(initial) : "";
  const [selected, setSelected] = useState(initialKey);
  const [failure, setFailure] = useState<string | null>(null);
  const option = list.find((o) => key(o.choice) === selected) ?? null;
  const preview = useChangePreview(option?.choice ?? null);
  const card = subscription.card ? cardLabel(subscription.card) : "the card on file";

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!option || !preview.data) return;
    setFailure(null);
    try {
      await mutation.mutateAsync(option.choice);
    } catch (error) {
      const declined = error instanceof ApiError && error.status === 402;
      const message = errorMessage(error, "The plan could not be changed. Please try again.");
      setFailure(message);
      toast({ variant: "destructive", title: declined ? "Payment Failed" : "Plan Change Failed", description: message });
      return;
    }
    toast({ title: "Plan Changed", description: `You're now on ${option.name}, billed ${option.choice.billing}.` });
    close();
  };

  const charge = preview.data?.chargedTodayCents ?? 0;
  return (
    <>
      <DialogHeader>
        <DialogTitle>Change plan</DialogTitle>
        <DialogDescription>
          You are on {PLAN_NAMES[subscription.plan]}
          {subscription.billing ? `, billed ${subscription.billing}` : ""}. Choose the plan and billing period you want.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
        <fieldset className="grid gap-2" disabled={mutation.isPending}>
          <legend className="sr-only">Plan and billing period</legend>
          {list.map(({ choice, name, price }) => {
            const value = key(choice);
            const isCurrent = value === current;
            return (
              <label
                key={value}
                className={cn(
                  "flex cursor-pointer items-center gap-3 rounded-lg border p-3 text-sm transition-colors has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                  isCurrent && "cursor-not-allowed bg-muted/40",
                )}
              >
                <input
                  type="radio"
                  name={`${id}-plan`}
                  value={value}
                  checked={selected === value}
                  disabled={isCurrent}
                  onChange={() => {
                    setSelected(value);
                    setFailure(null);
                  }}
                  className="size-4 shrink-0 accent-primary"
                />
                <span className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium">
                    {name} · {PERIOD[choice.billing]}
                  </span>
                  {isCurrent ? (
                    <Badge variant="secondary" className="px-2">
                      Current plan
                    </Badge>
                  ) : null}
                </span>
                <span className={cn("shrink-0 font-medium tabular", isCurrent && "text-muted-foreground")}>{price}</span>
              </label>
            );
          })}
        </fieldset>
        <Preview choice={option} card={card} query={preview} />
        <p className="text-xs text-muted-foreground" data-testid="proration-note">
          Changes are prorated and charged now to {card}: the unused part of what you have paid is credited against the new plan. Switching
          between monthly and yearly starts a new billing period today; credit left over is taken off your next invoices.
        </p>
        {failure ? (
          <p role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive-strong">
            <AlertCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
            {failure}
          </p>
        ) : null}
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={close}>
            Keep current plan
          </Button>
          <Button
            type="submit"
            disabled={mutation.isPending || !option || !preview.data || preview.isFetching}
            aria-describedby={option ? undefined : `${id}-choose`}
          >
            {mutation.isPending ? "Changing..." : charge > 0 ? `Pay ${formatUsdCents(charge)} and change plan` : "Change plan"}
          </Button>
        </DialogFooter>
        {option ? null : (
          <p id={`${id}-choose`} className="sr-only">
            Choose a plan first.
          </p>
        )}
      </form>
    </>
  );
}

/**
 * 'Change plan': Pro or Premium, monthly or yearly, with each price; the current one is marked
 * "Current plan" and cannot be chosen, and nothing is chosen for the customer. Once a plan is
 * chosen, the server's preview says what is charged today (or "Nothing to pay today"), the
 * credit kept and what the next period charges and when; the change is confirmed only with
 * those figures shown. Charged now to the card on file; a decline toasts 'Payment Failed' with
 * the provider's message and keeps the dialog open. `initial` (a change chosen on the pricing
 * page) opens it with that choice selected.
 */
export function ChangePlanDialog({
  subscription,
  plans,
  initial,
  onInitialHandled,
}: {
  subscription: SubscriptionView;
  plans: PlanInfo[];
  initial?: PlanChoice | null;
  /** The dialog was closed: `initial` has been offered. */
  onInitialHandled?: () => void;
}) {
  const [open, setOpen] = useState(Boolean(initial));
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next && initial) onInitialHandled?.();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Change plan</Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto">
        <ChangePlanForm subscription={subscription} plans={plans} initial={initial} close={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
