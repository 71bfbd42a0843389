import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/query-keys";
import { MockEventSource } from "@/test/fixtures";
import { makeEmptyPortfolioMetrics } from "@/test/portfolio-fixtures";
import { createTestQueryClient, jsonResponse, mockFetch } from "@/test/utils";
import {
  announceToOtherTabs,
  LIVE_EVENTS_URL,
  LIVE_TOPIC_PREFIXES,
  LIVE_TOPICS,
  type LiveTopic,
  TAB_CHANNEL,
  useLiveEvents,
} from "./live-events";

function Live({ paused = [] }: { paused?: readonly LiveTopic[] }) {
  useLiveEvents(LIVE_EVENTS_URL, paused);
  return null;
}

function setup(paused: readonly LiveTopic[] = []) {
  const queryClient = createTestQueryClient();
  const keys = [
    ["/api/signals", {}, "pages"],
    ["/api/signals", { status: "active" }, "all"],
    ["/api/stock-prices"],
    ["/api/stats"],
    ["/api/automation/status"],
    ["/api/auth/me"],
    ["/api/portfolio/metrics"],
    ["/api/portfolio/positions"],
    ["/api/portfolio/position", "p1"],
    ["/api/orders"],
    ["/api/manual-positions"],
    ["/api/manual-positions", "m1"],
    ["/api/notifications"],
    ["/api/price-alerts"],
    ["/api/news", { count: 5 }],
    ["/api/billing/subscription"],
    ["/api/billing/subscription", "change-preview", "pro", "monthly"],
    ["/api/billing/invoices"],
  ];
  for (const key of keys) queryClient.setQueryData(key, []);
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <Live paused={paused} />
    </QueryClientProvider>,
  );
  const stale = () => keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
  return { ...utils, queryClient, stale };
}

beforeEach(() => MockEventSource.install());
afterEach(() => vi.unstubAllGlobals());

