import type { Page } from "@playwright/test";
import { answerTo, expect, premiumPage, test, toastTitle } from "./fixtures";

// Issue 29's whole Premium journey against the real server, in one browser session: build a
// custom strategy, backtest it, switch it on with automation, see it generate signals, have
// them executed as paper orders with fills, switch accounts (a new account starts with no
// orders), and run the optimiser. Each step has its own, deeper spec; this one checks they
// join up.

type Order = { status: string; fills: unknown[]; signalId: string | null };

const RULE = {
  version: 1,
  entry: { compare: { left: { indicator: { name: "close" } }, is: "above", right: { number: 0.01 } } },
  opens: "CALL",
  strike: { offset: 0 },
  minDays: 30,
  exits: { targetGain: 0.5, stopLoss: 0.4, maxDays: null },
};

async function orders(page: Page) {
  const answer = await page.request.get("/api/orders");
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Order[];
}

test("Premium builds, backtests and switches on a strategy whose signals fill as paper orders, then switches accounts and optimises", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { context, page, errors } = await premiumPage(browser, baseURL, 1280, "light");
  const origin = { Origin: new URL(baseURL as string).origin };
  // Room for the custom strategy's contracts (its signals are sized within these).
  const prefs = { investmentCapital: 1_000_000, riskTolerance: "high", maxPositionSize: 50_000 };
  expect((await page.request.patch("/api/user/preferences", { headers: origin, data: prefs })).status()).toBe(200);

  // Build (saved through the API: the builder's own spec drives every control) and backtest.
  const created = await page.request.post("/api/strategies/custom", { headers: origin, data: { name: "Every close", document: RULE } });
  expect(created.status(), await created.text()).toBe(201);
  const backtest = await page.request.post("/api/backtest", {
    headers: origin,
    data: { customStrategy: RULE, symbols: ["AAPL", "MSFT"] },
  });
  expect(backtest.status(), await backtest.text()).toBe(200);
  expect(((await backtest.json()) as { totalTrades: number }).totalTrades).toBeGreaterThan(0);

  // Switch it on, with automation, from the page.
  await page.goto("/custom-strategies");
  const live = page.getByRole("switch", { name: "Live signals for Every close" });
  const switched = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+\/active$/);
  await live.click();
  expect((await switched).status()).toBe(200);
  const automate = page.getByRole("switch", { name: "Open paper positions automatically for Every close" });
  const automated = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+\/active$/);
  await automate.click();
  expect((await automated).status()).toBe(200);
  await expect(automate).toBeChecked();

  // An update issues its signals and the automation sends them as orders, filled on paper.
  expect((await page.request.post("/api/automation/update", { headers: origin })).status()).toBe(200);
  await page.goto("/signals?strategy=Custom");
  await expect(page.getByRole("article").first()).toContainText("Every close", { timeout: 15_000 });
  const filled = (await orders(page)).filter((o) => o.status === "filled");
  expect(filled.length, "the custom signals were executed").toBeGreaterThan(0);
  expect(filled.every((o) => o.fills.length === 1)).toBe(true);
  await page.goto("/portfolio");
  await expect(page.getByTestId("order-row").first()).toBeVisible();
  await expect(page.getByTestId("order-row").getByText("Filled", { exact: true }).first()).toBeVisible();

  // A second account: switched to from the header, it holds no orders yet.
  const opened = await page.request.post("/api/accounts", { headers: origin, data: { name: "IRA" } });
  expect(opened.status(), await opened.text()).toBe(201);
  await page.reload();
  const switchedAccount = answerTo(page, "PUT", "/api/accounts/current");
  await page.getByRole("button", { name: "Trading account: Main" }).click();
  await page.getByRole("menuitemradio", { name: "IRA" }).click();
  expect((await switchedAccount).status()).toBe(200);
  await expect(toastTitle(page, "Switched to IRA")).toBeVisible();
  await expect(page.getByText("No orders yet")).toBeVisible();

  // The optimiser runs for the current account.
  const card = page.getByRole("region", { name: "Optimise" });
  const proposed = answerTo(page, "POST", "/api/portfolio/optimise");
  await card.getByRole("button", { name: "Propose positions" }).click();
  expect((await proposed).status()).toBe(200);
  await expect(card.getByRole("region", { name: "Limits used" })).toBeVisible();

  expect(errors).toEqual([]);
  await context.close();
});
