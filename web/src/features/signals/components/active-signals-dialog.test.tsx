import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal } from "@/lib/api/models";
import { isSignalList, makeAnalysis, makeLockedSignal, makeSignal, makeSignals, signalPage, signalPageResponse } from "@/test/fixtures";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { NotificationBell } from "./active-signals-dialog";

afterEach(() => vi.unstubAllGlobals());

/** Every page of GET /api/signals?status=active (200 a page), from `active`. */
function api(active: Signal[]) {
  return mockFetch((url) => {
    if (url.startsWith("/api/signals?status=active&limit=200")) return signalPageResponse(url, active);
    if (isSignalList(url)) return jsonResponse(signalPage([]));
    if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
    return jsonResponse([]);
  });
}

describe("NotificationBell", () => {
  it("shows no count badge at zero and lists no active signals", async () => {
    api([]);
    renderWithProviders(<NotificationBell />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Notifications: 0 active signals" }));
    expect(await screen.findByText("No active signals")).toBeInTheDocument();
    expect(screen.queryByTestId("notification-count")).not.toBeInTheDocument();
  });

  it("counts the active signals from the server, 9+ above 9", async () => {
    api(makeSignals(3));
    const first = renderWithProviders(<NotificationBell />);
    expect(await screen.findByTestId("notification-count")).toHaveTextContent("3");
    first.unmount();

    api([...makeSignals(12), makeLockedSignal()]);
    renderWithProviders(<NotificationBell />);
    expect(await screen.findByRole("button", { name: "Notifications: 12 active signals" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-count")).toHaveTextContent("9+");
  });

  it("counts the active signals of every page, following the cursor", async () => {
    const fetchMock = api([...makeSignals(230), makeLockedSignal()]);
    renderWithProviders(<NotificationBell />);
    expect(await screen.findByRole("button", { name: "Notifications: 230 active signals" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith("/api/signals"))).toEqual([
      "/api/signals?status=active&limit=200",
      "/api/signals?status=active&limit=200&cursor=c200",
    ]);
  });

  it("lists each active signal and opens its details", async () => {
    api([makeSignal({ symbol: "MSFT", companyName: "Microsoft Corporation", signalType: "PUT", strategy: "Breakout", confidence: 82 })]);
    renderWithProviders(<NotificationBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Notifications: 1 active signal" }));
    const list = await screen.findByRole("list", { name: "Active signals" });
    const item = within(list).getByRole("button");
    for (const text of ["MSFT", "Microsoft Corporation", "PUT", "Breakout", "82%", "Strike $250.00", "+0.8%", "+$45.00 (+14.1%)"]) {
      expect(item).toHaveTextContent(text);
    }
    await user.click(item);
    expect(await screen.findByRole("heading", { name: "MSFT" })).toBeInTheDocument();
    expect(await screen.findByRole("img", { name: /^Price chart: MSFT/ })).toBeInTheDocument();
  });
});
