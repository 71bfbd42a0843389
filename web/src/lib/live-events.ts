import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { queryKeys } from "@/lib/query-keys";

/**
 * Live updates (docs/decisions.md#7-live-updates-instead-of-refresh-timers): the server tells
 * open pages what changed over server-sent events at GET /api/events, and the page refetches.
 * Queries keep polling every 30 s as the fallback for a dropped or refused stream. Clients never
 * post /api/refresh on a timer.
 */
export const LIVE_EVENTS_URL = "/api/events";

/** The fallback polling interval of every live query. */
export const LIVE_REFETCH_MS = 30_000;

/** The portfolio reads that move with the automated positions: figures, list and details. */
const AUTOMATED_POSITIONS = [queryKeys.portfolio.metrics(), queryKeys.portfolio.positions(), queryKeys.portfolio.position.all()] as const;

/** The automated positions and the orders that open them: a tick that takes a signal sends an order and stores its position. */
const AUTOMATED_TRADING = [...AUTOMATED_POSITIONS, queryKeys.orders()] as const;

/**
 * What each server event invalidates: every query under any of its prefixes. This is the
 * one mapping from topics to queries.
 * - `signals`: the signals, and the portfolio, whose automated positions are marked with them,
 *   and the orders (a tick that takes a signal sends one; the deadline sweep cancels them).
 * - `prices`: the watchlist, and the portfolio, manual and multi-leg positions included (they
 *   are marked when prices refresh).
 * - `automation`: the automation status (the administrator's kill switch included), the portfolio
 *   (automation opens positions) and the orders.
 * - `notifications`: the bell's notifications (new ones were written).
 * - `alerts`: the price alerts (one was triggered).
 * - `news`: the news list (new articles were stored).
 */
export const LIVE_TOPIC_PREFIXES = {
  signals: [queryKeys.signals.all(), ...AUTOMATED_TRADING],
  prices: [
    queryKeys.stockPrices.all(),
    ...AUTOMATED_POSITIONS,
    queryKeys.portfolio.manualPositions.all(),
    queryKeys.portfolio.heldStructures.all(),
  ],
  stats: [queryKeys.stats()],
  automation: [queryKeys.automation(), ...AUTOMATED_TRADING],
  notifications: [queryKeys.notifications()],
  alerts: [queryKeys.priceAlerts()],
  news: [queryKeys.news.all()],
} as const satisfies Record<string, readonly QueryKey[]>;

export type LiveTopic = keyof typeof LIVE_TOPIC_PREFIXES;

export const LIVE_TOPICS = Object.keys(LIVE_TOPIC_PREFIXES) as LiveTopic[];

function invalidate(queryClient: QueryClient, prefixes: readonly QueryKey[]) {
  for (const queryKey of prefixes) void queryClient.invalidateQueries({ queryKey });
}

/** Every prefix any topic reaches, each once. */
function allPrefixes(): QueryKey[] {
  const byText = new Map<string, QueryKey>();
  for (const topic of LIVE_TOPICS) for (const prefix of LIVE_TOPIC_PREFIXES[topic]) byText.set(JSON.stringify(prefix), prefix);
  return [...byText.values()];
}

/**
 * What one tab tells the user's other open tabs (same browser, same origin) over a
 * BroadcastChannel, for changes the server does not publish on the event stream:
 * - `billing`: the plan changed here (paid, changed, cancelled, resumed), so the other tabs read
 *   the subscription (and the previews of changes under it), the user (the plan in the sidebar
 *   and header, what the server allows) and the invoices again.
 */
export const TAB_TOPIC_PREFIXES = {
  billing: [queryKeys.subscription(), queryKeys.currentUser(), queryKeys.invoices()],
} as const satisfies Record<string, readonly QueryKey[]>;

export type TabTopic = keyof typeof TAB_TOPIC_PREFIXES;

/** The BroadcastChannel the app's tabs talk on. */
export const TAB_CHANNEL = "strikeline-billing";

/** This tab's id: a tab ignores what it sent itself (another channel object in the same tab hears it too). */
const TAB_ID = typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : String(Math.random());

type TabMessage = { topic: TabTopic; from: string };

function isTabMessage(data: unknown): data is TabMessage {
  return (
    typeof data === "object" &&
    data !== null &&
    "topic" in data &&
    typeof data.topic === "string" &&
    Object.hasOwn(TAB_TOPIC_PREFIXES, data.topic) &&
    "from" in data &&
    typeof data.from === "string"
  );
}

/**
 * Tells the user's other open tabs that `topic` changed here (this tab refreshes itself). Does
 * nothing where BroadcastChannel does not exist.
 */
export function announceToOtherTabs(topic: TabTopic): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(TAB_CHANNEL);
  channel.postMessage({ topic, from: TAB_ID } satisfies TabMessage);
  channel.close();
}

/**
 * Opens the event stream while mounted and invalidates the matching queries on each event,
 * except the `paused` topics' (the signals, while "Auto-update Signals" is off).
 * After a dropped connection comes back, everything live is invalidated once, since events
 * sent while it was down are lost. Does nothing where EventSource does not exist. It also
 * listens to the user's other tabs (`TAB_TOPIC_PREFIXES`, `announceToOtherTabs`), where
 * BroadcastChannel exists.
 */
export function useLiveEvents(url: string = LIVE_EVENTS_URL, paused: readonly LiveTopic[] = []): void {
  const queryClient = useQueryClient();
  // Read by the listeners as events arrive, so pausing a topic does not reopen the stream.
  const pausedRef = useRef(paused);
  useEffect(() => {
    pausedRef.current = paused;
  }, [paused]);
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(TAB_CHANNEL);
    const onMessage = (event: MessageEvent<unknown>) => {
      if (isTabMessage(event.data) && event.data.from !== TAB_ID) invalidate(queryClient, TAB_TOPIC_PREFIXES[event.data.topic]);
    };
    channel.addEventListener("message", onMessage);
    return () => {
      channel.removeEventListener("message", onMessage);
      channel.close();
    };
  }, [queryClient]);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(url);
    let dropped = false;
    const listeners = LIVE_TOPICS.map((topic) => {
      const listener = () => {
        if (!pausedRef.current.includes(topic)) invalidate(queryClient, LIVE_TOPIC_PREFIXES[topic]);
      };
      source.addEventListener(topic, listener);
      return [topic, listener] as const;
    });
    const onError = () => {
      dropped = true;
    };
    const onOpen = () => {
      if (!dropped) return;
      dropped = false;
      invalidate(queryClient, allPrefixes());
    };
    source.addEventListener("error", onError);
    source.addEventListener("open", onOpen);
    return () => {
      for (const [topic, listener] of listeners) source.removeEventListener(topic, listener);
      source.removeEventListener("error", onError);
      source.removeEventListener("open", onOpen);
      source.close();
    };
  }, [queryClient, url]);
}
