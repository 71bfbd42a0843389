import { answerTo, expect, registerViaApi, test, toastTitle, watchConsole } from "./fixtures";

// /settings against the real server: settings saved as they change, the display currency,
// API keys used on the public API, the password and the sessions.

test("a notification switch is saved as it changes and survives a reload", async ({ page }) => {
  const errors = watchConsole(page, { expected: /status of 40[13]/ });
  await registerViaApi(page.request);
  await page.goto("/settings?tab=notifications");
  const alerts = page.getByRole("switch", { name: "Signal Alerts" });
  await expect(alerts).toBeChecked();

  const saved = answerTo(page, "PUT", "/api/user/preferences");
  await alerts.click();
  expect((await saved).status()).toBe(200);
  await expect(alerts).not.toBeChecked();

  await page.reload();
  await expect(page.getByRole("tab", { name: "Notifications" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("switch", { name: "Signal Alerts" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Email Notifications" })).toBeChecked();
  expect(errors).toEqual([]);
});

test("push notifications: this browser can be turned on, and the kinds pushed are saved", async ({ page }) => {
  const errors = watchConsole(page, { expected: /status of 40[13]/ });
  await registerViaApi(page.request); // confirmed: on the Pro trial, which includes push
  await page.goto("/settings?tab=notifications");
  const card = page.getByTestId("push-this-browser");
  await expect(card.getByRole("button", { name: "Turn on for this browser" })).toBeVisible();
  await expect(card).toContainText("Off for this browser.");
  await expect(page.getByText("No browser gets push notifications yet.")).toBeVisible();

  const billing = page.getByRole("switch", { name: "Billing" });
  await expect(billing).toBeChecked();
  const saved = answerTo(page, "PUT", "/api/user/preferences");
  await billing.click();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("switch", { name: "Billing" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Price alerts" })).toBeChecked();
  // No SMS provider is configured for the browser tests: the card is not shown.
  await expect(page.getByText("Text messages")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("money is shown in euros once EUR is chosen", async ({ page, baseURL }) => {
  await registerViaApi(page.request);
  await page.goto("/dashboard");
  const value = page.getByTestId("stat-card").filter({ hasText: "Portfolio Value" });
  await expect(value).toContainText("$");

  await page.goto("/settings");
  const saved = answerTo(page, "PUT", "/api/user/preferences");
  await page.getByLabel("Display currency").selectOption("EUR");
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(/Converted from US dollars at 1 USD = [\d.]+ EUR/)).toBeVisible();
  await expect(page.getByTestId("currency-scope")).toHaveText(
    "Strikes, option prices and stock quotes stay in US dollars; values, P&L, capital and limits are shown in your currency.",
  );

  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(value).toContainText("€");
  await expect(value).not.toContainText("$");

  // A manual position entered in dollars: its strike stays in dollars (a contract term), its
  // P&L reads in euros on the portfolio (docs/currency.md).
  const expiry = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  // A cookie-authenticated write must say it comes from the site itself.
  const added = await page.request.post("/api/manual-positions", {
    headers: { Origin: baseURL ?? "" },
    data: { symbol: "AAPL", companyName: "Apple Inc.", type: "CALL", strikePrice: 200, expirationDate: expiry, quantity: 1, entryPrice: 5 },
  });
  expect(added.status(), await added.text()).toBe(201);
  const rates = (await (await page.request.get("/api/exchange-rates")).json()) as { rates: { currency: string; perUsd: number }[] };
  const perUsd = rates.rates.find((r) => r.currency === "EUR")?.perUsd ?? Number.NaN;
  const euros = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", minimumFractionDigits: 2 }).format(200 * perUsd);
  await page.goto("/portfolio");
  const card = page.getByRole("article", { name: "AAPL CALL manual position" });
  await expect(card).toContainText("US$200.00");
  await expect(card.getByTestId("manual-pnl")).toHaveText(/^[+-]?€[\d,]+\.\d\d /);
  await expect(page.locator("main")).not.toContainText(euros);
});

test("an API key is shown once, reads the public API, stops when switched off, and is deleted", async ({ page, playwright, baseURL }) => {
  await registerViaApi(page.request);
  await page.goto("/settings?tab=api-keys");
  await page.getByRole("button", { name: "Create API Key" }).click();
  const form = page.getByRole("dialog", { name: "Create API Key" });
  await form.getByLabel("Name").fill("e2e key");
  await form.getByRole("button", { name: "Create Key" }).click();

  const shown = page.getByRole("dialog", { name: "Your new API key" });
  const key = (await shown.getByTestId("created-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^slk_/);
  await expect(shown).toContainText("cannot be shown again");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  const row = page.getByTestId("api-key-row").filter({ hasText: "e2e key" });
  await expect(row).toContainText("Read Only");
  await expect(page.getByText(key)).toHaveCount(0);

  // A program holding the key: no cookies, only the bearer token.
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key}` } });
  const ok = await api.get("/api/v1/stats");
  expect(ok.status(), await ok.text()).toBe(200);
  expect(ok.headers()["ratelimit"]).toBeTruthy();
  expect(ok.headers()["ratelimit-policy"]).toBeTruthy();

  // The API reference's "Try it" sends the pasted key as a bearer token.
  await page.goto(`/api?endpoint=${encodeURIComponent("GET /api/v1/stats")}`);
  const detail = page.getByTestId("endpoint-detail");
  await detail.getByRole("tab", { name: "Try it" }).click();
  await expect(detail.getByRole("tab", { name: "Try it" })).toHaveAttribute("aria-selected", "true");
  await detail.getByLabel("API key").fill(key);
  await detail.getByRole("button", { name: "Send request" }).click();
  const answer = detail.getByTestId("try-it-result");
  await expect(answer).toContainText("200");
  await expect(answer.getByLabel("Rate-limit headers")).toContainText("RateLimit-Policy");
  await expect(answer.getByLabel("Response body")).toContainText("activeSignals");

  await page.goto("/settings?tab=api-keys");
  const toggled = answerTo(page, "PATCH", /\/api\/api-keys\/[^/]+\/toggle$/);
  await row.getByRole("switch", { name: "e2e key active" }).click();
  expect((await toggled).status()).toBe(200);
  await expect(row.getByRole("switch", { name: "e2e key active" })).not.toBeChecked();
  expect((await api.get("/api/v1/stats")).status()).toBe(401);

  await row.getByRole("button", { name: "Delete e2e key" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Key" }).click();
  await expect(row).toHaveCount(0);
  expect((await api.get("/api/v1/stats")).status()).toBe(401);
  await api.dispose();
});

test("a changed password signs in; the old one no longer does", async ({ page }) => {
  const account = await registerViaApi(page.request);
  const next = "battery-staple-7";
  await page.goto("/settings?tab=security");
  await page.getByLabel("Current password").fill(account.password);
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Confirm new password").fill(next);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(toastTitle(page, "Password Changed")).toBeVisible();
  await expect(page.getByText("Password changed. Other sessions were signed out and your API keys were switched off.")).toBeVisible();

  await page.getByRole("tablist", { name: "Settings sections" }).locator("..").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);

  expect((await page.request.post("/api/auth/login", { data: { email: account.email, password: account.password } })).status()).toBe(401);
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(next);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("another session is listed and can be revoked", async ({ page, playwright, baseURL }) => {
  const account = await registerViaApi(page.request);
  const other = await playwright.request.newContext({ baseURL });
  const login = await other.post("/api/auth/login", { data: { email: account.email, password: account.password } });
  expect(login.status(), await login.text()).toBe(200);
  expect((await other.get("/api/auth/me")).status()).toBe(200);

  await page.goto("/settings?tab=security");
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "This device" })).toHaveCount(1);
  const revoked = answerTo(page, "DELETE", /\/api\/user\/sessions\/.+/);
  await rows
    .filter({ hasNotText: "This device" })
    .getByRole("button", { name: /^Revoke/ })
    .click();
  expect((await revoked).status()).toBe(204);
  await expect(rows).toHaveCount(1);
  expect((await other.get("/api/auth/me")).status()).toBe(401);
  await expect(page.getByTestId("audit-entry").filter({ hasText: "Session revoked" }).first()).toBeVisible();
  await other.dispose();
});
