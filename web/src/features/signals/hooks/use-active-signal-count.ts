import { useQuery } from "@tanstack/react-query";
import type { Signal } from "@/lib/api/models";
import { allSignalsQueryOptions, useSignalRefetch } from "../api/get-signals";

const ACTIVE = { status: "active" } as const;

/**
 * The active signals the user can open (locked ones are left out: they say nothing yet),
 * from GET /api/signals?status=active, every page of it (200 per request, following the
 * cursor), so the count is not capped at one page. Kept current by live events and 30 s polling.
 */
export function useActiveSignals() {
  const query = useQuery({ ...allSignalsQueryOptions(ACTIVE), refetchInterval: useSignalRefetch() });
  // The shell shows this on every page: an unexpected answer counts as none rather than breaking it.
  const list: Signal[] = Array.isArray(query.data) ? query.data : [];
  const signals = list.filter((s) => s.status === "active" && !s.locked);
  return { ...query, signals };
}

/**
 * The number of active signals, shown on the Signals menu badge and the notification
 * bell. This is the one place that count comes from.
 */
export function useActiveSignalCount(): number {
  return useActiveSignals().signals.length;
}
