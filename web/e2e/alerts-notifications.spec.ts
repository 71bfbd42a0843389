import type { APIRequestContext, Page } from "@playwright/test";
import {
  auditContext,
  cardWithHeading,
  expect,
  registerViaApi,
  seriousViolations,
  test,
  THEMES,
  toastTitle,
  watchConsole,
} from "./fixtures";

// Price alerts on the dashboard and the header bell's notifications, against the real server:
// an alert set, refused, listed and deleted through the form; alerts triggered by a price
// update reach the bell, which marks one read when it is opened and then all of them.

/** Two stocks of the watchlist with their prices, in dollars. */
async function twoStocks(request: APIRequestContext) {
  const res = await request.get("/api/stock-prices");
  expect(res.status()).toBe(200);
  const stocks = ((await res.json()) as { symbol: string; currentPrice: number }[]).filter((s) => s.currentPrice > 2);
  expect(stocks.length).toBeGreaterThanOrEqual(2);
  return stocks.slice(0, 2);
}

const usd = (dollars: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    dollars,
  );

const alertsCard = (page: Page) => cardWithHeading(page, "Price Alerts");

/** The browser logs every failed request; a refused form answers 422 on purpose. */
const EXPECTED_ERRORS = /status of (40[13]|422)/;

test("a price alert is set from the dashboard, refused with the server's reason, listed and deleted", async ({ page }) => {
  const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
  await registerViaApi(page.request);
  const [stock] = await twoStocks(page.request);
  const target = Math.ceil(stock.currentPrice * 3);

  await page.goto("/dashboard");
  const card = alertsCard(page);
  await expect(card.getByText("No price alerts yet")).toBeVisible();
  const form = card.getByRole("form", { name: "Set a price alert" });

  // Not on the watchlist: the server's reason goes under the symbol, nothing is stored.
  await form.getByLabel("Symbol").fill("QQQQQQQQ");
  await form.getByLabel("Target price (USD)").fill("10");
  await form.getByRole("button", { name: "Set Alert" }).click();
  await expect(form.getByText("Add the symbol to the watchlist first")).toBeVisible();
  await expect(form.getByLabel("Symbol")).toHaveAttribute("aria-invalid", "true");
  await expect(toastTitle(page, "Price Alert Not Set")).toBeVisible();
  await expect(card.getByText("No price alerts yet")).toBeVisible();

  await form.getByLabel("Symbol").fill(stock.symbol.toLowerCase());
  await expect(form.getByText(`${stock.symbol} is at ${usd(stock.currentPrice)} now.`)).toBeVisible();
  await form.getByLabel("Direction").selectOption("above");
  await form.getByLabel("Target price (USD)").fill(String(target));
  await form.getByRole("button", { name: "Set Alert" }).click();
  await expect(toastTitle(page, "Price Alert Set")).toBeVisible();

  const row = card.getByTestId("price-alert-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(stock.symbol);
  await expect(row).toContainText(`Above ${usd(target)}`);
  await expect(row).toContainText("Active");
  await expect(form.getByLabel("Symbol")).toHaveValue("");

  // Every stock row has the shortcut, in view by its ticker.
  await page.getByRole("tab", { name: "All Stocks" }).click();
  await expect(page.getByRole("button", { name: `Set price alert for ${stock.symbol}` })).toBeInViewport();

  // It is stored: a reload lists it again.
  await page.reload();
  await expect(alertsCard(page).getByTestId("price-alert-row")).toContainText(`Above ${usd(target)}`);

  await alertsCard(page)
    .getByRole("button", { name: `Delete alert ${stock.symbol} above ${usd(target)}` })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this price alert?" });
  await confirm.getByRole("button", { name: "Delete Alert" }).click();
  await expect(toastTitle(page, "Price Alert Deleted")).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(alertsCard(page).getByText("No price alerts yet")).toBeVisible();
  const stored = (await (await page.request.get("/api/price-alerts")).json()) as unknown[];
  expect(stored).toEqual([]);
  expect(errors).toEqual([]);
});

test("triggered price alerts reach the bell: one opened is read, then all are marked read", async ({ page, baseURL }) => {
  const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
  await registerViaApi(page.request);
  const stocks = await twoStocks(page.request);

  await page.goto("/dashboard");
  const bell = page.getByRole("button", { name: /^Notifications: \d+ unread$/ });
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByRole("tab", { name: /^Notifications/ })).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByText("No notifications yet").or(panel.getByRole("list", { name: "Notifications" }))).toBeVisible();
  // The second tab holds the active signals, as before.
  await panel.getByRole("tab", { name: /^Active signals/ }).click();
  await expect(panel.getByText("No active signals").or(panel.getByRole("list", { name: "Active signals" }))).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  // Two alerts the next price update reaches (above half the price).
  for (const stock of stocks) {
    const res = await page.request.post("/api/price-alerts", {
      headers: { Origin: baseURL ?? "" },
      data: { symbol: stock.symbol, direction: "above", targetPrice: Math.floor(stock.currentPrice / 2) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.getByRole("button", { name: "Update Prices" }).click();
  await expect(toastTitle(page, "Prices Updated")).toBeVisible();

  // The event stream (or the 30 s poll) brings the notifications to the bell and the card.
  const [first, second] = stocks.map((s) => `${s.symbol} is above ${usd(Math.floor(s.currentPrice / 2))}`);
  await expect(alertsCard(page).getByTestId("price-alert-row").filter({ hasText: "Triggered" })).toHaveCount(2, { timeout: 35_000 });
  await expect(page.getByTestId("notification-count")).toBeVisible({ timeout: 35_000 });

  await page.getByRole("button", { name: /^Notifications: \d+ unread$/ }).click();
  const list = panel.getByRole("list", { name: "Notifications" });
  const firstItem = list.getByRole("button", { name: new RegExp(first.replace(/[$.]/g, "\\$&")) });
  const secondItem = list.getByRole("button", { name: new RegExp(second.replace(/[$.]/g, "\\$&")) });
  await expect(firstItem).toHaveAttribute("data-unread", "true");
  await expect(secondItem).toHaveAttribute("data-unread", "true");
  await expect(firstItem).toContainText("Your price alert triggered at");

  // Opening one marks it read and follows its link (the dashboard), closing the panel.
  const read = page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/notifications\/[^/]+\/read$/.test(r.url()));
  await firstItem.click();
  expect((await read).status()).toBe(204);
  await expect(panel).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole("button", { name: /^Notifications: \d+ unread$/ }).click();
  await expect(firstItem).not.toHaveAttribute("data-unread");
  await expect(secondItem).toHaveAttribute("data-unread", "true");
  const markAll = panel.getByRole("button", { name: "Mark all read" });
  await markAll.click();
  await expect(panel.getByText("All caught up")).toBeVisible();
  await expect(markAll).toBeDisabled();
  await expect(list.locator("[data-unread]")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Notifications: 0 unread" })).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveCount(0);

  // Read on the server too.
  const stored = (await (await page.request.get("/api/notifications")).json()) as { unreadCount: number };
  expect(stored.unreadCount).toBe(0);
  expect(errors).toEqual([]);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the bell panel and the All Stocks table fit, and a stock row's shortcut sets an alert", async ({ page }) => {
    const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
    await registerViaApi(page.request);
    const [stock] = await twoStocks(page.request);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: /^Notifications: \d+ unread$/ }).click();
    const panel = page.getByRole("dialog", { name: "Notifications" });
    await panel.getByRole("tab", { name: /^Active signals/ }).click();
    await expect(panel.getByText("No active signals").or(panel.getByRole("list", { name: "Active signals" }))).toBeVisible();
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await panel.evaluate((el) => Array.from(el.querySelectorAll("li")).every((li) => li.getBoundingClientRect().right <= 390))).toBe(
      true,
    );
    await page.keyboard.press("Escape");

    await page.getByRole("tab", { name: "All Stocks" }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The shortcut sits by the ticker, in view without scrolling the table sideways.
    const shortcut = page.getByRole("button", { name: `Set price alert for ${stock.symbol}` });
    await shortcut.scrollIntoViewIfNeeded();
    const at = await shortcut.boundingBox();
    expect(at && at.x + at.width <= 390).toBe(true);
    await shortcut.click();
    const dialog = page.getByRole("dialog", { name: "Set price alert" });
    await expect(dialog.getByLabel("Symbol")).toHaveValue(stock.symbol);
    await expect(dialog.getByLabel("Target price (USD)")).toBeFocused();
    await dialog.getByLabel("Direction").selectOption("below");
    await dialog.getByLabel("Target price (USD)").fill("1");
    await dialog.getByRole("button", { name: "Set Alert" }).click();
    await expect(toastTitle(page, "Price Alert Set")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(alertsCard(page).getByTestId("price-alert-row")).toContainText(`${stock.symbol}Below $1.00Active`);
    expect(errors).toEqual([]);
  });
});

