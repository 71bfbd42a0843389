import { readFile } from "node:fs/promises";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { cardWithHeading, expect, registerViaApi, test, toastText, toastTitle, uniqueAccount, watchConsole } from "./fixtures";

// The dashboard and /signals against the real server and its simulated market. A new
// account is on the 14-day Pro trial, so it sees the day's signals and may generate one.

/** The CSV export's header line (src/features/signals/lib/export-csv.ts). */
const CSV_HEADER =
  "Symbol,Company,Type,Strategy,Strike,Expiration,Entry Price,Option Price,Underlying Price,Underlying Change %," +
  "Strength,RSI,Volume,P&L,P&L %,Target,Stop Loss,Status,Close Reason,Created At,Locked";

/** The simulated market's built-in listings (crates/market/src/simulated/universe.rs). */
const UNIVERSE = [
  "AAPL",
  "MSFT",
  "NVDA",
  "AVGO",
  "ORCL",
  "CRM",
  "AMD",
  "ADBE",
  "INTC",
  "GOOGL",
  "META",
  "NFLX",
  "DIS",
  "VZ",
  "T",
  "AMZN",
  "TSLA",
  "HD",
  "MCD",
  "NKE",
  "WMT",
  "KO",
  "PG",
  "COST",
  "JPM",
  "BAC",
  "V",
  "MA",
  "GS",
  "WFC",
  "BRK.B",
  "JNJ",
  "UNH",
  "LLY",
  "PFE",
  "MRK",
  "ABBV",
  "XOM",
  "CVX",
  "COP",
  "CAT",
  "BA",
  "GE",
  "HON",
  "NEE",
  "DUK",
  "PLD",
  "AMT",
  "LIN",
  "FCX",
];

/** The dashboard's signal cards section ("Live Signals"). */
const liveSignals = (page: Page) => cardWithHeading(page, "Live Signals");

function showing(section: Locator) {
  return section.getByText(/^Showing \d+ to \d+ of \d+ signals$/);
}

async function total(section: Locator): Promise<number> {
  const text = (await showing(section).textContent()) ?? "";
  return Number(/of (\d+) signals/.exec(text)?.[1] ?? 0);
}

/** The lists load GET /api/signals 50 at a time; more are behind "Load older signals". */
const PAGE_LIMIT = 50;

/** One page of GET /api/signals as the server answers it. */
type SignalPage = { signals: unknown[]; nextCursor?: string | null };

