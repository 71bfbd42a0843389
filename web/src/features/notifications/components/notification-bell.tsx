import { BellIcon } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { formatBadgeCount } from "@/lib/format";
import { useMediaQuery } from "@/lib/use-media-query";
import { useNotifications } from "../api/get-notifications";
import { bellLabel } from "../lib/notifications";
import { NotificationList } from "./notification-list";

type BellTab = "notifications" | "active-signals";

/** From this width the bell opens a popover under itself; below it, a sheet from the bottom. */
export const BELL_POPOVER_QUERY = "(min-width: 640px)";

const DESCRIPTION = "Your notifications and the signals that are open right now.";

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
 * The header's bell: its badge counts the unread notifications ('9+' above 9); it opens a panel
 * with two tabs, the notifications (newest first) and the active signals. From 640 px wide the
 * panel is a popover anchored under the bell (the page stays in view, a click outside or Escape
 * closes it); on a phone it is a sheet from the bottom of the screen.
 */
export function NotificationBell({ activeSignalCount, activeSignals }: NotificationBellProps) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<BellTab>("notifications");
  const wide = useMediaQuery(BELL_POPOVER_QUERY);
  const titleId = useId();
  const query = useNotifications();
  // The shell shows the bell on every page: an unreadable answer counts as nothing unread.
  const unread = typeof query.data?.unreadCount === "number" ? query.data.unreadCount : 0;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // Every opening starts on the notifications.
    if (next) setTab("notifications");
  };

  const trigger = (
    <Button variant="ghost" size="icon" className="relative text-muted-foreground hover:text-foreground" data-testid="notification-bell">
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
  );

  const tabs = (
    <Tabs value={tab} onValueChange={(value) => setTab(value as BellTab)} className="contents">
      <div className="border-b px-4 pt-4 pr-12 pb-3 sm:px-5 sm:pr-5">
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
  );

  if (wide) {
    return (
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>{trigger}</PopoverTrigger>
        {/* One height for both tabs, so switching does not make the panel jump. */}
        <PopoverContent
          align="end"
          sideOffset={8}
          aria-labelledby={titleId}
          aria-describedby={`${titleId}-description`}
          data-testid="notification-panel"
          data-layout="popover"
          className="grid h-[min(34rem,calc(100dvh-5rem))] w-[min(26rem,calc(100vw-1rem))] grid-rows-[auto_minmax(0,1fr)] overflow-hidden bg-card p-0"
        >
          <h2 id={titleId} className="sr-only">
            Notifications
          </h2>
          <p id={`${titleId}-description`} className="sr-only">
            {DESCRIPTION}
          </p>
          {tabs}
        </PopoverContent>
      </Popover>
    );
  }

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent
        side="bottom"
        closeLabel="Close notifications"
        data-testid="notification-panel"
        data-layout="sheet"
        className="grid h-[min(36rem,calc(100dvh-3rem))] grid-rows-[auto_minmax(0,1fr)] overflow-hidden"
      >
        <SheetTitle className="sr-only">Notifications</SheetTitle>
        <SheetDescription className="sr-only">{DESCRIPTION}</SheetDescription>
        {tabs}
      </SheetContent>
    </Sheet>
  );
}
