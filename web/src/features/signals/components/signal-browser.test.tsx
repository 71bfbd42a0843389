import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Signal } from "@/lib/api/models";
import {
  captureDownloads,
  isSignalList,
  makeAnalysis,
  makeCustomStrategy,
  makeLockedSignal,
  makeSignal,
  makeSignals,
  makeStockPrice,
  signalPage,
  signalPageResponse,
} from "@/test/fixtures";
import { bodyOf, jsonResponse, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { signalsQueryKey } from "../api/get-signals";
import { SIGNAL_CSV_HEADER } from "../lib/export-csv";
import { EMPTY_FILTERS, type FilterState } from "../lib/filters";
import { SignalBrowser } from "./signal-browser";

afterEach(() => vi.unstubAllGlobals());

function Harness({ pageSize = 4 }: { pageSize?: number }) {
  const [filters, setFilters] = useState<FilterState>(EMPTY_FILTERS);
  return (
    <SignalBrowser
      title="Live Signals"
      filters={filters}
      onFiltersChange={setFilters}
      pageSize={pageSize}
      skeletons={4}
      fetchErrorText={(e) => `Failed to fetch signals: ${"status" in e ? String(e.status) : "?"}`}
      gridClassName="sm:grid-cols-2"
    />
  );
}

/** The signals matching a request's filters (paged as the server does), or a whole answer. */
type Api = { signals?: (url: string) => Signal[] | Response | Promise<Response> };

function api({ signals = () => [] }: Api = {}) {
  return mockFetch((url, init) => {
    if (isSignalList(url)) {
      const answer = signals(url);
      return Array.isArray(answer) ? signalPageResponse(url, answer) : answer;
    }
    if (url.endsWith("/analysis")) return jsonResponse(makeAnalysis());
    if (url === "/api/refresh" && init.method === "POST") return jsonResponse({ refreshedAt: "2026-11-23T15:00:00Z" }, 202);
    return problem(404, "Not Found");
  });
}

const signalCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith("/api/signals"));

