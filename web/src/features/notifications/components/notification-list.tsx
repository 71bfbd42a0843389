import type { UseQueryResult } from "@tanstack/react-query";
import { BellOffIcon, CheckCheckIcon } from "lucide-react";
import { useNavigate } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api/client";
import type { NotificationList as NotificationListData, NotificationView } from "@/lib/api/models";
import { formatDateTime, timeAgo } from "@/lib/dates";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useMarkAllNotificationsRead } from "../api/mark-all-notifications-read";
import { useMarkNotificationRead } from "../api/mark-notification-read";
import { NOTIFICATION_KIND_META, notificationTarget } from "../lib/notifications";

function NotificationRow({
  notification,
  now,
  onOpen,
}: {
  notification: NotificationView;
  now: number;
  onOpen: (n: NotificationView) => void;
}) {
  const { icon: Icon, label } = NOTIFICATION_KIND_META[notification.kind] ?? NOTIFICATION_KIND_META.new_signals;
  const unread = !notification.read;
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(notification)}
        data-unread={unread || undefined}
        className={cn(
          "flex w-full items-start gap-3 rounded-lg px-3 py-2.5 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
          unread && "bg-primary/6 dark:bg-primary/10",
        )}
      >
        <span
          aria-hidden
          className={cn(
            "mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full",
            unread ? "bg-primary/12 text-primary-strong" : "bg-muted text-muted-foreground",
          )}
        >
          <Icon className="size-4" />
        </span>
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className="sr-only">
            {label}
            {unread ? ", unread" : ""}:{" "}
          </span>
          <span className="flex items-baseline justify-between gap-2">
            <span className={cn("min-w-0 text-sm break-words", unread ? "font-semibold" : "font-medium")}>{notification.title}</span>
            <time
              dateTime={notification.createdAt}
              title={formatDateTime(notification.createdAt)}
              className="shrink-0 text-xs text-muted-foreground"
            >
              {timeAgo(notification.createdAt, now)}
            </time>
          </span>
          <span className="text-sm break-words text-muted-foreground">{notification.body}</span>
        </span>
        {unread ? <span aria-hidden className="mt-2 size-2 shrink-0 rounded-full bg-primary" /> : null}
      </button>
    </li>
  );
}

/** Three placeholder rows: an avatar and two lines. */
function NotificationSkeleton() {
  return Array.from({ length: 3 }, (_, i) => (
    <div key={i} className="flex gap-3 px-3 py-2.5">
      <Skeleton className="size-8 shrink-0 rounded-full" />
      <div className="grid flex-1 gap-2">
        <Skeleton className="h-4 w-3/5" />
        <Skeleton className="h-3.5 w-full" />
      </div>
    </div>
  ));
}

/**
 * The bell's Notifications tab: newest first, unread ones marked; opening one marks it read
 * and follows its link (a page of this site); "Mark all read" above the list.
 */
export function NotificationList({ query, onNavigate }: { query: UseQueryResult<NotificationListData>; onNavigate: () => void }) {
  const navigate = useNavigate();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const notifications = Array.isArray(query.data?.notifications) ? query.data.notifications : [];
  const unread = query.data?.unreadCount ?? 0;
  const now = Date.now();

  const onOpen = (notification: NotificationView) => {
    if (!notification.read) {
      markRead.mutate(notification.id, {
        onError: (error) =>
          toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to mark the notification read") }),
      });
    }
    const target = notificationTarget(notification.link);
    if (target) {
      onNavigate();
      navigate(target);
    }
  };

  const onMarkAll = () => {
    markAll.mutate(undefined, {
      onError: (error) =>
        toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to mark notifications read") }),
    });
  };

  return (
    <QueryState
      query={query}
      loadingLabel="Loading notifications"
      skeleton={<NotificationSkeleton />}
      skeletonClassName="gap-2 px-4 py-4 sm:px-5"
      errorTitle="Failed to load notifications"
      errorLayout="centered"
      errorClassName="px-4 py-10"
      staleData="show"
      isEmpty={(data) => !Array.isArray(data.notifications) || data.notifications.length === 0}
      empty={
        <div className="px-4 py-4 sm:px-5">
          <EmptyState
            icon={BellOffIcon}
            title="No notifications yet"
            description="New signals matching your preferences, closed positions, triggered price alerts and billing news appear here."
            className="py-10"
          />
        </div>
      }
    >
      {() => (
        <>
          <div className="flex items-center justify-between gap-3 px-4 pt-3 pb-1 sm:px-5">
            <p className="text-xs text-muted-foreground" aria-live="polite">
              {unread === 0 ? "All caught up" : `${unread} unread`}
            </p>
            <Button variant="ghost" size="sm" onClick={onMarkAll} disabled={unread === 0 || markAll.isPending}>
              <CheckCheckIcon aria-hidden />
              Mark all read
            </Button>
          </div>
          <ul className="grid min-h-0 grid-cols-1 content-start gap-1 overflow-y-auto px-2 pb-3 sm:px-3" aria-label="Notifications">
            {notifications.map((notification) => (
              <NotificationRow key={notification.id} notification={notification} now={now} onOpen={onOpen} />
            ))}
          </ul>
        </>
      )}
    </QueryState>
  );
}
