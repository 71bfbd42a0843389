import type { Locator, Page } from "@playwright/test";
import {
  answerTo,
  auditContext,
  cardWithHeading,
  dayFromToday,
  expect,
  noHorizontalOverflow,
  registerViaApi,
  test,
  THEMES,
  toastTitle,
} from "./fixtures";

// Issue 27, items 1 and 2 (web side), against the real server: with euros as the display
// currency, a contract's terms (strikes, premiums, the underlying's price) stay in US dollars,
// labelled as such ("US$105.00"), and every input that takes a price says it takes dollars;
// money (values, P&L, capital, costs, limits) is in euros everywhere on the screen, chart axes
// and filter labels included; and a figure there is none of reads "—", not "€0.00".
// docs/currency.md says which amounts convert and which never do.

/** A price of the contract or its underlying, in dollars beside another display currency. */
const USD_PRICE = /^US\$[\d,]+\.\d\d$/;
/** An amount of money in euros, maybe signed. */
const EUROS = /^[+-]?€[\d,]+\.\d\d$/;

/** Picks the day `days` from today in the form's calendar. */
async function pickExpiry(page: Page, dialog: Locator, days: number) {
  await dialog.getByRole("button", { name: /^Expiration Date/ }).click();
  const calendar = page.getByTestId("calendar");
  const expiry = dayFromToday(days);
  const now = new Date();
  const monthsAhead = (expiry.date.getFullYear() - now.getFullYear()) * 12 + expiry.date.getMonth() - now.getMonth();
  for (let i = 0; i < monthsAhead; i++) await calendar.getByRole("button", { name: "Next month" }).click();
  await calendar.getByRole("button", { name: expiry.name }).click();
  await expect(calendar).toHaveCount(0);
}

/** The figure under the term `label` in a list of facts (`<dt>label</dt><dd>…</dd>`). */
function fact(scope: Locator, label: string): Locator {
  return scope.locator("dt", { hasText: new RegExp(`^${label.replace(/[()&]/g, "\\$&")}$`) }).locator("xpath=following-sibling::dd[1]");
}

