import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

/**
 * Live updates (decisions.md, "Signals and automation"): the server tells open pages what
 * changed over server-sent events at GET /api/events, and the page refetches. Queries keep
 * polling every 30 s as the fallback for a dropped or refused stream. Clients never post
 * /api/refresh on a timer.
 */
export const LIVE_EVENTS_URL = "/api/events";

/** The fallback polling interval of every live query. */
export const LIVE_REFETCH_MS = 30_000;

/**
 * The query-key prefix each event invalidates. Features build their keys on these
 * prefixes, so an event reaches every query of its kind (lists with any filter, details).
 */
export const LIVE_QUERY_KEYS = {
  signals: ["/api/signals"],
  prices: ["/api/stock-prices"],
  stats: ["/api/stats"],
  automation: ["/api/automation/status"],
} as const;

export type LiveTopic = keyof typeof LIVE_QUERY_KEYS;

export const LIVE_TOPICS = Object.keys(LIVE_QUERY_KEYS) as LiveTopic[];

function invalidate(queryClient: QueryClient, topic: LiveTopic) {
  void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS[topic] });
}

/**
 * Opens the event stream while mounted and invalidates the matching queries on each event.
 * After a dropped connection comes back, everything live is invalidated once, since events
 * sent while it was down are lost. Does nothing where EventSource does not exist.
 */
export function useLiveEvents(url: string = LIVE_EVENTS_URL): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(url);
    let dropped = false;
    const listeners = LIVE_TOPICS.map((topic) => {
      const listener = () => invalidate(queryClient, topic);
      source.addEventListener(topic, listener);
      return [topic, listener] as const;
    });
    const onError = () => {
      dropped = true;
    };
    const onOpen = () => {
      if (!dropped) return;
      dropped = false;
      for (const topic of LIVE_TOPICS) invalidate(queryClient, topic);
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
