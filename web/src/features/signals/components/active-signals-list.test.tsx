import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal } from "@/lib/api/models";
import { isSignalList, makeAnalysis, makeLockedSignal, makeSignal, makeSignals, signalPage, signalPageResponse } from "@/test/fixtures";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import { ActiveSignalsList } from "./active-signals-list";

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

describe("ActiveSignalsList", () => {
  it("says 'No active signals' when none is open", async () => {
    api([]);
    renderWithProviders(<ActiveSignalsList />);
    expect(await screen.findByText("No active signals")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Active signals" })).not.toBeInTheDocument();
  });

  it("lists the active signals the user can open, not the locked ones", async () => {
    api([...makeSignals(3), makeLockedSignal()]);
    renderWithProviders(<ActiveSignalsList />);
    const list = await screen.findByRole("list", { name: "Active signals" });
    expect(within(list).getAllByRole("button")).toHaveLength(3);
  });

  it("lists the active signals of every page, following the cursor", async () => {
    const fetchMock = api([...makeSignals(230), makeLockedSignal()]);
    renderWithProviders(<ActiveSignalsList />);
    const list = await screen.findByRole("list", { name: "Active signals" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(230);
    expect(fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith("/api/signals"))).toEqual([
      "/api/signals?status=active&limit=200",
      "/api/signals?status=active&limit=200&cursor=c200",
    ]);
  });

  it("lists each active signal and opens its details", async () => {
    api([makeSignal({ symbol: "MSFT", companyName: "Microsoft Corporation", signalType: "PUT", strategy: "Breakout", confidence: 82 })]);
    renderWithProviders(<ActiveSignalsList />);
    const user = userEvent.setup();
    const list = await screen.findByRole("list", { name: "Active signals" });
    const item = within(list).getByRole("button");
    for (const text of [
      "MSFT",
      "Microsoft Corporation",
      "PUT",
      "Breakout",
      "Strength 82/100",
      "Strike $250.00",
      "+0.8%",
      "+$45.00 (+14.1%)",
    ]) {
      expect(item).toHaveTextContent(text);
    }
    // The strength is a heuristic score, never shown as a percentage.
    expect(item).not.toHaveTextContent("82%");
    await user.click(item);
    expect(await screen.findByRole("heading", { name: "MSFT" })).toBeInTheDocument();
    expect(await screen.findByRole("img", { name: /^Price chart: MSFT/ })).toBeInTheDocument();
  });
});
