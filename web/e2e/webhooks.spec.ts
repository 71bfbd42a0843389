import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import {
  auditContext,
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

// Settings › API Keys › Webhooks against the real server: a Pro account adds an endpoint for a
// receiver on 127.0.0.1 (e2e/server.mjs lets webhook targets be http and private), copies the
// signing secret from the dialog, sends a test, and the receiver checks the Standard Webhooks
// signature with node:crypto; the delivery log then shows the attempt.

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

/** A tiny HTTP receiver on 127.0.0.1 that answers 200 and records every request. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/strikeline-hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether `signature` (the `webhook-signature` header: space-separated `v1,<base64>`) holds
 * HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64 part of `whsec_…`.
 */
function verifies(secret: string, id: string, timestamp: string, body: string, signature: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .map((part) => Buffer.from(part.slice(3), "base64"))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}

/** Pays for Pro monthly on /subscribe with the test provider's 4242 card, as billing.spec.ts does. */
async function becomePro(page: Page) {
  await page.goto("/subscribe?plan=pro&billing=monthly");
  await expect(page.getByRole("heading", { level: 1, name: "Complete Your Subscription" })).toBeVisible();
  expect((await payWithCard(page, "4242 4242 4242 4242")).status()).toBe(200);
  await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
  const subscription = await page.request.get("/api/billing/subscription");
  expect(await subscription.json()).toMatchObject({ plan: "pro", status: "active" });
}

/** Adds an endpoint for `url` in the open API Keys tab; resolves with the secret the dialog shows (and copies). */
async function addEndpoint(page: Page, url: string, eventType = "New signal") {
  const card = page.getByRole("region", { name: "Webhooks" });
  await card.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByLabel("Event type").selectOption({ label: eventType });
  const created = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname === "/api/webhooks");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  expect((await created).status()).toBe(201);
  const shown = page.getByRole("dialog", { name: "Your webhook signing secret" });
  await expect(shown).toContainText("It will not be shown again");
  const secret = (await shown.getByTestId("created-webhook-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  return { shown, secret };
}

test("a Pro account adds an endpoint, its test delivery is signed with the secret shown once, and the log shows it", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page, { expected: null, failedResponses: true });
  const receiver = await startReceiver();
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await registerViaApi(page.request, uniqueAccount({ handle: "hooks" }));
    await becomePro(page);

    await page.goto("/settings?tab=api-keys");
    const card = page.getByRole("region", { name: "Webhooks" });
    await expect(card).toContainText("Strikeline POSTs signed JSON to your URL");
    await expect(card.getByText("No endpoints yet")).toBeVisible();
    await expect(card.getByTestId("webhook-count")).toHaveText("0 of 10 endpoints");

    const { shown, secret } = await addEndpoint(page, receiver.url, "Price alert");
    await shown.getByRole("button", { name: "Copy signing secret" }).click();
    await expect(shown.getByRole("button", { name: "signing secret copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = card.getByTestId("webhook-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(receiver.url);
    await expect(row).toContainText("Price alert");
    await expect(row.getByTestId("webhook-status")).toHaveText("Active");
    await expect(card.getByTestId("webhook-count")).toHaveText("1 of 10 endpoints");

    const tested = page.waitForResponse(
      (res) => res.request().method() === "POST" && /\/api\/webhooks\/[^/]+\/test$/.test(new URL(res.url()).pathname),
    );
    await row.getByRole("button", { name: "Send test" }).click();
    expect((await tested).status()).toBe(200);
    await expect(toastTitle(page, "Test Delivered")).toBeVisible();
    await expect(toastText(page, /^HTTP 200 in [\d,]+ ms\.$/)).toBeVisible();

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery.method).toBe("POST");
    expect(delivery.url).toBe("/strikeline-hook");
    expect(delivery.headers["content-type"]).toContain("application/json");
    const id = String(delivery.headers["webhook-id"] ?? "");
    const timestamp = String(delivery.headers["webhook-timestamp"] ?? "");
    const signature = String(delivery.headers["webhook-signature"] ?? "");
    expect(id).toMatch(/^msg_/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(signature).toMatch(/(^| )v1,/);
    expect(verifies(secret, id, timestamp, delivery.body, signature)).toBe(true);
    expect(verifies(secret, id, timestamp, `${delivery.body} `, signature)).toBe(false);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: expect.any(String), data: expect.anything() });

    await row.getByRole("button", { name: "Delivery log" }).click();
    const log = row.getByRole("region", { name: "Delivery log" });
    const attempt = log.getByTestId("delivery-row");
    await expect(attempt).toHaveCount(1);
    await expect(attempt.getByRole("cell").nth(1)).toHaveText("Delivered");
    await expect(attempt.getByRole("cell").nth(2)).toHaveText("200");
    await expect(attempt.getByRole("cell").nth(3)).toHaveText(/^[\d,]+ ms$/);

    // Deleting asks first; the receiver hears nothing more.
    await row.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this endpoint?" });
    await confirm.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(toastTitle(page, "Endpoint Deleted")).toBeVisible();
    await expect(card.getByText("No endpoints yet")).toBeVisible();
    expect((await page.request.get("/api/webhooks")).status()).toBe(200);
    expect(await (await page.request.get("/api/webhooks")).json()).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await receiver.close();
  }
});

