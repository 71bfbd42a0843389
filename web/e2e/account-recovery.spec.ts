import {
  expect,
  linkIn,
  PASSWORD,
  registerViaApi,
  test,
  toastText,
  toastTitle,
  uniqueAccount,
  waitForMail,
  watchConsole,
} from "./fixtures";

// Verified accounts against the real server, with the email read from the e2e fake mail
// server: the forgotten-password flow, an unconfirmed account's limits and a new link.

const SAME_ANSWER = "If an account uses that address, we have sent it a link to choose a new password. It works for 30 minutes.";

test("a forgotten password is reset through the emailed link, which then no longer works", async ({ page, request, baseURL }) => {
  const errors = watchConsole(page, { expected: /status of (401|422)/ });
  // Signed in elsewhere (the `request` context), signed out in this page.
  const account = await registerViaApi(request, uniqueAccount({ handle: "forgot" }));
  const next = "battery-staple-7";

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  const since = Date.now();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("status").filter({ hasText: SAME_ANSWER })).toBeVisible();

  const mail = await waitForMail(account.email, { since, link: "reset-password" });
  expect(mail.subject).toBe("Reset your Strikeline password");
  const link = linkIn(mail, "reset-password");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Confirm new password").fill("something-else");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm new password").fill(next);
  await page.getByRole("button", { name: "Set New Password" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Password changed" })).toBeVisible();
  const done = page.getByRole("status").filter({ hasText: "Your password was changed." });
  await expect(done).toContainText("Every session of your account was signed out");
  await expect(done).toContainText("your API keys were switched off");
  // Every session ended, the other browser's too.
  expect((await request.get("/api/auth/me")).status()).toBe(401);

  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(next);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Welcome back, Ada" })).toBeVisible();
  const old = await page.request.post("/api/auth/login", {
    headers: { Origin: baseURL ?? "" },
    data: { email: account.email, password: PASSWORD },
  });
  expect(old.status()).toBe(401);

  // The link worked once: opened again, it says so and offers a new one.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("another-one-9");
  await page.getByLabel("Confirm new password").fill("another-one-9");
  await page.getByRole("button", { name: "Set New Password" }).click();
  const problem = page.getByTestId("reset-link-problem");
  await expect(problem).toContainText("This link has expired or was already used. Ask for a new one.");
  await problem.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  expect(errors).toEqual([]);
});

test("an unknown address gets the same answer, and no mail", async ({ page }) => {
  const email = `nobody.${Date.now().toString(36)}@example.com`;
  const since = Date.now();
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("status").filter({ hasText: SAME_ANSWER })).toBeVisible();
  await expect(waitForMail(email, { since, link: "reset-password", timeoutMs: 2_500 })).rejects.toThrow(/no mail/);
});

test("an unconfirmed account has no API keys or webhooks until it opens the newest link", async ({ page, baseURL }) => {
  const errors = watchConsole(page, { expected: /status of (401|403|422)/ });
  const account = await registerViaApi(page.request, uniqueAccount({ handle: "unconfirmed" }), { confirm: false });

  // The server refuses keys with the reason the app shows.
  const refused = await page.request.post("/api/api-keys", {
    headers: { Origin: baseURL ?? "" },
    data: { name: "too early", permissions: "read", expiresIn: "never" },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/^Confirm your email address first/);

  await page.goto("/settings?tab=api-keys");
  const banner = page.getByTestId("confirm-email-banner");
  await expect(banner).toContainText(`We sent a link to ${account.email}.`);
  await expect(page.getByTestId("api-keys-unconfirmed")).toContainText("Confirm your email address to create API keys");
  await expect(page.getByRole("button", { name: "Create API Key" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Add endpoint" })).toBeDisabled();

  // A new link: the first one stops working.
  const first = await waitForMail(account.email, { since: 0, link: "verify-email" });
  const since = Date.now();
  await banner.getByRole("button", { name: "Send a new link" }).click();
  await expect(toastTitle(page, "Link Sent")).toBeVisible();
  await expect(toastText(page, `We sent a new link to ${account.email}.`)).toBeVisible();
  const second = await waitForMail(account.email, { since, link: "verify-email" });
  expect(second.id).not.toBe(first.id);

  await page.goto(linkIn(first, "verify-email"));
  await expect(page.getByRole("heading", { level: 1, name: "This link did not work" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "This link has expired or was already used." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();

  await page.goto(linkIn(second, "verify-email"));
  await expect(page.getByRole("heading", { level: 1, name: "Email address confirmed" })).toBeVisible();
  await page.getByRole("link", { name: "Go to your dashboard" }).click();
  await page.goto("/settings?tab=api-keys");
  await expect(page.getByRole("button", { name: "Create API Key" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Add endpoint" })).toBeEnabled();
  await expect(page.getByTestId("confirm-email-banner")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a password change switches the API keys off unless asked not to", async ({ page, playwright, baseURL }) => {
  const account = await registerViaApi(page.request, uniqueAccount({ handle: "keys" }));
  const created = await page.request.post("/api/api-keys", {
    headers: { Origin: baseURL ?? "" },
    data: { name: "bot", permissions: "read", expiresIn: "never" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const bot = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key}` } });
  expect((await bot.get("/api/v1/stats")).status()).toBe(200);

  const change = async (from: string, to: string, revoke: boolean) => {
    await page.goto("/settings?tab=security");
    await page.getByLabel("Current password").fill(from);
    await page.getByLabel("New password", { exact: true }).fill(to);
    await page.getByLabel("Confirm new password").fill(to);
    const box = page.getByRole("checkbox", { name: "Also switch off my API keys" });
    await expect(box).toBeChecked();
    if (!revoke) await box.uncheck();
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(toastTitle(page, "Password Changed")).toBeVisible();
  };

  await change(account.password, "battery-staple-7", false);
  await expect(toastText(page, "Other sessions were signed out. Your API keys still work.")).toBeVisible();
  expect((await bot.get("/api/v1/stats")).status()).toBe(200);

  await change("battery-staple-7", "battery-staple-8", true);
  await expect(toastText(page, "Other sessions were signed out and your API keys were switched off.")).toBeVisible();
  expect((await bot.get("/api/v1/stats")).status()).toBe(401);
  await bot.dispose();
});
