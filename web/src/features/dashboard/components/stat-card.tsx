import type { LucideIcon } from "lucide-react";
import { Card } from "@/components/ui/card";
import { cn } from "@/lib/utils";

export type ChangeType = "positive" | "negative" | "neutral";

export type StatCardProps = {
  title: string;
  value: string;
  change: string;
  changeType: ChangeType;
  icon: LucideIcon;
  description: string;
};

const CHANGE_CLASS: Record<ChangeType, string> = {
  positive: "text-positive",
  negative: "text-negative",
  neutral: "text-muted-foreground",
};

export function StatCard({ title, value, change, changeType, icon: Icon, description }: StatCardProps) {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="truncate text-[0.8rem] font-medium text-muted-foreground sm:text-sm">{title}</p>
        <div className="hidden size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex">
          <Icon className="size-4" aria-hidden />
        </div>
      </div>
      <p className="mt-3 text-2xl leading-none font-semibold tracking-tight tabular sm:text-[1.75rem]">{value}</p>
      <p className="mt-3 flex items-center gap-1.5 text-xs">
        <span className={cn("font-medium tabular", CHANGE_CLASS[changeType])}>{change}</span>
        <span className="text-muted-foreground">{description}</span>
      </p>
    </Card>
  );
}
