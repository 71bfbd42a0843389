import { PageHeader } from "@/components/page-header";
import { LastUpdate } from "./last-update";

export function DashboardHeader({ name, updatedAt }: { name: string; updatedAt: number }) {
  return (
    <PageHeader
      title={`Welcome back, ${name}`}
      description="Real-time signals and market analysis"
      actions={<LastUpdate updatedAt={updatedAt} />}
    />
  );
}