describe("SignalBrowser", () => {
  it("shows 4 loading placeholders until the signals arrive", async () => {
    let answer: (r: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<Harness />);
    expect(screen.getAllByTestId("signal-card-skeleton")).toHaveLength(4);
    answer(jsonResponse(signalPage([makeSignal()])));
    expect(await screen.findByRole("article", { name: "AAPL CALL signal" })).toBeInTheDocument();
    expect(screen.queryByTestId("signal-card-skeleton")).not.toBeInTheDocument();
  });

  it("shows the empty state", async () => {
    api();
    renderWithProviders(<Harness />);
    expect(await screen.findByText("No signals found matching your criteria")).toBeInTheDocument();
  });

  it("shows the card's symbol, company, type, strategy, strength (dots and score out of 100), strike, expiry, prices and P&L", async () => {
    api({ signals: () => [makeSignal({ confidence: 78 })] });
    renderWithProviders(<Harness />);
    const card = await screen.findByRole("article", { name: "AAPL CALL signal" });
    const c = within(card);
    expect(c.getByText("Apple Inc.")).toBeInTheDocument();
    expect(c.getByText("CALL")).toBeInTheDocument();
    expect(c.getByText("Momentum")).toBeInTheDocument();
    expect(c.getByText("78/100")).toBeInTheDocument();
    expect(c.getByRole("img", { name: "Strength 78 out of 100" })).toBeInTheDocument();
    expect(c.queryByText("78%")).not.toBeInTheDocument();
    expect(c.getByTestId("confidence-dots")).toHaveAttribute("data-filled", "3");
    expect(c.getByText("$250.00")).toBeInTheDocument();
    expect(c.getByText("Dec 18, 2026")).toBeInTheDocument();
    expect(card).toHaveTextContent("$3.20 → $3.65");
    expect(c.getByText("+$45.00 (+14.1%)")).toBeInTheDocument();
  });

  it("names a custom strategy's signal after the user's strategy that issued it, else 'Custom', and filters on them", async () => {
    const mine = makeCustomStrategy({ active: true });
    const fetchMock = mockFetch((url) => {
      if (isSignalList(url)) {
        return signalPageResponse(url, [
          makeSignal({ symbol: "NVDA", strategy: "Custom", customStrategyId: mine.id, onDemand: false }),
          // Its strategy was deleted since: the signal names none.
          makeSignal({ symbol: "AMD", strategy: "Custom" }),
          makeSignal({ symbol: "MSFT" }),
        ]);
      }
      if (url === "/api/strategies/custom") return jsonResponse([mine]);
      return problem(404, "Not Found");
    });
    renderWithProviders(<Harness />);
    const badge = (symbol: string) => within(screen.getByRole("article", { name: `${symbol} CALL signal` })).getByTestId("strategy-badge");
    await screen.findByRole("article", { name: "NVDA CALL signal" });
    await waitFor(() => expect(badge("NVDA")).toHaveTextContent("Oversold bounce (your custom strategy)"));
    expect(badge("AMD")).toHaveTextContent(/^Custom$/);
    expect(badge("MSFT")).toHaveTextContent(/^Momentum$/);
    // The user's list is read once for every card.
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === "/api/strategies/custom")).toHaveLength(1);

    await userEvent.setup().selectOptions(screen.getByLabelText("Strategy"), "Custom");
    await waitFor(() => expect(signalCalls(fetchMock)).toContain("/api/signals?strategy=Custom&limit=50"));
  });

  it("asks nothing of the custom strategies when no signal is a custom strategy's", async () => {
    const fetchMock = api({ signals: () => [makeSignal(), makeSignal({ symbol: "MSFT", strategy: "Breakout" })] });
    renderWithProviders(<Harness />);
    await screen.findByRole("article", { name: "MSFT CALL signal" });
    expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith("/api/strategies/custom"))).toBe(false);
  });

  it("sends only the filters that are set, leaving 'All' out", async () => {
    const fetchMock = api({ signals: () => [makeSignal()] });
    renderWithProviders(<Harness />);
    await screen.findByRole("article", { name: "AAPL CALL signal" });
    expect(signalCalls(fetchMock)).toEqual(["/api/signals?limit=50"]);

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Strategy"), "Momentum");
    await waitFor(() => expect(signalCalls(fetchMock)).toContain("/api/signals?strategy=Momentum&limit=50"));

    await user.type(screen.getByLabelText("Symbol"), "aa");
    await user.selectOptions(screen.getByLabelText("Strategy"), "Breakout");
    await user.selectOptions(screen.getByLabelText("Type"), "PUT");
    await user.selectOptions(screen.getByLabelText("Status"), "closed");
    await user.selectOptions(screen.getByLabelText("Cost per contract"), "50-100");
    await user.selectOptions(screen.getByLabelText("Risk level"), "high");
    await waitFor(() =>
      expect(signalCalls(fetchMock)).toContain(
        "/api/signals?symbol=AA&strategy=Breakout&signalType=PUT&status=closed&maxCost=50-100&riskLevel=high&limit=50",
      ),
    );

    for (const [label, all] of [
      ["Strategy", "All Strategies"],
      ["Type", "All Types"],
      ["Status", "All Statuses"],
      ["Cost per contract", "Any Cost"],
    ] as const) {
      await user.selectOptions(screen.getByLabelText(label), all);
    }
    await user.clear(screen.getByLabelText("Symbol"));
    await waitFor(() => expect(signalCalls(fetchMock).at(-1)).toBe("/api/signals?riskLevel=high&limit=50"));
    expect(signalCalls(fetchMock).some((u) => /=all\b|symbol=(&|$)/.test(u))).toBe(false);
  });

  it("paginates 4 per page with Previous, Next and numbered pages with ellipses", async () => {
    api({ signals: () => makeSignals(30) });
    renderWithProviders(<Harness />);
    expect(await screen.findByText("Showing 1 to 4 of 30 signals")).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Live Signals pages" });
    const pages = () =>
      within(nav)
        .getAllByRole("button", { name: /^Page \d+$/ })
        .map((b) => b.textContent);
    expect(pages()).toEqual(["1", "2", "8"]);
    expect(within(nav).getAllByTestId("page-gap")).toHaveLength(1);
    expect(within(nav).getByRole("button", { name: "Previous" })).toBeDisabled();
    expect(within(nav).getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");

    const user = userEvent.setup();
    await user.click(within(nav).getByRole("button", { name: "Next" }));
    expect(screen.getByText("Showing 5 to 8 of 30 signals")).toBeInTheDocument();
    expect(screen.getByRole("article", { name: "SYM5 CALL signal" })).toBeInTheDocument();

    await user.click(within(nav).getByRole("button", { name: "Page 3" }));
    await user.click(within(nav).getByRole("button", { name: "Page 4" }));
    expect(pages()).toEqual(["1", "3", "4", "5", "8"]);
    expect(within(nav).getAllByTestId("page-gap")).toHaveLength(2);

    await user.click(within(nav).getByRole("button", { name: "Page 8" }));
    expect(screen.getByText("Showing 29 to 30 of 30 signals")).toBeInTheDocument();
    expect(within(nav).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(screen.getAllByRole("article")).toHaveLength(2);
  });

  it("goes back to page 1 when the number of results changes", async () => {
    api({ signals: () => makeSignals(12) });
    const { queryClient } = renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 12 signals");
    await userEvent.setup().click(screen.getByRole("button", { name: "Page 3" }));
    expect(screen.getByText("Showing 9 to 12 of 12 signals")).toBeInTheDocument();

    // A live update brings one more signal.
    queryClient.setQueryData(signalsQueryKey({}), {
      pages: [signalPage([makeSignal({ symbol: "NEW" }), ...makeSignals(12)])],
      pageParams: [undefined],
    });
    expect(await screen.findByText("Showing 1 to 4 of 13 signals")).toBeInTheDocument();
    expect(screen.getByRole("article", { name: "NEW CALL signal" })).toBeInTheDocument();
  });

  it("exports exactly the filtered list as CSV, quoting commas and quotes", async () => {
    const all = [
      makeSignal({ symbol: "CRM", companyName: "Salesforce, Inc.", strategy: "Breakout" }),
      makeSignal({ symbol: "QQQ", companyName: 'The "Quote" Co', strategy: "Breakout", pnl: -12.5, pnlPercent: -3.9 }),
      makeSignal({ symbol: "AAPL", strategy: "Momentum" }),
    ];
    api({ signals: (url) => (url.includes("strategy=Breakout") ? all.filter((s) => s.strategy === "Breakout") : all) });
    const downloads = captureDownloads();
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 3 of 3 signals");
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Strategy"), "Breakout");
    await screen.findByText("Showing 1 to 2 of 2 signals");
    await waitFor(() => expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled());
    await user.click(screen.getByRole("button", { name: "Export CSV" }));

    const [text] = await downloads.texts();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(SIGNAL_CSV_HEADER.join(","));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^CRM,"Salesforce, Inc\.",CALL,Breakout,250,2026-12-18,3\.2,3\.65,/);
    expect(lines[2]).toMatch(/^QQQ,"The ""Quote"" Co",CALL,Breakout,/);
    expect(lines[2]).toContain(",-12.5,-3.9,");
    expect(lines[1].endsWith(",no")).toBe(true);
    expect(downloads.names[0]).toMatch(/^strikeline-signals-\d{4}-\d\d-\d\d\.csv$/);
    expect(await screen.findByText("Signals Exported")).toBeInTheDocument();
  });

  it("shows a locked signal blurred, with an upgrade link and no details", async () => {
    api({ signals: () => [makeLockedSignal({ symbol: "NVDA", companyName: "NVIDIA Corporation" })] });
    renderWithProviders(<Harness />);
    const card = await screen.findByRole("article", { name: "NVDA signal, locked" });
    expect(within(card).getByText("Locked signal")).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/pricing");
    expect(within(card).queryByRole("button", { name: /View Details/ })).not.toBeInTheDocument();
    expect(within(card).queryByText("$250.00")).not.toBeInTheDocument();
  });

  it("posts /api/refresh only when asked, and says when it fails", async () => {
    let refreshOk = true;
    const fetchMock = mockFetch((url) => {
      if (url === "/api/refresh")
        return refreshOk ? jsonResponse({ refreshedAt: "x" }, 202) : problem(429, "Too Many Requests", "Try again in 30 seconds.");
      return jsonResponse(signalPage([makeSignal()]));
    });
    renderWithProviders(<Harness />);
    await screen.findByRole("article", { name: "AAPL CALL signal" });
    const refreshCalls = () => fetchMock.mock.calls.filter(([u]) => u === "/api/refresh").length;
    expect(refreshCalls()).toBe(0);

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(refreshCalls()).toBe(1));
    expect(fetchMock.mock.calls.find(([u]) => u === "/api/refresh")?.[1]).toMatchObject({ method: "POST" });

    refreshOk = false;
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Failed to refresh signals")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });

  it("says when the signals cannot be fetched", async () => {
    api({ signals: () => problem(500, "Internal Server Error") });
    renderWithProviders(<Harness />);
    expect(await screen.findByText("Failed to fetch signals: 500")).toBeInTheDocument();
  });

  it("opens the detail dialog with every field, the charts and the risk figures", async () => {
    api({ signals: () => [makeSignal()] });
    renderWithProviders(<Harness />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "View Details for AAPL" }));
    const dialog = await screen.findByRole("dialog");
    const d = within(dialog);
    expect(d.getByRole("heading", { name: "AAPL" })).toBeInTheDocument();
    expect(d.getByText("Apple Inc.")).toBeInTheDocument();
    for (const [label, value] of [
      ["Strategy", "Momentum"],
      ["Status", "ACTIVE"],
      ["Expiration", "Dec 18, 2026"],
      ["Strike Price", "$250.00"],
      ["Current Price", "$248.10"],
      ["Price Change", "+$1.92 (+0.8%)"],
      ["Entry Price", "$3.20"],
      ["Option Price", "$3.65"],
      ["P&L per contract", "+$45.00"],
      ["P&L %", "+14.1%"],
      ["RSI", "61.4"],
      ["Volume", "48.3M"],
    ]) {
      expect(d.getByText(label).nextElementSibling).toHaveTextContent(value);
    }
    expect(d.getByText("Created").nextElementSibling?.textContent).toMatch(/2026/);
    expect(await d.findByRole("img", { name: /^Price chart: AAPL daily closes over the last 90 trading days/ })).toBeInTheDocument();
    expect(d.getByRole("img", { name: /^Payoff chart/ })).toBeInTheDocument();
    expect(d.getByText("Strike $250.00")).toBeInTheDocument();
    expect(d.getByText("Target $256.40")).toBeInTheDocument();
    expect(d.getByText("Stop $242.10")).toBeInTheDocument();
    expect(d.getByText("BE $253.20")).toBeInTheDocument();
    expect(d.getByText("Max Gain").nextElementSibling).toHaveTextContent("Unlimited");
    expect(d.getByText("Max Loss").nextElementSibling).toHaveTextContent("$320.00");
    expect(d.getByText("Probability of Profit").nextElementSibling).toHaveTextContent("41.2%");
    expect(d.getByText("Expected Move").nextElementSibling).toHaveTextContent("±$11.85");
  });

  it("leaves out RSI and volume when absent and shows N/A for a missing created time", async () => {
    api({ signals: () => [makeSignal({ rsi: null, volume: null, createdAt: "" })] });
    renderWithProviders(<Harness />);
    await userEvent.setup().click(await screen.findByRole("button", { name: "View Details for AAPL" }));
    const d = within(await screen.findByRole("dialog"));
    expect(d.queryByText("RSI")).not.toBeInTheDocument();
    expect(d.queryByText("Volume")).not.toBeInTheDocument();
    expect(d.getByText("Created").nextElementSibling).toHaveTextContent("N/A");
  });

  it("reads an omitted nullable field as null (the OpenAPI document marks them optional)", async () => {
    const sparse: Partial<Signal> = makeSignal();
    for (const key of ["rsi", "volume", "pnl", "pnlPercent", "targetPrice", "stopLoss", "volatility"] as const) delete sparse[key];
    api({ signals: () => [sparse as Signal] });
    renderWithProviders(<Harness />);
    const card = await screen.findByRole("article", { name: "AAPL CALL signal" });
    expect(within(card).getByText("P&L per contract").nextElementSibling).toHaveTextContent("—");
    await userEvent.setup().click(within(card).getByRole("button", { name: "View Details for AAPL" }));
    const d = within(await screen.findByRole("dialog"));
    expect(d.queryByText("RSI")).not.toBeInTheDocument();
    expect(d.queryByText("P&L %")).not.toBeInTheDocument();
  });
});