test("the server's reason for a refused URL is shown under the field", async ({ page }) => {
  await registerViaApi(page.request, uniqueAccount({ handle: "hooks" }));
  await page.goto("/settings?tab=api-keys");
  const card = page.getByRole("region", { name: "Webhooks" });
  await card.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  const url = dialog.getByLabel("Endpoint URL");
  // `.invalid` never resolves (RFC 2606), so the server refuses it whatever it allows.
  await url.fill("https://no-such-host.invalid/hook");
  const created = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname === "/api/webhooks");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  expect((await created).status()).toBe(422);
  await expect(url).toHaveAttribute("aria-invalid", "true");
  const messageId = await url.getAttribute("aria-describedby");
  await expect(dialog.locator(`[id="${messageId}"]`)).not.toBeEmpty();
  await expect(toastTitle(page, "Endpoint Not Added")).toBeVisible();
});

test.describe("the webhooks card", () => {
  for (const theme of THEMES) {
    test(`has no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      const receiver = await startReceiver();
      const context = await auditContext(browser, baseURL, theme);
      try {
        const page = await context.newPage();
        await registerViaApi(context.request, uniqueAccount({ handle: "hooks" }));
        await becomePro(page);
        await page.goto("/settings?tab=api-keys");
        const card = page.getByRole("region", { name: "Webhooks" });
        await expect(card.getByText("No endpoints yet")).toBeVisible();
        const found: string[] = [];
        found.push(...(await seriousViolations(page, "webhooks (empty)", theme)));

        const { shown } = await addEndpoint(page, receiver.url, "Position closed");
        found.push(...(await seriousViolations(page, "webhook secret dialog", theme)));
        await shown.getByRole("button", { name: "Done" }).click();
        const row = card.getByTestId("webhook-row");
        await row.getByRole("button", { name: "Send test" }).click();
        await expect(toastTitle(page, "Test Delivered")).toBeVisible();
        await row.getByRole("button", { name: "Delivery log" }).click();
        await expect(row.getByTestId("delivery-row")).toHaveCount(1);
        found.push(...(await seriousViolations(page, "webhooks (delivery log)", theme)));

        await row.getByRole("button", { name: "Delete" }).click();
        await expect(page.getByRole("alertdialog", { name: "Delete this endpoint?" })).toBeVisible();
        found.push(...(await seriousViolations(page, "delete endpoint dialog", theme)));
        await page.keyboard.press("Escape");
        // Focus goes back to the button that opened the dialog.
        await expect(row.getByRole("button", { name: "Delete" })).toBeFocused();
        expect(found).toEqual([]);
      } finally {
        await context.close();
        await receiver.close();
      }
    });
  }
});
