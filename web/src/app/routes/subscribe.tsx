import { CreditCardIcon } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { usePlans } from "@/features/marketing/api/get-plans";
import { formatCount } from "@/features/marketing/lib/figures";
import { usePageMeta } from "@/lib/page-meta";

export default function SubscribeRoute() {
  const [params] = useSearchParams();
  const planId = params.get("plan") === "premium" ? "premium" : "pro";
  const billing = params.get("billing") === "yearly" ? "yearly" : "monthly";
  usePageMeta("Complete Your Subscription", "Review the plan and billing period you chose.");
  const { data: catalogue } = usePlans();
  const plan = catalogue?.plans.find((p) => p.id === planId);
  const name = plan?.name ?? (planId === "premium" ? "Premium" : "Pro");
  const price = plan
    ? billing === "yearly"
      ? `$${formatCount(plan.yearlyPrice)}/year`
      : `$${formatCount(plan.monthlyPrice)}/month`
    : null;

  return (
    <div className="grid gap-6">
      <PageHeader title="Complete Your Subscription" description="Review the plan you chose." />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader className="border-b pb-4">
            <CardTitle>Order summary</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 pt-5 text-sm">
            <div className="flex justify-between">
              <span className="text-muted-foreground">Plan</span>
              <span className="font-medium">{name}</span>
            </div>
            <div className="flex justify-between">
              <span className="text-muted-foreground">Billing</span>
              <span className="font-medium capitalize">{billing}</span>
            </div>
            <div className="flex justify-between border-t pt-3">
              <span className="text-muted-foreground">Price</span>
              {price ? <span className="font-semibold tabular">{price}</span> : <Skeleton className="h-5 w-20" />}
            </div>
          </CardContent>
        </Card>
        <div className="lg:col-span-2">
          <EmptyState
            icon={CreditCardIcon}
            title="Card payment is not available"
            description="No payment provider is configured on this server, so no charge can be made. Your account keeps its current plan."
            action={
              <Button asChild variant="outline">
                <Link to="/pricing">Back to plans</Link>
              </Button>
            }
            className="h-full"
          />
        </div>
      </div>
    </div>
  );
}
