import { ActivityIcon, LandmarkIcon, RefreshCwIcon, TargetIcon, UsersIcon } from "lucide-react";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { usePublicStats } from "../api/get-public-stats";
import { describeStats, type Figure } from "../lib/figures";

const ICONS: Record<Figure["id"], typeof UsersIcon> = {
  users: UsersIcon,
  signals: ActivityIcon,
  volume: LandmarkIcon,
  "win-rate": TargetIcon,
  freshness: RefreshCwIcon,
};

const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZoneName: "short" });

/**
 * Live platform figures from GET /api/public/stats (docs/decisions.md#13-honest-figures): each
 * names its period, and a figure with too little data behind it says so instead of showing a
 * number.
 */
export function PlatformFigures({ className }: { className?: string }) {
  const { data, isPending, isError } = usePublicStats();

  return (
    <div className={className}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        {isPending
          ? Array.from({ length: 5 }, (_, i) => (
              <div key={i} className="rounded-xl border bg-card p-5" aria-hidden>
                <Skeleton className="h-4 w-28" />
                <Skeleton className="mt-4 h-8 w-20" />
                <Skeleton className="mt-3 h-3 w-40" />
              </div>
            ))
          : isError || !data
            ? null
            : describeStats(data).map((figure) => {
                const Icon = ICONS[figure.id];
                return (
                  <div key={figure.id} className="rounded-xl border bg-card p-5" data-testid={`figure-${figure.id}`}>
                    <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
                      <Icon className="size-4 text-primary" aria-hidden />
                      {figure.label}
                    </p>
                    <p
                      className={cn(
                        "mt-3 font-semibold tracking-tight",
                        figure.value === null ? "text-base leading-8" : "text-3xl tabular",
                      )}
                    >
                      {figure.value ?? figure.empty}
                    </p>
                    <p className="mt-1.5 text-xs leading-relaxed text-muted-foreground">{figure.detail}</p>
                  </div>
                );
              })}
      </div>
      {isError ? (
        <p className="rounded-xl border border-dashed bg-card/50 p-5 text-sm text-muted-foreground">
          Live figures are unavailable right now. They are computed from the platform&apos;s own records when the server answers.
        </p>
      ) : data ? (
        <p className="mt-4 text-xs text-muted-foreground">
          Live figures from Strikeline&apos;s own records, as of {time.format(new Date(data.generatedAt))}. Backtested results are never
          included.
        </p>
      ) : (
        <p className="mt-4 h-4" aria-hidden />
      )}
    </div>
  );
}