/** How many signals match `query` (e.g. "strategy=Breakout"), following every cursor. */
async function countSignals(request: APIRequestContext, query = ""): Promise<number> {
  let count = 0;
  let cursor: string | null | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set("limit", "200");
    if (cursor) params.set("cursor", cursor);
    const res = await request.get(`/api/signals?${params}`);
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as SignalPage;
    count += page.signals.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

test("the dashboard lists, filters, paginates, details, generates, adds stocks and exports", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Welcome back, Ada" })).toBeVisible();

  // Signals from the simulated market, the newest 50 loaded, 4 per page.
  const section = liveSignals(page);
  await expect(section.getByRole("article").first()).toBeVisible({ timeout: 15_000 });
  await expect(showing(section)).toHaveText(/^Showing 1 to 4 of \d+ signals$/);
  const all = await total(section);
  expect(all).toBeGreaterThan(4);
  expect(all).toBeLessThanOrEqual(PAGE_LIMIT);
  await expect(section.getByRole("article")).toHaveCount(4);
  for (const title of ["Active Signals", "Win Rate", "Avg Strength", "Portfolio Value"]) {
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
  }

  // Filter by strategy: the request carries only that filter, and every card shows it.
  const filtered = page.waitForResponse((r) => r.url().endsWith(`/api/signals?strategy=Momentum&limit=${PAGE_LIMIT}`) && r.ok());
  await section.getByLabel("Strategy", { exact: true }).selectOption("Momentum");
  const momentum = ((await (await filtered).json()) as SignalPage).signals.length;
  expect(momentum).toBeGreaterThan(0);
  expect(momentum).toBeLessThanOrEqual(all);
  await expect(showing(section)).toHaveText(`Showing 1 to ${Math.min(4, momentum)} of ${momentum} signals`);
  await expect(section.getByRole("article")).toHaveCount(Math.min(4, momentum));
  for (const card of await section.getByRole("article").all()) await expect(card).toContainText("Momentum");

  // Back to every strategy; paginate.
  await section.getByLabel("Strategy", { exact: true }).selectOption("all");
  await expect(showing(section)).toHaveText(`Showing 1 to 4 of ${all} signals`);
  const pages = section.getByRole("navigation", { name: "Live Signals pages" });
  await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();
  await expect(pages.getByRole("button", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await pages.getByRole("button", { name: "Next" }).click();
  await expect(showing(section)).toHaveText(`Showing 5 to ${Math.min(8, all)} of ${all} signals`);
  await expect(pages.getByRole("button", { name: "Page 2", exact: true })).toHaveAttribute("aria-current", "page");
  await pages.getByRole("button", { name: "Previous" }).click();
  await expect(showing(section)).toHaveText(`Showing 1 to 4 of ${all} signals`);

  // Details, with the price and payoff charts.
  await section
    .getByRole("button", { name: /^View Details for / })
    .first()
    .click();
  const detail = page.getByTestId("signal-detail");
  await expect(detail).toBeVisible();
  await expect(detail.getByText("Strike Price")).toBeVisible();
  await expect(detail.getByRole("img", { name: /^Price chart: / })).toBeVisible({ timeout: 10_000 });
  await expect(detail.getByRole("img", { name: /^Payoff chart: / })).toBeVisible();
  await expect(detail.getByText("Probability of Profit", { exact: true })).toBeVisible();
  await expect(detail.getByRole("heading", { name: "Three probabilities" })).toBeVisible();
  // The contract opens in the strategy builder (Premium; strategy-builder.spec.ts follows the link).
  await expect(detail.getByRole("link", { name: "Open in Strategy builder" })).toHaveAttribute("href", /^\/strategy-builder\?s=[\w-]+$/);
  await page.keyboard.press("Escape");
  await expect(detail).toHaveCount(0);

  // Generate a signal for a symbol (the trial includes on-demand generation).
  await section.getByRole("button", { name: "Generate Signal" }).click();
  const generate = page.getByRole("dialog", { name: "Generate Signal" });
  await generate.getByLabel("Stock Symbol").fill("msft");
  await generate.getByRole("button", { name: "Generate", exact: true }).click();
  await expect(toastTitle(page, "Signal Generated")).toBeVisible({ timeout: 15_000 });
  await expect(toastText(page, "Created new signal for MSFT")).toBeVisible();
  await expect(generate).toHaveCount(0);
  // Newest first: the generated signal leads the list, which grew by it (the market may add more
  // meanwhile) unless the first page was already full.
  await expect(section.getByRole("article").first()).toContainText("MSFT");
  if (all < PAGE_LIMIT) await expect.poll(() => total(section)).toBeGreaterThan(all);
  await expect(showing(section)).toHaveText(/^Showing 1 to 4 of \d+ signals$/);

  // Older signals, when there are more than a page: the next page through the cursor.
  const older = section.getByRole("button", { name: "Load older signals" });
  if (await older.isVisible()) {
    const loaded = await total(section);
    const next = page.waitForResponse((r) => /\/api\/signals\?limit=50&cursor=[^&]+$/.test(r.url()) && r.ok());
    await older.click();
    await next;
    await expect.poll(() => total(section)).toBeGreaterThan(loaded);
  }

  // Bulk-add one valid and one invalid stock.
  const watchlist = (await (await page.request.get("/api/stock-prices")).json()) as { symbol: string }[];
  const tracked = new Set(watchlist.map((s) => s.symbol));
  const candidate = UNIVERSE.find((s) => !tracked.has(s));
  await page.getByRole("button", { name: "Add Stocks" }).click();
  const add = page.getByRole("dialog", { name: "Add Stocks" });
  await add.getByLabel("Bulk add").fill(`${(candidate ?? "ZZTEST").toLowerCase()}, Test Listing\n\n1BAD, Bad Listing, Technology`);
  await add.getByRole("button", { name: "Add Stocks" }).click();
  await expect(toastTitle(page, "Stocks Added")).toBeVisible();
  // When every built-in listing is already tracked, the "valid" one may be refused as a duplicate or unknown.
  await expect(
    toastText(page, candidate ? "Successfully added 1 stocks. 1 failed." : /^Successfully added [01] stocks\. [12] failed\.$/),
  ).toBeVisible();
  await expect(add.getByTestId("bulk-add-failures")).toContainText("1BAD");
  await add.getByRole("button", { name: "Close" }).first().click();
  await expect(add).toHaveCount(0);
  if (candidate) {
    await page.getByRole("tab", { name: "All Stocks" }).click();
    await expect(page.getByRole("region", { name: "All stocks table" }).getByText(candidate, { exact: true })).toBeVisible();
  }

  // Export CSV: a real file, header first, one line per signal (every page, not only those loaded).
  const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^strikeline-signals-\d{4}-\d\d-\d\d\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(CSV_HEADER);
  expect(lines.length).toBeGreaterThan(all);
  await expect(toastTitle(page, "Signals Exported")).toBeVisible();

  // The notification bell counts the unread notifications; its Active signals tab lists the active signals.
  await page.getByRole("button", { name: /^Notifications: \d+ unread$/ }).click();
  const bell = page.getByRole("dialog", { name: "Notifications" });
  await bell.getByRole("tab", { name: /^Active signals/ }).click();
  await expect(bell.getByText("No active signals").or(bell.getByRole("list", { name: "Active signals" }))).toBeVisible();
  await page.keyboard.press("Escape");

  expect(errors).toEqual([]);
});

test("the signals page keeps its filters in the URL and exports the filtered list", async ({ page }) => {
  const errors = watchConsole(page);
  const refreshes: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/refresh")) refreshes.push(r.method());
  });
  await registerViaApi(page.request);
  await page.goto("/signals?strategy=Breakout");
  await expect(page.getByRole("heading", { level: 1, name: "Trading Signals" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade to Pro" }).first()).toHaveAttribute("href", "/pricing");
  await expect(page.getByLabel("Strategy", { exact: true })).toHaveValue("Breakout");

  const list = cardWithHeading(page, "All Signals");
  await expect(list.getByRole("article").first().or(list.getByText("No signals found matching your criteria"))).toBeVisible({
    timeout: 15_000,
  });

  const responded = page.waitForResponse(
    (r) => r.url().endsWith(`/api/signals?strategy=Breakout&signalType=CALL&limit=${PAGE_LIMIT}`) && r.ok(),
  );
  await page.getByLabel("Type", { exact: true }).selectOption("CALL");
  await expect(page).toHaveURL(/\/signals\?strategy=Breakout&signalType=CALL$/);
  const first = (await (await responded).json()) as SignalPage;
  const expected = first.signals.length;
  if (expected > 0) await expect(showing(list)).toHaveText(new RegExp(`^Showing 1 to \\d+ of ${expected} signals$`));
  await expect(list.getByRole("button", { name: "Load older signals" })).toHaveCount(first.nextCursor ? 1 : 0);

  if (expected > 0) {
    // The export reads every matching page, beyond the 50 loaded.
    const matching = first.nextCursor ? await countSignals(page.request, "strategy=Breakout&signalType=CALL") : expected;
    const [download] = await Promise.all([page.waitForEvent("download"), list.getByRole("button", { name: "Export CSV" }).click()]);
    const lines = (await readFile(await download.path(), "utf8")).trimEnd().split("\r\n");
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(matching + 1);
    for (const line of lines.slice(1)) expect(line).toMatch(/,(CALL|),Breakout,/);
  } else {
    await expect(list.getByText("No signals found matching your criteria")).toBeVisible();
  }

  await list.getByRole("button", { name: "Refresh" }).click();
  await expect.poll(() => refreshes).toEqual(["POST"]);
  expect(errors).toEqual([]);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the dashboard fits the screen and the detail dialog shows the charts", async ({ page }) => {
    await registerViaApi(page.request, uniqueAccount({ firstName: "Grace" }));
    await page.goto("/dashboard");
    const section = liveSignals(page);
    await expect(section.getByRole("article").first()).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await section
      .getByRole("button", { name: /^View Details for / })
      .first()
      .click();
    const detail = page.getByTestId("signal-detail");
    await expect(detail.getByRole("img", { name: /^Price chart: / })).toBeVisible({ timeout: 10_000 });
    const box = await detail.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  });
});