/** Switches the signed-in account to euros through the API (a cookie-authenticated write says where it comes from). */
async function showEuros(page: Page, baseURL: string | undefined) {
  const res = await page.request.put("/api/user/preferences", { headers: { Origin: baseURL ?? "" }, data: { currency: "EUR" } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Waits until the app has the euro rate: the dashboard's portfolio value reads in euros. */
async function dashboardInEuros(page: Page) {
  await page.goto("/dashboard");
  await expect(page.getByTestId("stat-card").filter({ hasText: "Portfolio Value" })).toContainText("€", { timeout: 15_000 });
}

test("chosen in Settings, euros reach money and the cost filter; strikes stay in dollars; an empty portfolio shows no €0.00", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await registerViaApi(page.request);

  // An empty portfolio, in dollars first: no amount stands in for "no positions".
  await page.goto("/portfolio");
  await expect(page.getByText("No portfolio data available")).toBeVisible({ timeout: 15_000 });

  await page.goto("/settings");
  const saved = answerTo(page, "PUT", "/api/user/preferences");
  await page.getByLabel("Display currency").selectOption("EUR");
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(/Converted from US dollars at 1 USD = [\d.]+ EUR/)).toBeVisible();

  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByTestId("stat-card").filter({ hasText: "Portfolio Value" })).toContainText("€");

  // The cost filter's bands are money: in euros, like the figures around them.
  const live = cardWithHeading(page, "Live Signals");
  const costs = (await live.getByLabel("Cost per contract").locator("option").allTextContents()).slice(1);
  expect(costs).toHaveLength(5);
  for (const label of costs) {
    expect(label).toContain("€");
    expect(label).not.toContain("$");
  }
  expect(costs[0]).toMatch(/^Under €[\d,.]+$/);

  // A signal's strike and premiums are the contract's terms: in dollars, named as dollars.
  const card = live
    .getByRole("article")
    .filter({ has: page.getByRole("button", { name: /^View Details for / }) })
    .first();
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(fact(card, "Strike")).toHaveText(USD_PRICE);
  await expect(fact(card, "Entry / Now")).toHaveText(/^US\$[\d,]+\.\d\d → (US\$[\d,]+\.\d\d|—)$/);
  const pnl = (await fact(card, "P&L per contract").textContent()) ?? "";
  if (pnl !== "—") expect(pnl).toMatch(/^[+-]?€[\d,]+\.\d\d/);

  await card.getByRole("button", { name: /^View Details for / }).click();
  const detail = page.getByTestId("signal-detail");
  await expect(fact(detail, "Strike Price")).toHaveText(USD_PRICE);
  await expect(fact(detail, "Current Price")).toHaveText(USD_PRICE);
  await expect(fact(detail, "Entry Price")).toHaveText(USD_PRICE);
  await expect(fact(detail, "Max Loss")).toHaveText(EUROS, { timeout: 15_000 });
  await expect(detail.getByRole("img", { name: /^Price chart: .* strike US\$[\d,]+\.\d\d/ })).toBeVisible();
  await detail.getByRole("button", { name: "Close" }).last().click();

  // Still no positions: the portfolio says so, and shows no euro amount standing for nothing.
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Portfolio" }).click();
  await expect(page.getByText("No portfolio data available")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("No Manual Positions")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("€0.00");
});

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  for (const theme of THEMES) {
    test(`at ${width} px in ${theme} mode, a manual position typed in dollars stays in dollars; its value and P&L are in euros`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const context = await auditContext(browser, baseURL, theme);
      await registerViaApi(context.request);
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      await showEuros(page, baseURL);
      await dashboardInEuros(page);

      await page.goto("/portfolio");
      const section = cardWithHeading(page, "Your Manual Positions");
      await section.getByRole("button", { name: "Add Your First Position" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Manual Position" });
      // Every price the form takes says its currency.
      for (const label of ["Strike Price (USD)", "Entry Price (USD)", "Target Price (USD, optional)", "Stop Loss (USD, optional)"]) {
        await expect(dialog.getByLabel(label, { exact: true })).toBeVisible();
      }
      await expect(dialog.getByText("Premium paid per share, in US dollars.")).toBeVisible();
      await dialog.getByLabel("Stock Symbol").fill("XOM");
      await dialog.getByLabel("Company Name").fill("Exxon Mobil Corporation");
      await dialog.getByLabel("Option Type").selectOption("PUT");
      await dialog.getByLabel("Strike Price (USD)", { exact: true }).fill("390");
      await dialog.getByLabel("Entry Price (USD)", { exact: true }).fill("6.50");
      await pickExpiry(page, dialog, 35);
      const created = answerTo(page, "POST", "/api/manual-positions");
      await dialog.getByRole("button", { name: "Add Position" }).click();
      const answer = await created;
      expect(answer.status(), await answer.text()).toBe(201);
      expect(answer.request().postDataJSON()).toMatchObject({ strikePrice: 390, entryPrice: 6.5 });
      await expect(toastTitle(page, "Position Added")).toBeVisible();

      const card = section.getByRole("article", { name: "XOM PUT manual position" });
      await expect(fact(card, "Strike")).toHaveText("US$390.00");
      await expect(fact(card, "Entry / Now")).toHaveText(/^US\$6\.50 → US\$[\d,]+\.\d\d$/);
      await expect(fact(card, "Underlying")).toHaveText(USD_PRICE);
      await expect(card.getByTestId("manual-pnl")).toHaveText(/^[+-]?€[\d,]+\.\d\d \([+-]?[\d.]+%\)$/);
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, "the card is inside the viewport").toBe(true);

      // The summary's money is in euros; no closed position means no largest win or loss.
      await expect(page.getByTestId("summary-card").filter({ hasText: "Total Value" })).toContainText("€", { timeout: 15_000 });
      const stats = cardWithHeading(page, "Portfolio Statistics");
      await expect(fact(stats, "Largest Win")).toHaveText("—");
      await expect(fact(stats, "Largest Loss")).toHaveText("—");
      await expect(page.getByTestId("summary-card").filter({ hasText: "Net P&L" })).not.toContainText("€0.00");
      // The risk assessment's sentences, written by the server, state money in euros too: a
      // $650 position against the default $100 maximum position size.
      const risk = cardWithHeading(page, "Risk Assessment");
      await expect(risk.getByRole("listitem").filter({ hasText: "maximum position size" }).first()).toContainText(/€[\d,]+\.\d\d/);
      for (const sentence of await risk.getByRole("listitem").allTextContents()) expect(sentence).not.toMatch(/(^|[^S])\$/);
      await noHorizontalOverflow(page, width);

      // The details: the contract in dollars, what it is worth in euros.
      await card.getByRole("button", { name: "Details of XOM position" }).click();
      const detail = page.getByTestId("position-detail");
      await expect(fact(detail, "Strike Price")).toHaveText("US$390.00", { timeout: 10_000 });
      await expect(fact(detail, "Entry Price")).toHaveText("US$6.50 / share");
      await expect(fact(detail, "Total Investment")).toHaveText(EUROS);
      await expect(fact(detail, "Current Value")).toHaveText(EUROS);
      const dialogBox = await detail.boundingBox();
      expect(dialogBox && dialogBox.x >= 0 && dialogBox.x + dialogBox.width <= width).toBe(true);
      await context.close();
    });
  }

  test(`at ${width} px, a backtest's equity axis, capital and P&L are in euros; its strikes and premiums in dollars`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await registerViaApi(page.request);
    await showEuros(page, baseURL);
    await dashboardInEuros(page);

    await page.goto("/backtest");
    await page.getByLabel("Start Date").fill(dayFromToday(-180).iso);
    await page.getByLabel("End Date").fill(dayFromToday(-1).iso);
    await page.getByLabel("Symbols").fill("AAPL, MSFT, NVDA, XOM");
    const ran = answerTo(page, "POST", "/api/backtest");
    await page.getByRole("button", { name: "Run Backtest" }).click();
    const answer = await ran;
    expect(answer.status(), await answer.text()).toBe(200);
    const result = (await answer.json()) as { trades: { locked: boolean; strike?: number | null }[] };

    const results = page.getByTestId("overall-results");
    await expect(results.getByText(/· €[\d,]+\.\d\d starting capital/)).toBeVisible({ timeout: 15_000 });
    await expect(results.getByTestId("backtest-metric").filter({ hasText: "Total P&L" })).toContainText("€");
    const chart = results.getByRole("img", { name: /^Equity curve \(backtested\)/ });
    await expect(chart).toHaveAccessibleName(/\(€[\d,]+\.\d\d\)/);
    const ticks = (await chart.locator("text").allTextContents()).filter((t) => !/^[A-Z][a-z]{2} \d/.test(t));
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^€[\d.]+K?$/);

    if (result.trades.some((t) => !t.locked && t.strike != null)) {
      const row = results
        .getByTestId("trade-row")
        .filter({ hasNot: page.getByText("Locked") })
        .first();
      const cells = row.locator("td");
      await expect(cells.nth(3)).toHaveText(USD_PRICE);
      await expect(cells.nth(6)).toHaveText(/^US\$[\d,]+\.\d\d → (US\$[\d,]+\.\d\d|—)$/);
      await expect(cells.nth(8)).toHaveText(EUROS);
    }
    await noHorizontalOverflow(page, width);
  });
}
