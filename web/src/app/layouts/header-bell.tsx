import { NotificationBell } from "@/features/notifications/components/notification-bell";
import { ActiveSignalsList } from "@/features/signals/components/active-signals-list";
import { useActiveSignalCount } from "@/features/signals/hooks/use-active-signal-count";

/** The header's bell: the notifications feature's panel, with the signals feature's active signals as its second tab. */
export function HeaderBell() {
  const activeSignals = useActiveSignalCount();
  return <NotificationBell activeSignalCount={activeSignals} activeSignals={<ActiveSignalsList />} />;
}
