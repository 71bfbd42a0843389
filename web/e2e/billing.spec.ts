import type { APIRequestContext } from "@playwright/test";
import {
  adminContext,
  answerTo,
  auditContext,
  confirmViaEmail,
  expect,
  payWithCard,
  registerViaApi,
  seriousViolations,
  test,
  THEMES,
  toastText,
  toastTitle,
  uniqueAccount,
  watchConsole,
} from "./fixtures";
import { startServer } from "./server.mjs";

// Billing against the real server and its built-in test payment provider (docs/billing.md):
// buying a plan on /pricing and /subscribe with the test cards, a declined card, and a
// cancellation that keeps the plan to the end of the period, then Free once the
// administrator's test clock (STRIKELINE_BILLING__TEST_CLOCK, on a server of that test's own)
// moves the server's clock past the period's end.

/** The browser logs every failed request; the answers these tests expect (402, 401) are left out. */
const EXPECTED_ERRORS = /status of 40[12]/;

async function subscriptionOf(
  api: APIRequestContext,
): Promise<{ plan: string; status: string; billing: string | null; cancelAtPeriodEnd: boolean; currentPeriodEnd?: string | null }> {
  const res = await api.get("/api/billing/subscription");
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test("a trial user buys Premium yearly with 4242 and is Premium at once", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
  await registerViaApi(page.request);

  await page.goto("/pricing");
  await expect(page.getByTestId("plan-label").first()).toHaveText(/^Pro trial, 1[34] days left$/);
  await page.getByRole("button", { name: /Yearly/ }).click();
  const started = answerTo(page, "POST", "/api/create-subscription");
  await page.getByTestId("plan-premium").getByRole("button", { name: "Choose Premium" }).click();
  expect((await started).status()).toBe(200);
  await expect(toastTitle(page, "Redirecting to Strikeline test payments")).toBeVisible();
  await expect(page).toHaveURL(/\/subscribe\?plan=premium&billing=yearly$/);

  await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
  const summary = page.getByTestId("checkout-summary");
  await expect(summary).toContainText("Premium");
  await expect(summary).toContainText("Yearly");
  await expect(page.getByTestId("checkout-amount")).toContainText("$1,430.00");
  await expect(page.getByTestId("test-provider-note")).toContainText("no real card is charged");
  // The card number is spaced as it is typed.
  await page.getByLabel("Card number").fill("4242424242424242");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");

  const paid = await payWithCard(page, "4242424242424242");
  expect(paid.status(), await paid.text()).toBe(200);
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  await expect(toastTitle(page, "Payment Successful")).toBeVisible();
  await expect(page.getByRole("tab", { name: "Subscription" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("subscription-plan")).toContainText("Premium");
  await expect(page.getByTestId("subscription-badge")).toHaveText("Active");
  await expect(page.getByTestId("subscription-billing")).toContainText("Yearly");
  await expect(page.getByTestId("subscription-billing")).toContainText("$1,430.00/year");
  await expect(page.getByTestId("subscription-next-billing")).toContainText("$1,430.00");
  await expect(page.getByTestId("subscription-card")).toHaveText(/Card on file.*4242/);
  const invoice = page.getByTestId("invoice-row");
  await expect(invoice).toHaveCount(1);
  await expect(invoice).toContainText("$1,430.00");
  await expect(invoice).toContainText("Paid");
  // The trial banner is gone: the user was read again after paying.
  await expect(page.getByTestId("plan-label").first()).toHaveText("Premium plan");
  expect(await subscriptionOf(page.request)).toMatchObject({ plan: "premium", status: "active", billing: "yearly" });

  // On /pricing the plan says it is the current one; another plan is changed in Settings.
  await page.goto("/pricing?billing=yearly");
  await expect(page.getByTestId("plan-premium").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(page.getByTestId("plan-pro").getByRole("link", { name: "Change to Pro" })).toHaveAttribute(
    "href",
    "/settings?tab=subscription&change=pro-yearly",
  );
  await page.getByRole("group", { name: "Billing period" }).getByRole("button", { name: "Monthly" }).click();
  await page.getByTestId("plan-premium").getByRole("link", { name: "Switch to monthly" }).click();
  const change = page.getByRole("dialog", { name: "Change plan" });
  await expect(change.getByRole("radio", { name: /Premium · Monthly/ })).toBeChecked();
  await expect(change.getByRole("radio", { name: /Premium · Yearly/ })).toBeDisabled();
  await change.getByRole("button", { name: "Keep current plan" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);

  // The invoice downloads as a printable file.
  await page.goto("/settings?tab=subscription");
  const [download] = await Promise.all([page.waitForEvent("download"), invoice.getByRole("link", { name: /^Download invoice / }).click()]);
  expect(download.suggestedFilename()).toMatch(/^strikeline-invoice-[\w-]+\.html$/);

  // Premium's custom strategy parameters are open on /backtest, and the result names them.
  await page.goto("/backtest");
  const custom = page.getByTestId("custom-params");
  await custom.getByRole("switch", { name: "Use custom parameters" }).click();
  await custom.getByLabel("Momentum RSI low").fill("55");
  await custom.getByLabel("Target (ATR)").fill("3");
  // Checked before it is sent.
  await custom.getByLabel("Oversold RSI").fill("60");
  await page.getByRole("button", { name: "Run Backtest" }).click();
  await expect(custom.getByText("Must be between 1 and 50.")).toBeVisible();
  await custom.getByLabel("Oversold RSI").fill("25");
  const ran = page.waitForResponse((r) => r.url().endsWith("/api/backtest") && r.request().method() === "POST", { timeout: 90_000 });
  await page.getByRole("button", { name: "Run Backtest" }).click();
  const answer = await ran;
  expect(answer.status(), await answer.text()).toBe(200);
  expect((answer.request().postDataJSON() as { params: Record<string, number> }).params).toMatchObject({
    momentumRsiLow: 55,
    targetAtr: 3,
    oversoldRsi: 25,
  });
  await expect(toastTitle(page, "Backtest Complete")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("params-used")).toContainText("Custom parameters");
  await expect(page.getByTestId("params-used")).toContainText("Momentum RSI low: 55");
  await expect(page.getByTestId("params-used")).toContainText("Target (ATR): 3");

  // Premium's vertical spreads: the width is checked, sent as a fraction, and calls and puts come back as spreads.
  await custom.getByRole("switch", { name: "Use custom parameters" }).click();
  const spreads = page.getByTestId("spread-fields");
  await spreads.getByRole("switch", { name: "Trade calls and puts as vertical spreads" }).click();
  await spreads.getByLabel("Spread width (%)").fill("60");
  await page.getByRole("button", { name: "Run Backtest" }).click();
  await expect(spreads.getByText("The spread width must be between 1% and 50%.")).toBeVisible();
  await spreads.getByLabel("Spread width (%)").fill("10");
  const spreadRun = page.waitForResponse((r) => r.url().endsWith("/api/backtest") && r.request().method() === "POST", { timeout: 90_000 });
  await page.getByRole("button", { name: "Run Backtest" }).click();
  const spreadAnswer = await spreadRun;
  expect(spreadAnswer.status(), await spreadAnswer.text()).toBe(200);
  expect(spreadAnswer.request().postDataJSON()).toEqual({ spreadWidth: 0.1 });
  const { trades } = (await spreadAnswer.json()) as { trades: { signalType?: string | null; shortStrike?: number | null }[] };
  const firstPage = trades.slice(0, 10);
  expect(trades.some((t) => t.shortStrike != null)).toBe(true);
  await expect(page.getByTestId("spread-used")).toContainText("Vertical spreads, 10% wide");
  await expect(page.getByTestId("trade-row")).toHaveCount(firstPage.length);
  await expect(page.getByTestId("spread-legs")).toHaveCount(firstPage.filter((t) => t.shortStrike != null).length);
  if (firstPage.some((t) => t.shortStrike != null)) {
    await expect(page.getByTestId("spread-legs").first()).toHaveText(/^\$[\d,]+\.\d\d \/ \$[\d,]+\.\d\d (call|put) spread$/);
  }

  expect(errors).toEqual([]);
});

test("a declined card shows 'Payment Failed' with the provider's message, and the plan is unchanged", async ({ page }) => {
  const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
  await registerViaApi(page.request);
  await page.goto("/subscribe?plan=pro&billing=monthly");
  await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
  await expect(page.getByTestId("checkout-amount")).toContainText("$49.00");

  const declined = await payWithCard(page, "4000 0000 0000 0002");
  expect(declined.status()).toBe(402);
  await expect(toastTitle(page, "Payment Failed")).toBeVisible();
  await expect(toastText(page, "Your card was declined.")).toBeVisible();
  await expect(page.getByTestId("payment-failure")).toContainText("Your card was declined.");
  // The form stays, with what was typed.
  await expect(page).toHaveURL(/\/subscribe\?plan=pro&billing=monthly$/);
  await expect(page.getByLabel("Card number")).toHaveValue("4000 0000 0000 0002");
  await expect(page.getByRole("button", { name: "Subscribe Now" })).toBeEnabled();
  expect(await subscriptionOf(page.request)).toMatchObject({ plan: "pro", status: "trialing", billing: null });

  await page.goto("/settings?tab=subscription");
  await expect(page.getByTestId("subscription-badge")).toHaveText("Trial");
  await expect(page.getByTestId("subscription-status")).toContainText(/Pro trial, 1[34] days left/);
  await expect(page.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/pricing");
  await expect(page.getByText("No invoices yet")).toBeVisible();
  await expect(page.getByTestId("plan-label").first()).toHaveText(/^Pro trial, 1[34] days left$/);

  expect(errors).toEqual([]);
});

test("a visitor who picks a paid plan signs up and comes straight back to pay for it", async ({ page }) => {
  const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
  const account = uniqueAccount();
  await page.goto("/pricing");
  await page.getByTestId("plan-pro").getByRole("link", { name: "Start with Pro" }).click();
  await expect(page).toHaveURL(/\/register\?next=/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  const since = Date.now();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=pro&billing=monthly$/);
  await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
  await expect(page.getByTestId("checkout-amount")).toContainText("$49.00");
  // No trial until the address is confirmed; opening the emailed link starts it.
  await expect(page.getByTestId("trial-note")).toHaveCount(0);
  await confirmViaEmail(page.request, account.email, since, new URL(page.url()).origin);
  await page.reload();
  await expect(page.getByTestId("checkout-amount")).toContainText("$49.00");
  await expect(page.getByTestId("trial-note")).toContainText("Your Pro trial (1");
  expect(errors).toEqual([]);
});

test("cancelling keeps Premium until the period ends, then the account is Free", async ({ browser }) => {
  test.setTimeout(180_000);
  // A server of its own: the test clock moves that server's one clock 40 days on, which the
  // shared server's other specs must not see.
  const server = await startServer({ env: { STRIKELINE_BILLING__TEST_CLOCK: "true" } });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    const errors = watchConsole(page, { expected: EXPECTED_ERRORS });
    const account = await registerViaApi(page.request);
    await page.goto("/subscribe?plan=premium&billing=monthly");
    const paid = await payWithCard(page, "4242 4242 4242 4242");
    expect(paid.status(), await paid.text()).toBe(200);
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    await expect(page.getByTestId("subscription-plan")).toContainText("Premium");

    await page.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Cancel your subscription?" });
    await expect(dialog).toContainText("Premium stays until");
    const cancelled = answerTo(page, "POST", "/api/billing/cancel");
    await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
    expect((await cancelled).status()).toBe(200);
    await expect(toastTitle(page, "Subscription Cancelled")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("subscription-plan")).toContainText("Premium");
    await expect(page.getByTestId("subscription-badge")).toHaveText(/^Cancels on \w+ \d+, \d{4}$/);
    await expect(page.getByTestId("subscription-next-billing")).toContainText("None: the subscription is cancelled");
    await expect(page.getByRole("button", { name: "Resume Premium" })).toBeVisible();
    const cancelling = await subscriptionOf(page.request);
    expect(cancelling).toMatchObject({ plan: "premium", status: "active", cancelAtPeriodEnd: true });

    // The trader closes the tab; the administrator moves the server's clock to a day after
    // the period ends.
    await page.goto("about:blank");
    const periodEnd = Date.parse(cancelling.currentPeriodEnd ?? "");
    expect(periodEnd).not.toBeNaN();
    const at = new Date(periodEnd + 24 * 3600 * 1000).toISOString();
    const admin = await adminContext(server.baseURL);
    const run = await admin.post("/api/admin/billing/run", { data: { at } });
    expect(run.status(), await run.text()).toBe(200);
    const receipt = (await run.json()) as { changed: number; now: string };
    expect(receipt.changed).toBeGreaterThan(0);
    expect(Date.parse(receipt.now)).toBeGreaterThanOrEqual(Date.parse(at));
    await admin.dispose();

    // A month idle ended the session too: the trader signs in again and finds Free.
    await page.goto("/login");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/settings?tab=subscription");
    await expect(page.getByTestId("subscription-plan")).toContainText("Free");
    await expect(page.getByTestId("subscription-badge")).toHaveText("Canceled");
    await expect(page.getByRole("link", { name: "Upgrade Plan" })).toBeVisible();
    await expect(page.getByTestId("invoice-row")).toHaveCount(1);
    await expect(page.getByTestId("plan-label").first()).toHaveText("Free plan");
    expect(await subscriptionOf(page.request)).toMatchObject({ plan: "free" });

    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await server.stop();
  }
});

test.describe("billing screens", () => {
  for (const theme of THEMES) {
    test(`have no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const context = await auditContext(browser, baseURL, theme);
      await registerViaApi(context.request);
      const page = await context.newPage();
      const found: string[] = [];

      await page.goto("/subscribe?plan=premium&billing=monthly");
      await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
      found.push(...(await seriousViolations(page, "/subscribe", theme)));
      // Field errors from the form's own checks, then a declined card.
      await page.getByRole("button", { name: "Subscribe Now" }).click();
      await expect(page.getByText("Your card number is incomplete.")).toBeVisible();
      await expect(page.getByLabel("Card number")).toBeFocused();
      found.push(...(await seriousViolations(page, "/subscribe (field errors)", theme)));
      expect((await payWithCard(page, "4000 0000 0000 9995")).status()).toBe(402);
      await expect(page.getByTestId("payment-failure")).toContainText("Your card has insufficient funds.");
      found.push(...(await seriousViolations(page, "/subscribe (declined)", theme)));

      expect((await payWithCard(page, "4242 4242 4242 4242")).status()).toBe(200);
      await expect(page.getByTestId("invoice-row")).toHaveCount(1);
      found.push(...(await seriousViolations(page, "/settings?tab=subscription", theme)));
      await page.getByRole("button", { name: "Change plan" }).click();
      await expect(page.getByRole("dialog", { name: "Change plan" })).toBeVisible();
      found.push(...(await seriousViolations(page, "change plan dialog", theme)));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Cancel subscription" }).click();
      await expect(page.getByRole("alertdialog", { name: "Cancel your subscription?" })).toBeVisible();
      found.push(...(await seriousViolations(page, "cancel dialog", theme)));
      await page.keyboard.press("Escape");
      // Focus goes back to the button that opened the dialog.
      await expect(page.getByRole("button", { name: "Cancel subscription" })).toBeFocused();

      await page.goto("/backtest");
      await page.getByRole("switch", { name: "Use custom parameters" }).click();
      await page.getByLabel("Overbought RSI").fill("20");
      await page.getByRole("button", { name: "Run Backtest" }).click();
      await expect(page.getByLabel("Overbought RSI")).toBeFocused();
      found.push(...(await seriousViolations(page, "/backtest (custom parameters)", theme)));

      await context.close();
      expect(found).toEqual([]);
    });
  }
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("pricing, the payment page and the subscription with its invoices fit the screen", async ({ page }) => {
    await registerViaApi(page.request);
    const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto("/pricing");
    await expect(page.getByTestId("plan-premium")).toBeVisible();
    await expect(page.getByRole("region", { name: "Plan comparison" })).toBeVisible();
    await fits();

    await page.goto("/subscribe?plan=premium&billing=yearly");
    await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
    await fits();
    expect((await payWithCard(page, "4242 4242 4242 4242")).status()).toBe(200);
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    // Phones get the invoices as a list, with the same figures.
    const invoice = page.getByTestId("invoice-item");
    await expect(invoice).toHaveCount(1);
    await expect(invoice).toContainText("$1,430.00");
    await expect(page.getByTestId("invoice-table")).toBeHidden();
    await fits();
  });
});