describe("useLiveEvents", () => {
  it("opens the event stream once and closes it on unmount", () => {
    const { unmount } = setup();
    expect(MockEventSource.instances).toHaveLength(1);
    expect(MockEventSource.instances[0].url).toBe(LIVE_EVENTS_URL);
    unmount();
    expect(MockEventSource.instances[0].closed).toBe(true);
  });

  it("invalidates the queries matching each event, and only those", () => {
    const { stale } = setup();
    const source = MockEventSource.instances[0];
    expect(stale()).toEqual([]);

    source.emit("stats");
    expect(stale()).toEqual(['["/api/stats"]']);

    source.emit("prices");
    source.emit("signals");
    source.emit("automation");
    expect(stale()).toHaveLength(11);
    expect(stale()).not.toContain('["/api/auth/me"]');

    source.emit("notifications");
    source.emit("alerts");
    expect(stale()).toHaveLength(13);

    source.emit("news");
    expect(stale()).toHaveLength(14);
  });

  it("leaves a paused topic's queries alone (the signals, while Auto-update Signals is off)", () => {
    const { stale } = setup(["signals"]);
    const source = MockEventSource.instances[0];
    source.emit("signals");
    expect(stale()).toEqual([]);
    source.emit("stats");
    expect(stale()).toEqual(['["/api/stats"]']);
  });

  it("refetches the news list, under any count, on a news event and nothing else", () => {
    const { stale } = setup();
    MockEventSource.instances[0].emit("news");
    expect(stale()).toEqual(['["/api/news",{"count":5}]']);
  });

  it("refreshes the bell on a notifications event and the price alerts on an alerts event, nothing else", () => {
    const { stale } = setup();
    MockEventSource.instances[0].emit("notifications");
    expect(stale()).toEqual(['["/api/notifications"]']);
    MockEventSource.instances[0].emit("alerts");
    expect(stale()).toEqual(['["/api/notifications"]', '["/api/price-alerts"]']);
  });

  it("refreshes the portfolio on a signals event: metrics, positions, details and orders, not the manual positions", () => {
    const { stale } = setup();
    MockEventSource.instances[0].emit("signals");
    expect(stale()).toEqual([
      '["/api/signals",{},"pages"]',
      '["/api/signals",{"status":"active"},"all"]',
      '["/api/portfolio/metrics"]',
      '["/api/portfolio/positions"]',
      '["/api/portfolio/position","p1"]',
      '["/api/orders"]',
    ]);
  });

  it("refreshes the portfolio, manual positions included, on a prices event", () => {
    const { stale } = setup();
    MockEventSource.instances[0].emit("prices");
    expect(stale()).toEqual([
      '["/api/stock-prices"]',
      '["/api/portfolio/metrics"]',
      '["/api/portfolio/positions"]',
      '["/api/portfolio/position","p1"]',
      '["/api/manual-positions"]',
      '["/api/manual-positions","m1"]',
    ]);
  });

  it("refreshes the portfolio and the orders on an automation event (automation sends orders and opens positions)", () => {
    const { stale } = setup();
    MockEventSource.instances[0].emit("automation");
    expect(stale()).toEqual([
      '["/api/automation/status"]',
      '["/api/portfolio/metrics"]',
      '["/api/portfolio/positions"]',
      '["/api/portfolio/position","p1"]',
      '["/api/orders"]',
    ]);
  });

  it("maps every topic to its own prefix first, each topic in one place", () => {
    expect(LIVE_TOPICS.map((topic) => LIVE_TOPIC_PREFIXES[topic][0])).toEqual([
      queryKeys.signals.all(),
      queryKeys.stockPrices.all(),
      queryKeys.stats(),
      queryKeys.automation(),
      queryKeys.notifications(),
      queryKeys.priceAlerts(),
      queryKeys.news.all(),
    ]);
    expect(LIVE_TOPICS).toEqual(["signals", "prices", "stats", "automation", "notifications", "alerts", "news"]);
  });

  it("refetches an open portfolio query when a signals event arrives", async () => {
    const queryClient = createTestQueryClient();
    const fetchMock = mockFetch(() => jsonResponse(makeEmptyPortfolioMetrics()));
    function Metrics() {
      useLiveEvents();
      const { data } = useQuery({ queryKey: ["/api/portfolio/metrics"] });
      return <p>{data ? "loaded" : "loading"}</p>;
    }
    const { findByText } = render(
      <QueryClientProvider client={queryClient}>
        <Metrics />
      </QueryClientProvider>,
    );
    await findByText("loaded");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    MockEventSource.instances[0].emit("signals");
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(String(fetchMock.mock.calls[1][0])).toBe("/api/portfolio/metrics");
  });

  it("invalidates everything live once a dropped stream reconnects", () => {
    const { stale } = setup();
    const source = MockEventSource.instances[0];
    source.emit("open");
    expect(stale()).toEqual([]);
    source.emit("error");
    source.emit("open");
    expect(stale()).toHaveLength(14);
  });

  it("does nothing without EventSource", () => {
    vi.stubGlobal("EventSource", undefined);
    expect(() => setup()).not.toThrow();
  });
});

describe("the user's other tabs", () => {
  it("read the subscription, its change previews, the user and the invoices again when another tab changed the plan, and nothing else", async () => {
    const { stale } = setup();
    const otherTab = new BroadcastChannel(TAB_CHANNEL);
    try {
      otherTab.postMessage({ topic: "billing", from: "another-tab" });
      await waitFor(() =>
        expect(stale()).toEqual([
          '["/api/auth/me"]',
          '["/api/billing/subscription"]',
          '["/api/billing/subscription","change-preview","pro","monthly"]',
          '["/api/billing/invoices"]',
        ]),
      );
    } finally {
      otherTab.close();
    }
  });

  it("ignore what this tab announced itself (it refreshed already) and messages they do not know", async () => {
    const { stale } = setup();
    const otherTab = new BroadcastChannel(TAB_CHANNEL);
    const heard: unknown[] = [];
    otherTab.onmessage = (event) => heard.push(event.data);
    try {
      announceToOtherTabs("billing");
      otherTab.postMessage({ topic: "everything", from: "another-tab" });
      otherTab.postMessage("billing");
      await waitFor(() => expect(heard).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stale()).toEqual([]);
    } finally {
      otherTab.close();
    }
  });
});
