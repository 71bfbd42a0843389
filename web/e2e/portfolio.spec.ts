import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  cardWithHeading,
  dayFromToday,
  expect,
  registerViaApi,
  test,
  toastText,
  toastTitle,
  uniqueAccount,
  watchConsole,
} from "./fixtures";

// /portfolio and /backtest against the real server and its simulated market (issue 5). A new
// account is on the 14-day Pro trial: full-history backtests and backtests by strategy are open
// to it. Plan refusals (403) are covered by the unit tests, as a trial account never sees them.

/** The trades export's header line (src/features/backtest/lib/export-trades.ts). */
const TRADES_CSV_HEADER =
  "Symbol,Strategy,Type,Strike,Short Strike,Expiration,Entry Date,Exit Date,Entry Price,Exit Price,Contracts,Commissions,P&L,Outcome,Strength";

/** The simulated market's price of `symbol`, rounded to a whole-dollar strike (200 if unknown). */
async function strikeNear(request: APIRequestContext, symbol: string): Promise<number> {
  const res = await request.get("/api/stock-prices");
  const stocks = res.ok() ? ((await res.json()) as { symbol: string; currentPrice: number }[]) : [];
  const price = stocks.find((s) => s.symbol === symbol)?.currentPrice;
  return price ? Math.max(1, Math.round(price)) : 200;
}

const manualSection = (page: Page) => cardWithHeading(page, "Your Manual Positions");