test.describe("the bell panel and the alert dialog", () => {
  for (const theme of THEMES) {
    test(`have no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      const context = await auditContext(browser, baseURL, theme);
      await registerViaApi(context.request);
      const [stock] = await twoStocks(context.request);
      const origin = { Origin: baseURL ?? "" };
      const set = await context.request.post("/api/price-alerts", {
        headers: origin,
        data: { symbol: stock.symbol, direction: "above", targetPrice: Math.floor(stock.currentPrice / 2) },
      });
      expect(set.status(), await set.text()).toBe(201);
      expect((await context.request.post("/api/update-stock-prices", { headers: origin })).status()).toBe(200);

      const page = await context.newPage();
      await page.goto("/dashboard");
      await expect(alertsCard(page).getByText("Triggered").first()).toBeVisible();
      const found: string[] = [];
      await page.getByRole("button", { name: /^Notifications: [1-9]\d* unread$/ }).click();
      const panel = page.getByRole("dialog", { name: "Notifications" });
      await expect(panel.locator("[data-unread]").first()).toBeVisible();
      found.push(...(await seriousViolations(page, "bell: notifications", theme)));
      await panel.getByRole("tab", { name: /^Active signals/ }).click();
      await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
      found.push(...(await seriousViolations(page, "bell: active signals", theme)));
      await page.keyboard.press("Escape");

      await page.getByRole("tab", { name: "All Stocks" }).click();
      await page.getByRole("button", { name: `Set price alert for ${stock.symbol}` }).click();
      await expect(page.getByRole("dialog", { name: "Set price alert" })).toBeVisible();
      found.push(...(await seriousViolations(page, "set price alert", theme)));
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
