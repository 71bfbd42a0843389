import { Button } from "@/components/ui/button";
import { useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api/client";
import type { SubscriptionView } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useCancelSubscription } from "../api/cancel-subscription";
import { longDateOf, PLAN_NAMES } from "../lib/subscription";

/**
 * 'Cancel subscription', asking first: the plan stays until the end of the paid period, then
 * Free; it can be resumed until then.
 */
export function CancelSubscriptionDialog({ subscription }: { subscription: SubscriptionView }) {
  const [open, onOpenChange] = useState(false);
  const mutation = useCancelSubscription();
  const name = PLAN_NAMES[subscription.plan];
  const end = longDateOf(subscription.currentPeriodEnd) ?? "the end of the period you paid for";

  const confirm = async () => {
    try {
      const next = await mutation.mutateAsync();
      const until = longDateOf(next.currentPeriodEnd) ?? end;
      toast({ title: "Subscription Cancelled", description: `${name} stays until ${until}, then the account moves to Free.` });
      onOpenChange(false);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Cancellation Failed",
        description: errorMessage(error, "The subscription could not be cancelled. Please try again."),
      });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline">Cancel subscription</Button>
      </DialogTrigger>
      <DialogContent className="max-w-md" role="alertdialog">
        <DialogHeader>
          <DialogTitle>Cancel your subscription?</DialogTitle>
          <DialogDescription>
            {name} stays until {end}, the end of the period you have paid for. Then the account moves to Free and nothing more is charged.
            Nothing is refunded for the rest of the period, and you can resume the subscription until it ends.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            Keep subscription
          </Button>
          <Button type="button" variant="destructive" onClick={() => void confirm()} disabled={mutation.isPending}>
            {mutation.isPending ? "Cancelling..." : "Confirm cancellation"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
