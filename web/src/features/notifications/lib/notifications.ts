import { BellRingIcon, BriefcaseIcon, CreditCardIcon, type LucideIcon, ReceiptTextIcon, SignalIcon, WebhookIcon } from "lucide-react";
import type { NotificationKind, NotificationList } from "@/lib/api/models";

/** Each kind's icon and what a screen reader hears for it. */
export const NOTIFICATION_KIND_META: Record<NotificationKind, { icon: LucideIcon; label: string }> = {
  new_signals: { icon: SignalIcon, label: "New signals" },
  position_closed: { icon: BriefcaseIcon, label: "Position closed" },
  price_alert: { icon: BellRingIcon, label: "Price alert" },
  billing: { icon: CreditCardIcon, label: "Billing" },
  webhook: { icon: WebhookIcon, label: "Webhook" },
  order: { icon: ReceiptTextIcon, label: "Order" },
};

/** The list with notification `id` read (the unread count goes down if it was unread). */
export function markedRead(list: NotificationList, id: string): NotificationList {
  const target = list.notifications.find((n) => n.id === id);
  if (!target || target.read) return list;
  return {
    notifications: list.notifications.map((n) => (n.id === id ? { ...n, read: true } : n)),
    unreadCount: Math.max(0, list.unreadCount - 1),
  };
}

/** The list with everything read. */
export function allMarkedRead(list: NotificationList): NotificationList {
  return { notifications: list.notifications.map((n) => (n.read ? n : { ...n, read: true })), unreadCount: 0 };
}

/**
 * Where a notification leads, if anywhere: a path of this site only (`/portfolio`), so a
 * stored link can never send the user off the site.
 */
export function notificationTarget(link: string | null | undefined): string | null {
  if (!link || !link.startsWith("/") || link.startsWith("//") || link.startsWith("/\\")) return null;
  return link;
}

/** The bell's accessible name: "Notifications: 3 unread". */
export function bellLabel(unread: number): string {
  return `Notifications: ${unread} unread`;
}
