import { CalculatorIcon } from "lucide-react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { toast } from "@/lib/toast";
import { useUpdateStats } from "../api/update-stats";
import { LastUpdate } from "./last-update";

/** Recalculates the stat cards now (POST /api/update-stats). */
function UpdateStatsButton() {
  const mutation = useUpdateStats();
  const onClick = () =>
    mutation.mutate(undefined, {
      onSuccess: () => toast({ title: "Stats Updated", description: "Portfolio statistics have been recalculated" }),
      onError: () => toast({ variant: "destructive", title: "Error", description: "Failed to update statistics" }),
    });
  return (
    <Button variant="outline" size="sm" onClick={onClick} disabled={mutation.isPending}>
      <CalculatorIcon aria-hidden />
      {mutation.isPending ? "Updating..." : "Update Stats"}
    </Button>
  );
}

export function DashboardHeader({ name, updatedAt }: { name: string; updatedAt: number }) {
  return (
    <PageHeader
      title={`Welcome back, ${name}`}
      description="Real-time signals and market analysis"
      actions={
        <>
          <LastUpdate updatedAt={updatedAt} />
          <UpdateStatsButton />
        </>
      }
    />
  );
}
