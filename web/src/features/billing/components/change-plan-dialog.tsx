import { AlertCircleIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { ApiError, errorMessage } from "@/lib/api/client";
import { BILLING_INTERVALS, PAID_PLANS } from "@/lib/api/enums";
import type { PlanChoice, PlanInfo, SubscriptionView } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useChangePlan } from "../api/change-plan";
import { cardLabel, PLAN_NAMES, priceLabel } from "../lib/subscription";

const key = (choice: PlanChoice) => `${choice.plan}-${choice.billing}`;
const PERIOD: Record<PlanChoice["billing"], string> = { monthly: "Monthly", yearly: "Yearly" };

/** Pro and Premium, monthly and yearly, as the catalogue prices them. */
function options(plans: PlanInfo[]): { choice: PlanChoice; name: string; price: string }[] {
  return PAID_PLANS.flatMap((id) => {
    const plan = plans.find((p) => p.id === id);
    if (!plan) return [];
    return BILLING_INTERVALS.map((billing) => ({ choice: { plan: id, billing }, name: plan.name, price: priceLabel(plan, billing) }));
  });
}

/** The dialog's form; mounted each time the dialog opens, so it starts from the current plan. */
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
  const firstOther = list.find((o) => key(o.choice) !== current);
  const initialKey =
    initial && key(initial) !== current && list.some((o) => key(o.choice) === key(initial))
      ? key(initial)
      : firstOther
        ? key(firstOther.choice)
        : "";
  const [selected, setSelected] = useState(initialKey);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const option = list.find((o) => key(o.choice) === selected);
    if (!option) return;
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
                  isCurrent && "cursor-not-allowed opacity-70",
                )}
              >
                <input
                  type="radio"
                  name={`${id}-plan`}
                  value={value}
                  checked={selected === value}
                  disabled={isCurrent}
                  onChange={() => setSelected(value)}
                  className="size-4 accent-primary"
                />
                <span className="grid flex-1 gap-0.5">
                  <span className="font-medium">
                    {name} · {PERIOD[choice.billing]}
                  </span>
                  {isCurrent ? <span className="text-xs text-muted-foreground">Your current plan</span> : null}
                </span>
                <span className="font-medium tabular">{price}</span>
              </label>
            );
          })}
        </fieldset>
        <p className="text-sm text-muted-foreground" data-testid="proration-note">
          Changes are prorated and charged now: the unused part of what you have paid is credited, and the new price for the rest of the
          period is charged to {subscription.card ? cardLabel(subscription.card) : "the card on file"} at once. Switching between monthly
          and yearly starts a new billing period today. A credit larger than the charge is taken off your next invoice.
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
          <Button type="submit" disabled={mutation.isPending || !selected}>
            {mutation.isPending ? "Changing..." : "Change plan"}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}

/**
 * 'Change plan': Pro or Premium, monthly or yearly, with each price; the current one is marked
 * and cannot be chosen. Prorated and charged now to the card on file; a decline toasts
 * 'Payment Failed' with the provider's message and keeps the dialog open. `initial` (a change
 * chosen on the pricing page) opens it with that choice selected.
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
      <DialogContent className="max-w-lg">
        <ChangePlanForm subscription={subscription} plans={plans} initial={initial} close={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
