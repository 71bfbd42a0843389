import { OctagonXIcon, PlayIcon, RefreshCwIcon, SquareIcon, TriangleAlertIcon } from "lucide-react";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { AutomationStatus, NextSchedules } from "@/lib/api/models";
import { formatDateTime, formatScheduleTime } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useAutomationStatus } from "../api/get-automation-status";
import { useHaltOrders } from "../api/halt-orders";
import { useStartAutomation } from "../api/start-automation";
import { useStopAutomation } from "../api/stop-automation";
import { useTriggerAutomationUpdate } from "../api/trigger-update";

const SCHEDULES: { key: keyof NextSchedules; label: string }[] = [
  { key: "signalUpdates", label: "Signal updates" },
  { key: "newSignals", label: "New signals" },
  { key: "portfolioStats", label: "Portfolio stats" },
  { key: "endOfDay", label: "End of day" },
  { key: "preMarket", label: "Pre-market" },
  { key: "weekend", label: "Weekend" },
];

/** When the jobs last ran and run next. */
function Schedules({ status }: { status: AutomationStatus }) {
  return (
    <>
      <p className="text-sm text-muted-foreground">
        Market {status.marketOpen ? "open" : "closed"}
        {" · "}
        Last run {status.lastRunAt ? formatDateTime(status.lastRunAt) : "not yet"}
      </p>
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Next runs</h3>
      <dl className="-mt-2 grid gap-1.5 text-sm">
        {SCHEDULES.map(({ key, label }) => (
          <div key={key} className="flex items-center justify-between gap-3">
            <dt className="whitespace-nowrap text-muted-foreground">{label}</dt>
            <dd className="text-right font-medium whitespace-nowrap tabular">
              <time dateTime={status.nextSchedules[key]} title={formatDateTime(status.nextSchedules[key])}>
                {formatScheduleTime(status.nextSchedules[key])}
              </time>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

const failed = (description: string) => () => toast({ variant: "destructive", title: "Error", description });

/** Said to everyone while the administrator's kill switch is on. */
function OrdersHaltedWarning() {
  return (
    <p
      data-testid="orders-halted"
      className="flex gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2.5 text-sm font-medium text-destructive-strong"
    >
      <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
      Orders are stopped for every account by the administrator.
    </p>
  );
}

/**
 * The administrator's kill switch for every account's orders: "Stop all orders" while orders
 * flow (no order is sent for any account, and every standing one is cancelled), "Resume orders"
 * while they are stopped.
 */
function OrdersHaltButton({ status }: { status: AutomationStatus | undefined }) {
  const halt = useHaltOrders();
  const halted = status?.ordersHalted ?? false;
  return (
    <Button
      size="sm"
      variant={halted ? "outline" : "destructive"}
      onClick={() =>
        halt.mutate(
          { halted: !halted },
          halted
            ? {
                onSuccess: () => toast({ title: "Orders Resumed", description: "The automation sends orders again." }),
                onError: failed("Failed to resume orders"),
              }
            : {
                onSuccess: () =>
                  toast({ title: "Orders Stopped", description: "No order is sent for any account, and standing orders are cancelled." }),
                onError: failed("Failed to stop orders"),
              },
        )
      }
      disabled={!status || halt.isPending}
    >
      {halted ? <PlayIcon aria-hidden /> : <OctagonXIcon aria-hidden />}
      {halted ? "Resume orders" : "Stop all orders"}
    </Button>
  );
}

/**
 * The automation service: Running or Stopped, the next run of each job, and its controls.
 * Start, Stop and the orders' kill switch ("Stop all orders" / "Resume orders") are shown only to
 * administrators (`canControl`, from `User.isAdministrator`: the server refuses them to anyone
 * else), Start enabled only when stopped and Stop only when running; everyone else sees the
 * status, and while the kill switch is on, that orders are stopped. Manual Update is there for everyone.
 */
export function AutomationPanel({ canControl = false }: { canControl?: boolean }) {
  const query = useAutomationStatus();
  const start = useStartAutomation();
  const stop = useStopAutomation();
  const update = useTriggerAutomationUpdate();
  const status = query.data;
  const busy = start.isPending || stop.isPending;

  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <div className="flex items-start justify-between gap-3">
          <div className="grid gap-1">
            <h2 className="text-base leading-tight font-semibold">Automation Status</h2>
            <CardDescription>Scheduled signal and price updates.</CardDescription>
          </div>
          {status ? (
            <span
              data-testid="automation-state"
              className={cn(
                "inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold",
                status.isRunning ? "bg-positive/12 text-positive-strong" : "bg-muted text-muted-foreground",
              )}
            >
              <span aria-hidden className={cn("size-1.5 rounded-full", status.isRunning ? "bg-positive" : "bg-muted-foreground")} />
              {status.isRunning ? "Running" : "Stopped"}
            </span>
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 pt-4">
        {status?.ordersHalted ? <OrdersHaltedWarning /> : null}
        <QueryState
          query={query}
          loadingLabel="Loading automation status"
          skeleton={<SkeletonRows count={4} className="h-5 w-full" />}
          skeletonClassName="gap-2"
          errorTitle="Failed to fetch automation status"
          staleData="show"
        >
          {(status) => <Schedules status={status} />}
        </QueryState>
        <div className="flex flex-wrap gap-2 border-t pt-4">
          {canControl ? (
            <>
              <Button
                size="sm"
                onClick={() =>
                  start.mutate(undefined, {
                    onSuccess: () => toast({ title: "Automation Started" }),
                    onError: failed("Failed to start automation service"),
                  })
                }
                disabled={!status || status.isRunning || busy}
              >
                <PlayIcon aria-hidden />
                Start
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() =>
                  stop.mutate(undefined, {
                    onSuccess: () => toast({ title: "Automation Stopped", description: "Automatic updates have been paused" }),
                    onError: failed("Failed to stop automation service"),
                  })
                }
                disabled={!status || !status.isRunning || busy}
              >
                <SquareIcon aria-hidden />
                Stop
              </Button>
              <OrdersHaltButton status={status} />
            </>
          ) : null}
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              update.mutate(undefined, {
                onSuccess: () => toast({ title: "Manual Update Complete" }),
                onError: failed("Failed to trigger manual update"),
              })
            }
            disabled={update.isPending}
          >
            <RefreshCwIcon aria-hidden className={cn(update.isPending && "animate-spin motion-reduce:animate-none")} />
            {update.isPending ? "Updating..." : "Manual Update"}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