describe("SignalBrowser older signals", () => {
  it("loads 50 at a time and follows the cursor to older pages until the last", async () => {
    const all = makeSignals(120);
    const fetchMock = api({ signals: () => all });
    renderWithProviders(<Harness />);
    expect(await screen.findByText("Showing 1 to 4 of 50 signals")).toBeInTheDocument();
    expect(signalCalls(fetchMock)).toEqual(["/api/signals?limit=50"]);

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Load older signals" }));
    // The page that shows the first older signal (the 51st).
    expect(await screen.findByText("Showing 49 to 52 of 100 signals")).toBeInTheDocument();
    expect(screen.getByRole("article", { name: "SYM51 CALL signal" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Page 13" })).toHaveAttribute("aria-current", "page");

    await user.click(screen.getByRole("button", { name: "Load older signals" }));
    expect(await screen.findByText("Showing 101 to 104 of 120 signals")).toBeInTheDocument();
    // The last page: no cursor, no button, no further request.
    expect(screen.queryByRole("button", { name: "Load older signals" })).not.toBeInTheDocument();
    expect(signalCalls(fetchMock)).toEqual([
      "/api/signals?limit=50",
      "/api/signals?limit=50&cursor=c50",
      "/api/signals?limit=50&cursor=c100",
    ]);
  });

  it("offers 'Load older signals' only when there is a next page", async () => {
    api({ signals: () => makeSignals(50) });
    const first = renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 50 signals");
    expect(screen.queryByRole("button", { name: "Load older signals" })).not.toBeInTheDocument();
    first.unmount();

    api({ signals: () => makeSignals(51) });
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 50 signals");
    expect(screen.getByRole("button", { name: "Load older signals" })).toBeEnabled();
  });

  it("keeps filters on older pages and shows the button busy while one loads", async () => {
    const all = makeSignals(60, { strategy: "Breakout" });
    let answer: (r: Response) => void = () => {};
    const fetchMock = api({
      signals: (url) => (url.includes("cursor=") ? new Promise<Response>((resolve) => (answer = resolve)) : all),
    });
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 50 signals");
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Strategy"), "Breakout");
    await waitFor(() => expect(signalCalls(fetchMock)).toContain("/api/signals?strategy=Breakout&limit=50"));
    await waitFor(() => expect(screen.getByRole("button", { name: "Load older signals" })).toBeEnabled());

    await user.click(screen.getByRole("button", { name: "Load older signals" }));
    const busy = await screen.findByRole("button", { name: "Loading older signals..." });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute("aria-busy", "true");
    expect(signalCalls(fetchMock).at(-1)).toBe("/api/signals?strategy=Breakout&limit=50&cursor=c50");

    answer(signalPageResponse("/api/signals?limit=50&cursor=c50", all));
    expect(await screen.findByText("Showing 49 to 52 of 60 signals")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /older signals/ })).not.toBeInTheDocument();
  });

  it("toasts a failed older page and keeps the signals loaded and the button", async () => {
    api({
      signals: (url) =>
        url.includes("cursor=")
          ? problem(422, "Unprocessable Entity", "The cursor is not valid.", [{ field: "cursor", message: "unknown" }])
          : makeSignals(80),
    });
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 50 signals");
    await userEvent.setup().click(screen.getByRole("button", { name: "Load older signals" }));
    expect(await screen.findByText("The cursor is not valid.")).toBeInTheDocument();
    expect(screen.getByText("Showing 1 to 4 of 50 signals")).toBeInTheDocument();
    expect(screen.queryByText(/^Failed to fetch signals/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Load older signals" })).toBeEnabled();
  });
});

describe("SignalBrowser CSV export", () => {
  it("exports every signal matching the filters, 200 per request through every page, with progress", async () => {
    const breakout = makeSignals(450, { strategy: "Breakout" });
    const all = [...breakout, makeSignal({ symbol: "MOMO", strategy: "Momentum" })];
    const pending: (() => void)[] = [];
    const fetchMock = api({
      signals: (url) => {
        const matching = url.includes("strategy=Breakout") ? breakout : all;
        if (!url.includes("limit=200")) return matching;
        // Export pages wait until the test lets them through.
        return new Promise<Response>((resolve) => pending.push(() => resolve(signalPageResponse(url, matching))));
      },
    });
    const downloads = captureDownloads();
    renderWithProviders(<Harness />);
    const user = userEvent.setup();
    await screen.findByText("Showing 1 to 4 of 50 signals");
    await user.selectOptions(screen.getByLabelText("Strategy"), "Breakout");
    await waitFor(() => expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled());
    await user.click(screen.getByRole("button", { name: "Export CSV" }));

    const button = () => screen.getByRole("button", { name: /^Export(ing)/ });
    expect(button()).toHaveTextContent("Exporting...");
    expect(button()).toBeDisabled();
    expect(button()).toHaveAttribute("aria-busy", "true");
    for (const progress of ["Exporting... 200 signals", "Exporting... 400 signals"]) {
      await waitFor(() => expect(pending).toHaveLength(1));
      pending.shift()?.();
      await waitFor(() => expect(button()).toHaveTextContent(progress));
      expect(button()).toBeDisabled();
      expect(downloads.blobs).toHaveLength(0);
    }
    await waitFor(() => expect(pending).toHaveLength(1));
    pending.shift()?.();

    expect(await screen.findByText("Signals Exported")).toBeInTheDocument();
    expect(screen.getByText(/^Saved 450 signals to strikeline-signals-/)).toBeInTheDocument();
    const [text] = await downloads.texts();
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(451);
    expect(lines.slice(1).every((line) => line.includes(",Breakout,"))).toBe(true);
    expect(lines[450]).toMatch(/^SYM450,/);
    expect(signalCalls(fetchMock).filter((u) => u.includes("limit=200"))).toEqual([
      "/api/signals?strategy=Breakout&limit=200",
      "/api/signals?strategy=Breakout&limit=200&cursor=c200",
      "/api/signals?strategy=Breakout&limit=200&cursor=c400",
    ]);
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled();
    downloads.restore();
  });

  it("downloads nothing when a page fails, and says so", async () => {
    api({
      signals: (url) =>
        url.includes("limit=200") && url.includes("cursor=c200")
          ? problem(500, "Internal Server Error", "The database is unavailable.")
          : makeSignals(300),
    });
    const downloads = captureDownloads();
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 4 of 50 signals");
    await userEvent.setup().click(screen.getByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("The database is unavailable.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(screen.queryByText("Signals Exported")).not.toBeInTheDocument();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    expect(downloads.names).toEqual([]);
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeEnabled();
    downloads.restore();
  });

  it("exports locked signals as they are shown", async () => {
    api({ signals: () => [makeLockedSignal({ symbol: "NVDA", companyName: "NVIDIA Corporation" }), makeSignal()] });
    const downloads = captureDownloads();
    renderWithProviders(<Harness />);
    await screen.findByText("Showing 1 to 2 of 2 signals");
    await userEvent.setup().click(screen.getByRole("button", { name: "Export CSV" }));
    const [text] = await downloads.texts();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[1]).toBe("NVDA,NVIDIA Corporation,,Momentum,,,,,,,,,,,,,,,,2026-11-23T14:30:00Z,yes");
    expect(lines[2].endsWith(",no")).toBe(true);
    downloads.restore();
  });
});

describe("Generate Signal", () => {
  async function openDialog() {
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Generate Signal" }));
    return { user, dialog: within(await screen.findByRole("dialog", { name: "Generate Signal" })) };
  }

  it("asks for a symbol when it is blank, without calling the server", async () => {
    const fetchMock = api();
    renderWithProviders(<Harness />);
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText("Stock Symbol"), "   ");
    await user.click(dialog.getByRole("button", { name: "Generate" }));
    expect(await screen.findByText("Symbol Required")).toBeInTheDocument();
    expect(screen.getByText("Please enter a stock symbol to generate a signal")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => u === "/api/signals/generate-for-symbol")).toBe(false);
  });

  it("posts the upper-cased symbol and toasts the new signal", async () => {
    const fetchMock = mockFetch((url) =>
      url === "/api/signals/generate-for-symbol"
        ? jsonResponse(makeSignal({ symbol: "TSLA", onDemand: true }), 201)
        : jsonResponse(signalPage([])),
    );
    renderWithProviders(<Harness />);
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText("Stock Symbol"), " tsla ");
    await user.click(dialog.getByRole("button", { name: "Generate" }));
    expect(await screen.findByText("Signal Generated")).toBeInTheDocument();
    expect(screen.getByText("Created new signal for TSLA")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/signals/generate-for-symbol")).toEqual({ symbol: "TSLA" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Generate Signal" })).not.toBeInTheDocument());
  });

  it("toasts the failure and shows the server's reason under the input", async () => {
    mockFetch((url) =>
      url === "/api/signals/generate-for-symbol"
        ? problem(422, "Unprocessable Entity", "The symbol is not valid.", [{ field: "symbol", message: "Unknown symbol ZZZZ" }])
        : jsonResponse(signalPage([])),
    );
    renderWithProviders(<Harness />);
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText("Stock Symbol"), "zzzz");
    await user.click(dialog.getByRole("button", { name: "Generate" }));
    expect(await screen.findByText("Generation Failed")).toBeInTheDocument();
    expect(screen.getByText("Could not generate signal for this symbol")).toBeInTheDocument();
    expect(dialog.getByText("Unknown symbol ZZZZ")).toBeInTheDocument();
    expect(dialog.getByLabelText("Stock Symbol")).toHaveAttribute("aria-invalid", "true");
  });

  it("explains a used-up quota with a link to the plans", async () => {
    mockFetch((url) =>
      url === "/api/signals/generate-for-symbol"
        ? problem(429, "Too Many Requests", "You have used today's 50 signals.")
        : jsonResponse(signalPage([])),
    );
    renderWithProviders(<Harness />);
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText("Stock Symbol"), "aapl");
    await user.click(dialog.getByRole("button", { name: "Generate" }));
    expect(await dialog.findByText("You have used today's 50 signals.")).toBeInTheDocument();
    expect(dialog.getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");
  });
});

