import { renderHook, waitFor } from "@testing-library/react";
import type * as React from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isSignalList, makeSignals, signalPage, signalPageResponse } from "@/test/fixtures";
import { createTestQueryClient, jsonResponse, mockFetch, problem } from "@/test/utils";
import { makeUserSettings } from "@/test/settings-fixtures";
import { getAllSignals, signalsOf, useSignalRefetch, useSignals } from "./get-signals";

afterEach(() => vi.unstubAllGlobals());

/** The signal-list requests (the hooks also read the user's settings, for Auto-update Signals). */
const calls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith("/api/signals"));

describe("useSignals (the paged list)", () => {
  function wrapper({ children }: { children: React.ReactNode }) {
    return <QueryClientProvider client={createTestQueryClient()}>{children}</QueryClientProvider>;
  }

  it("follows the cursors, 50 a page, and stops on the last page", async () => {
    const all = makeSignals(110);
    const fetchMock = mockFetch((url) => (isSignalList(url) ? signalPageResponse(url, all) : problem(404, "Not Found")));
    const { result } = renderHook(() => useSignals({ status: "active" }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(signalsOf(result.current.data)).toHaveLength(50);
    expect(result.current.hasNextPage).toBe(true);

    await result.current.fetchNextPage();
    await waitFor(() => expect(signalsOf(result.current.data)).toHaveLength(100));
    expect(result.current.hasNextPage).toBe(true);

    await result.current.fetchNextPage();
    await waitFor(() => expect(signalsOf(result.current.data)).toHaveLength(110));
    expect(result.current.hasNextPage).toBe(false);
    expect(signalsOf(result.current.data).map((s) => s.symbol)).toEqual(all.map((s) => s.symbol));
    expect(calls(fetchMock)).toEqual([
      "/api/signals?status=active&limit=50",
      "/api/signals?status=active&limit=50&cursor=c50",
      "/api/signals?status=active&limit=50&cursor=c100",
    ]);
  });

  it("has no next page when the first page has no cursor (null or absent)", async () => {
    mockFetch(() => jsonResponse({ signals: makeSignals(3) }));
    const { result } = renderHook(() => useSignals(), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.hasNextPage).toBe(false);
  });
});

describe("getAllSignals", () => {
  it("reads every page, 200 a request, and reports the running count", async () => {
    const all = makeSignals(450);
    const fetchMock = mockFetch((url) => signalPageResponse(url, all));
    const progress: number[] = [];
    const signals = await getAllSignals({ strategy: "Breakout" }, { onProgress: (n) => progress.push(n) });
    expect(signals).toHaveLength(450);
    expect(progress).toEqual([200, 400, 450]);
    expect(calls(fetchMock)).toEqual([
      "/api/signals?strategy=Breakout&limit=200",
      "/api/signals?strategy=Breakout&limit=200&cursor=c200",
      "/api/signals?strategy=Breakout&limit=200&cursor=c400",
    ]);
  });

  it("rejects when any page fails, returning nothing partial", async () => {
    mockFetch((url) =>
      url.includes("cursor=c200")
        ? problem(422, "Unprocessable Entity", "The cursor is not valid.")
        : signalPageResponse(url, makeSignals(500)),
    );
    await expect(getAllSignals()).rejects.toMatchObject({ status: 422 });
  });

  it("stops at a cursor it has already followed", async () => {
    const fetchMock = mockFetch(() => jsonResponse(signalPage(makeSignals(2), "again")));
    expect(await getAllSignals()).toHaveLength(4);
    expect(calls(fetchMock)).toEqual(["/api/signals?limit=200", "/api/signals?limit=200&cursor=again"]);
  });
});

describe("Auto-update Signals", () => {
  function wrapper({ children }: { children: React.ReactNode }) {
    return <QueryClientProvider client={createTestQueryClient()}>{children}</QueryClientProvider>;
  }

  it("polls every 30 s while it is on (and while the settings load), never while it is off", async () => {
    mockFetch(() => jsonResponse(makeUserSettings({ autoUpdateSignals: true })));
    const on = renderHook(() => useSignalRefetch(), { wrapper });
    expect(on.result.current).toBe(30_000);
    vi.unstubAllGlobals();

    mockFetch(() => jsonResponse(makeUserSettings({ autoUpdateSignals: false })));
    const off = renderHook(() => useSignalRefetch(), { wrapper });
    expect(off.result.current).toBe(30_000);
    await waitFor(() => expect(off.result.current).toBe(false));
  });
});
