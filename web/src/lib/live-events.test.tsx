import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MockEventSource } from "@/test/fixtures";
import { createTestQueryClient } from "@/test/utils";
import { LIVE_EVENTS_URL, useLiveEvents } from "./live-events";

function Live() {
  useLiveEvents();
  return null;
}

function setup() {
  const queryClient = createTestQueryClient();
  const keys = [["/api/signals", {}], ["/api/signals", { status: "active" }], ["/api/stock-prices"], ["/api/stats"], ["/api/automation/status"], ["/api/auth/me"]];
  for (const key of keys) queryClient.setQueryData(key, []);
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <Live />
    </QueryClientProvider>,
  );
  const stale = () =>
    keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
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

    source.emit("signals");
    expect(stale()).toEqual(['["/api/signals",{}]', '["/api/signals",{"status":"active"}]']);

    source.emit("prices");
    source.emit("stats");
    source.emit("automation");
    expect(stale()).toHaveLength(5);
    expect(stale()).not.toContain('["/api/auth/me"]');
  });

  it("invalidates everything live once a dropped stream reconnects", () => {
    const { stale } = setup();
    const source = MockEventSource.instances[0];
    source.emit("open");
    expect(stale()).toEqual([]);
    source.emit("error");
    source.emit("open");
    expect(stale()).toHaveLength(5);
  });

  it("does nothing without EventSource", () => {
    vi.stubGlobal("EventSource", undefined);
    expect(() => setup()).not.toThrow();
  });
});