describe("SignalBrowser: implied volatility", () => {
  it("shows each card's symbol's IV and IV rank from the watchlist, read once for every card", async () => {
    const signals = [
      makeSignal({ symbol: "AAPL" }),
      makeSignal({ symbol: "MSFT", companyName: "Microsoft Corporation" }),
      makeSignal({ symbol: "AAPL", signalType: "PUT" }),
      makeSignal({ symbol: "GONE", companyName: "Delisted Corp." }),
    ];
    const fetchMock = mockFetch((url) => {
      if (isSignalList(url)) return signalPageResponse(url, signals);
      if (url === "/api/stock-prices") {
        return jsonResponse([
          makeStockPrice({ symbol: "AAPL", impliedVolatility: 0.2534, ivRank: 43.2, ivPercentile: 61 }),
          makeStockPrice({ symbol: "MSFT", impliedVolatility: 0.19, ivRank: null, ivPercentile: null }),
        ]);
      }
      return problem(404, "Not Found");
    });
    renderWithProviders(<Harness />);
    const fact = (card: HTMLElement, label: string) => within(card).getByText(label, { selector: "dt" }).nextElementSibling;

    const aapl = await screen.findByRole("article", { name: "AAPL CALL signal" });
    await waitFor(() => expect(fact(aapl, "IV (30-day)")).toHaveTextContent("25.3%"));
    expect(fact(aapl, "IV rank")).toHaveTextContent(/^43$/);
    expect(fact(screen.getByRole("article", { name: "AAPL PUT signal" }), "IV rank")).toHaveTextContent(/^43$/);

    const msft = screen.getByRole("article", { name: "MSFT CALL signal" });
    expect(fact(msft, "IV (30-day)")).toHaveTextContent("19.0%");
    const hidden = fact(msft, "IV rank")!;
    expect(hidden).toHaveTextContent("—IV rank needs 200 recorded sessions");
    expect(within(hidden as HTMLElement).getByTitle("IV rank needs 200 recorded sessions")).toBeInTheDocument();

    // Off the watchlist: plain dashes, no reason that does not apply.
    const gone = screen.getByRole("article", { name: "GONE CALL signal" });
    expect(fact(gone, "IV (30-day)")).toHaveTextContent(/^—$/);
    expect(fact(gone, "IV rank")).toHaveTextContent(/^—$/);

    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/stock-prices")).toHaveLength(1);
  });
});