test("a manual position is added, valued, detailed and deleted", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  const strike = await strikeNear(page.request, "AAPL");

  await page.goto("/portfolio");
  await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
  const section = manualSection(page);
  await expect(section.getByText("No Manual Positions")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Automated Signals" })).toBeVisible();

  // The form checks its input before sending anything.
  let posts = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/manual-positions") && r.method() === "POST") posts += 1;
  });
  await section.getByRole("button", { name: "Add Your First Position" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Manual Position" });
  await expect(dialog.getByText("Track your own option contracts alongside automated signals")).toBeVisible();
  await expect(dialog.getByLabel("Option Type")).toHaveValue("CALL");
  await expect(dialog.getByLabel("Quantity")).toHaveValue("1");
  await expect(dialog.getByRole("button", { name: /^Expiration Date/ })).toContainText(dayFromToday(0).name);
  await dialog.getByRole("button", { name: "Add Position" }).click();
  await expect(dialog.getByText("Enter a stock symbol")).toBeVisible();
  expect(posts).toBe(0);

  await dialog.getByLabel("Stock Symbol").fill("aapl");
  await expect(dialog.getByLabel("Stock Symbol")).toHaveValue("AAPL");
  await dialog.getByLabel("Company Name").fill("Apple Inc.");
  await dialog.getByLabel("Option Type").selectOption("CALL");
  await dialog.getByLabel("Strike Price").fill(String(strike));
  await dialog.getByLabel("Quantity").fill("2");
  await dialog.getByLabel("Entry Price").fill("5.00");
  await dialog.getByLabel("Reasoning (optional)").fill("Earnings run-up");

  // The calendar offers no past date; pick one about five weeks out.
  await dialog.getByRole("button", { name: /^Expiration Date/ }).click();
  const calendar = page.getByTestId("calendar");
  const yesterday = dayFromToday(-1);
  if (yesterday.date.getMonth() === new Date().getMonth()) {
    await expect(calendar.getByRole("button", { name: yesterday.name })).toBeDisabled();
  }
  const expiry = dayFromToday(35);
  const monthsAhead = (expiry.date.getFullYear() - new Date().getFullYear()) * 12 + expiry.date.getMonth() - new Date().getMonth();
  for (let i = 0; i < monthsAhead; i++) await calendar.getByRole("button", { name: "Next month" }).click();
  await calendar.getByRole("button", { name: expiry.name }).click();
  await expect(calendar).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: /^Expiration Date/ })).toContainText(expiry.name);

  const created = page.waitForResponse((r) => r.url().endsWith("/api/manual-positions") && r.request().method() === "POST");
  await dialog.getByRole("button", { name: "Add Position" }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const position = (await answer.json()) as { id: string; currentPrice: number | null; quantity: number; expirationDate: string };
  expect(position.quantity).toBe(2);
  expect(position.expirationDate).toBe(expiry.iso);
  await expect(toastTitle(page, "Position Added")).toBeVisible();
  await expect(toastText(page, "Your manual position has been added successfully.")).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // Valued at the simulated market's prices.
  const card = section.getByRole("article", { name: "AAPL CALL manual position" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("OPEN");
  await expect(card).toContainText("2 contracts");
  await expect(card).toContainText(`$${strike.toLocaleString("en-US")}.00`);
  await expect(card).toContainText(/\$5\.00 → \$[\d,]+\.\d\d/);
  await expect(card.getByTestId("manual-pnl")).toHaveText(/^[+-]?\$[\d,]+\.\d\d \([+-]?\d+\.\d\d%\)$/);
  expect(position.currentPrice).not.toBeNull();

  // The portfolio figures were refetched: the analysis now covers the position.
  await expect(page.getByRole("heading", { name: "Total Value" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Risk Assessment" })).toBeVisible();
  await expect(page.getByText("No portfolio data available")).toHaveCount(0);

  // The form is back to its defaults.
  await section.getByRole("button", { name: "Add Position" }).click();
  await expect(dialog.getByLabel("Stock Symbol")).toHaveValue("");
  await expect(dialog.getByLabel("Quantity")).toHaveValue("1");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Details, from GET /api/manual-positions/{id}.
  await card.getByRole("button", { name: "Details of AAPL position" }).click();
  const detail = page.getByTestId("position-detail");
  await expect(detail.getByRole("heading", { name: "AAPL" })).toBeVisible();
  await expect(detail.getByText("Earnings run-up")).toBeVisible({ timeout: 10_000 });
  await expect(detail.getByRole("tab")).toHaveText(["Details", "Greeks", "Risk", "Performance"]);
  await detail.getByRole("tab", { name: "Greeks" }).click();
  for (const greek of ["delta", "gamma", "theta", "vega", "rho"]) {
    await expect(detail.getByTestId(`greek-${greek}`)).toHaveText(/^-?\d+\.\d{4}$/);
  }
  await detail.getByRole("tab", { name: "Risk" }).click();
  await expect(detail.getByTestId("max-gain")).toHaveText("Unlimited");
  await expect(detail.getByRole("img", { name: /^Payoff chart: / })).toBeVisible();
  await detail.getByRole("tab", { name: "Performance" }).click();
  await expect(detail.getByText("Total Return")).toBeVisible();
  // The Close button, not Escape: Escape would first dismiss a toast that is still showing.
  await detail.getByRole("button", { name: "Close" }).last().click();
  await expect(detail).toHaveCount(0);

  // Delete it.
  await card.getByRole("button", { name: "Delete AAPL position" }).click();
  await page.getByRole("alertdialog", { name: "Delete this position?" }).getByRole("button", { name: "Delete" }).click();
  await expect(toastTitle(page, "Success")).toBeVisible();
  await expect(toastText(page, "Position deleted successfully")).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(section.getByText("No Manual Positions")).toBeVisible();
  const gone = await page.request.get(`/api/manual-positions/${position.id}`);
  expect(gone.status()).toBe(404);

  expect(errors).toEqual([]);
});

test("a signal is added to the portfolio from the dashboard", async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  await page.goto("/dashboard");
  const live = cardWithHeading(page, "Live Signals");
  const view = live.getByRole("button", { name: /^View Details for / }).first();
  await expect(view).toBeVisible({ timeout: 15_000 });
  await view.click();

  const detail = page.getByTestId("signal-detail");
  const symbol = (await detail.getByRole("heading").first().textContent())?.trim() ?? "";
  expect(symbol).not.toBe("");
  const created = page.waitForResponse((r) => r.url().endsWith("/api/manual-positions") && r.request().method() === "POST");
  await detail.getByRole("button", { name: "Add to Portfolio" }).click();
  const answer = await created;
  expect(answer.status(), await answer.text()).toBe(201);
  const sent = answer.request().postDataJSON() as Record<string, unknown>;
  expect(sent).toMatchObject({ symbol, quantity: 1, status: "open" });
  expect(sent.entryPrice).toBeGreaterThan(0);
  expect(String(sent.reasoning)).toMatch(/^(Momentum|Mean Reversion|Breakout|Volatility) strategy signal, strength \d+\/100$/);
  await expect(toastTitle(page, "Success")).toBeVisible();
  await expect(toastText(page, "Signal added to your portfolio successfully")).toBeVisible();
  await detail.getByRole("button", { name: "Close" }).last().click();
  await expect(detail).toHaveCount(0);

  const list = (await (await page.request.get("/api/manual-positions")).json()) as { symbol: string; type: string; quantity: number }[];
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ symbol, quantity: 1 });

  await page.getByRole("link", { name: "Portfolio" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
  await expect(manualSection(page).getByRole("article", { name: `${symbol} ${list[0].type} manual position` })).toBeVisible();

  expect(errors).toEqual([]);
});

test("both backtests run and show their backtested metrics", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  // Hold each run a moment on its way to the server, so the pending state can be seen.
  for (const path of ["**/api/backtest", "**/api/backtest/strategy"]) {
    await page.route(path, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
  }

  await page.goto("/backtest");
  await expect(page.getByRole("heading", { level: 1, name: "Strategy Backtesting" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Overall Performance" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("No Backtest Results")).toBeVisible();

  // Overall.
  const overall = page.waitForResponse((r) => r.url().endsWith("/api/backtest") && r.request().method() === "POST", { timeout: 90_000 });
  await page.getByRole("button", { name: "Run Backtest" }).click();
  await expect(page.getByRole("button", { name: "Running..." })).toBeDisabled();
  const overallAnswer = await overall;
  expect(overallAnswer.status(), await overallAnswer.text()).toBe(200);
  const result = (await overallAnswer.json()) as { totalTrades: number; trades: unknown[] };
  await expect(toastTitle(page, "Backtest Complete")).toBeVisible({ timeout: 15_000 });
  await expect(toastText(page, "Overall backtest has been completed successfully")).toBeVisible();
  const results = page.getByTestId("overall-results");
  await expect(results.getByText("Backtested").first()).toBeVisible();
  for (const label of [
    "Total Trades",
    "Win Rate",
    "Total P&L",
    "Avg Hold Period",
    "Profit Factor",
    "Sharpe Ratio",
    "Max Drawdown",
    "Recovery Factor",
  ]) {
    await expect(results.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(results.getByTestId("backtest-metric").first()).toHaveText(`Total Trades${result.totalTrades.toLocaleString("en-US")}`);
  await expect(results.getByTestId("backtest-metric").nth(3)).toHaveText(/^Avg Hold Period(—|\d+\.\d days?)$/);
  await expect(
    results.getByRole("img", { name: /^Equity curve \(backtested\)/ }).or(results.getByText("Not enough data to draw a chart yet").first()),
  ).toBeVisible();

  if (result.trades.length > 0) {
    const [download] = await Promise.all([page.waitForEvent("download"), results.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^strikeline-backtest-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    const lines = (await readFile(await download.path(), "utf8")).trimEnd().split("\r\n");
    expect(lines[0]).toBe(TRADES_CSV_HEADER);
    expect(lines).toHaveLength(result.trades.length + 1);
  } else {
    await expect(results.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  }

  // By strategy: a separate run with separate results.
  await page.getByRole("tab", { name: "By Strategy" }).click();
  await expect(page.getByText("No Backtest Results")).toBeVisible();
  const byStrategy = page.waitForResponse((r) => r.url().endsWith("/api/backtest/strategy") && r.request().method() === "POST", {
    timeout: 90_000,
  });
  await page.getByRole("button", { name: "Run Backtest" }).click();
  await expect(page.getByRole("button", { name: "Running..." })).toBeDisabled();
  const strategyAnswer = await byStrategy;
  expect(strategyAnswer.status(), await strategyAnswer.text()).toBe(200);
  const strategies = (await strategyAnswer.json()) as { strategy: string }[];
  await expect(toastTitle(page, "Strategy Backtest Complete")).toBeVisible({ timeout: 15_000 });
  await expect(toastText(page, "Strategy-based backtest has been completed successfully")).toBeVisible();
  const cards = page.getByTestId("strategy-result");
  await expect(cards).toHaveCount(strategies.length);
  for (const [i, { strategy }] of strategies.entries()) {
    const card = cards.nth(i);
    await expect(card.getByRole("heading", { name: `${strategy} Strategy` })).toBeVisible();
    await expect(card).toContainText(/[\d,]+ trades? · (\d+\.\d%|—) win rate/);
    for (const label of ["Total P&L", "Avg P&L", "Wins/Losses", "Profit Factor"])
      await expect(card.getByText(label, { exact: true })).toBeVisible();
  }

  // The overall results are still there.
  await page.getByRole("tab", { name: "Overall Performance" }).click();
  await expect(page.getByTestId("overall-results")).toBeVisible();

  expect(errors).toEqual([]);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the portfolio and backtest pages fit the screen", async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await registerViaApi(page.request, uniqueAccount({ firstName: "Grace" }));
    // A signed-in write must say it comes from the site itself (the server's CSRF check).
    const added = await page.request.post("/api/manual-positions", {
      headers: { Origin: new URL(baseURL as string).origin },
      data: {
        symbol: "MSFT",
        companyName: "Microsoft Corporation",
        type: "PUT",
        strikePrice: await strikeNear(page.request, "MSFT"),
        expirationDate: dayFromToday(40).iso,
        quantity: 1,
        entryPrice: 4.5,
      },
    });
    expect(added.status(), await added.text()).toBe(201);

    await page.goto("/portfolio");
    await expect(manualSection(page).getByRole("article", { name: "MSFT PUT manual position" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Total Value" })).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await manualSection(page).getByRole("button", { name: "Details of MSFT position" }).click();
    const detail = page.getByTestId("position-detail");
    await expect(detail.getByRole("tab", { name: "Greeks" })).toBeVisible({ timeout: 10_000 });
    const box = await detail.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await detail.getByRole("button", { name: "Close" }).last().click();
    await expect(detail).toHaveCount(0);

    await page.goto("/backtest");
    await expect(page.getByRole("button", { name: "Run Backtest" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
