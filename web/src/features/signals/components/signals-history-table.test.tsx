import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal } from "@/lib/api/models";
import { isSignalList, makeSignals, signalPageResponse } from "@/test/fixtures";
import { mockFetch, problem, renderWithProviders } from "@/test/utils";
import { SignalsHistoryTable } from "./signals-history-table";

afterEach(() => vi.unstubAllGlobals());

function api(all: Signal[]) {
  return mockFetch((url) => (isSignalList(url) ? signalPageResponse(url, all) : problem(404, "Not Found")));
}

const rows = () =>
  within(screen.getByRole("region", { name: "Recent signals history table" }))
    .getAllByRole("row")
    .slice(1);

describe("SignalsHistoryTable", () => {
  it("pages the loaded signals 10 at a time and loads older ones through the cursor", async () => {
    const fetchMock = api(makeSignals(75));
    renderWithProviders(<SignalsHistoryTable />);
    expect(await screen.findByText("Showing 1 to 10 of 50 signals")).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
    const nav = screen.getByRole("navigation", { name: "Signals history pages" });
    expect(
      within(nav)
        .getAllByRole("button", { name: /^Page \d+$/ })
        .map((b) => b.textContent),
    ).toEqual(["1", "2", "5"]);

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Load older signals" }));
    // The page with the first older signal (the 51st).
    expect(await screen.findByText("Showing 51 to 60 of 75 signals")).toBeInTheDocument();
    expect(within(rows()[0]).getByText("SYM51")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load older signals" })).not.toBeInTheDocument();
    const signalCalls = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith("/api/signals"));
    expect(signalCalls).toEqual(["/api/signals?limit=50", "/api/signals?limit=50&cursor=c50"]);
  });

  it("shows each signal's strength as a score out of 100, not a percentage", async () => {
    api(makeSignals(1, { confidence: 74 }));
    renderWithProviders(<SignalsHistoryTable />);
    expect(await screen.findByText("Showing 1 to 1 of 1 signals")).toBeInTheDocument();
    const table = within(screen.getByRole("region", { name: "Recent signals history table" }));
    expect(table.getByRole("columnheader", { name: "Strength" })).toBeInTheDocument();
    expect(table.queryByRole("columnheader", { name: "Confidence" })).not.toBeInTheDocument();
    expect(within(rows()[0]).getByText("74/100")).toBeInTheDocument();
    expect(rows()[0]).not.toHaveTextContent("74%");
  });

  it("offers no older signals when everything fits one page", async () => {
    api(makeSignals(12));
    renderWithProviders(<SignalsHistoryTable />);
    expect(await screen.findByText("Showing 1 to 10 of 12 signals")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load older signals" })).not.toBeInTheDocument();
  });
});
