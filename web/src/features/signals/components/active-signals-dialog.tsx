import { BellIcon, SignalIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { formatBadgeCount } from "@/lib/format";
import { useActiveSignalCount } from "../hooks/use-active-signal-count";

/** The header's bell: the active-signal count, opening the list of active signals. */
export function NotificationBell() {
  const count = useActiveSignalCount();
  const label = count === 1 ? "1 active signal" : `${count} active signals`;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="relative text-muted-foreground hover:text-foreground">
          <BellIcon className="size-[1.15rem]" />
          {count > 0 ? (
            <span
              aria-hidden
              data-testid="notification-count"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-semibold text-destructive-foreground tabular"
            >
              {formatBadgeCount(count)}
            </span>
          ) : null}
          <span className="sr-only">Notifications: {label}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Active Signals</DialogTitle>
          <DialogDescription>Signals that are open right now.</DialogDescription>
        </DialogHeader>
        {count === 0 ? (
          <EmptyState
            icon={SignalIcon}
            title="No active signals"
            description="You will see signals here as soon as they open."
            className="py-10"
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
