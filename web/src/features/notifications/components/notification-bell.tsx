import { BellIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { formatBadgeCount } from "@/lib/format";
import { useNotifications } from "../api/get-notifications";
import { bellLabel } from "../lib/notifications";
import { NotificationList } from "./notification-list";

type BellTab = "notifications" | "active-signals";

function TabCount({ count }: { count: number }) {
  return (
    <span className="min-w-5 rounded-full bg-primary/12 px-1.5 py-px text-center text-xs leading-4 font-semibold text-primary-strong tabular">
      {count}
    </span>
  );
}

type NotificationBellProps = {
  /** The number shown on the "Active signals" tab. */
  activeSignalCount: number;
  /**
   * The "Active signals" tab's content. It belongs to the signals feature, so the app shell
   * composes it in (features do not import each other).
   */
  activeSignals: ReactNode;
};

/**
 * The header's bell: its badge counts the unread notifications ('9+' above 9); it opens a
 * dialog with two tabs, the notifications (newest first) and the active signals.
 */
export function NotificationBell({ activeSignalCount, activeSignals }: NotificationBellProps) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<BellTab>("notifications");
  const query = useNotifications();
  // The shell shows the bell on every page: an unreadable answer counts as nothing unread.
  const unread = typeof query.data?.unreadCount === "number" ? query.data.unreadCount : 0;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // Every opening starts on the notifications.
    if (next) setTab("notifications");
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="relative text-muted-foreground hover:text-foreground">
          <BellIcon className="size-[1.15rem]" />
          {unread > 0 ? (
            <span
              aria-hidden
              data-testid="notification-count"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-semibold text-destructive-foreground tabular"
            >
              {formatBadgeCount(unread)}
            </span>
          ) : null}
          <span className="sr-only">{bellLabel(unread)}</span>
        </Button>
      </DialogTrigger>
      {/* One height for both tabs, so switching does not make the dialog jump. */}
      <DialogContent className="h-[min(36rem,calc(100dvh-2rem))] max-w-md grid-rows-[auto_minmax(0,1fr)] gap-0 overflow-hidden p-0">
        <DialogHeader className="sr-only">
          <DialogTitle>Notifications</DialogTitle>
          <DialogDescription>Your notifications and the signals that are open right now.</DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={(value) => setTab(value as BellTab)} className="contents">
          <div className="border-b px-4 pt-4 pr-12 pb-3 sm:px-5 sm:pr-12">
            <TabsList className="w-full sm:w-auto">
              <TabsTrigger value="notifications" className="flex-1 sm:flex-none">
                Notifications
                {unread > 0 ? <TabCount count={unread} /> : null}
              </TabsTrigger>
              <TabsTrigger value="active-signals" className="flex-1 sm:flex-none">
                Active signals
                <TabCount count={activeSignalCount} />
              </TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="notifications" className="flex min-h-0 flex-col">
            <NotificationList query={query} onNavigate={() => setOpen(false)} />
          </TabsContent>
          <TabsContent value="active-signals" className="flex min-h-0 flex-col overflow-y-auto px-4 py-4 sm:px-5">
            {activeSignals}
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
