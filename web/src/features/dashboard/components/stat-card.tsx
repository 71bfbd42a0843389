import type { LucideIcon } from "lucide-react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { SIGN_TEXT_CLASS } from "@/lib/format";
import { cn } from "@/lib/utils";

export type ChangeType = "positive" | "negative" | "neutral";

export type StatCardProps = {
  title: string;
  value: string;
  change: string;
  changeType: ChangeType;
  icon: LucideIcon;
  description: string;
  loading?: boolean;
};

export function StatCard({ title, value, change, changeType, icon: Icon, description, loading = false }: StatCardProps) {
  return (
    <Card className="p-4 sm:p-5" data-testid="stat-card">
      <div className="flex items-center justify-between gap-2">
        <h2 className="truncate text-[0.8rem] font-medium text-muted-foreground sm:text-sm">{title}</h2>
        <div className="hidden size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex">
          <Icon className="size-4" aria-hidden />
        </div>
      </div>
      {loading ? (
        <div aria-hidden>
          <Skeleton className="mt-3 h-7 w-20" />
          <Skeleton className="mt-3 h-4 w-28" />
        </div>
      ) : (
        <>
          <p className="mt-3 text-2xl leading-none font-semibold tracking-tight tabular sm:text-[1.75rem]">{value}</p>
          <p className="mt-3 flex flex-wrap items-center gap-x-1.5 text-xs">
            <span data-testid="stat-change" className={cn("font-medium tabular", SIGN_TEXT_CLASS[changeType])}>
              {change}
            </span>
            <span className="text-muted-foreground">{description}</span>
          </p>
        </>
      )}
    </Card>
  );
}
