import type { Page } from "@playwright/test";
import { auditContext, expect, noHorizontalOverflow, registerViaApi, seriousViolations, test, THEMES } from "./fixtures";

// Issue 27, items 3 and 5 against the real server (which the e2e suite runs on its seeded
// simulated market): every signed-in screen says the prices are simulated and links to what
// that means; a regular account is offered no control that only answers 403.

const BADGE = "Simulated market data";
const EXPLANATION = "/help/platform-features/market-data";

/** Requests to GET /api/ai/recommendations the page makes from now on. */
function recommendationRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/ai/recommendations") seen.push(req.url());
  });
  return seen;
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  for (const theme of THEMES) {
    test(`at ${width} px in ${theme} mode, signed-in screens carry the "${BADGE}" badge linking to the explanation`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const context = await auditContext(browser, baseURL, theme);
      await registerViaApi(context.request);
      const page = await context.newPage();
      await page.setViewportSize({ width, height });

      // The server says which source is active.
      const stats = (await (await page.request.get("/api/public/stats")).json()) as { marketData: string };
      expect(stats.marketData).toBe("simulated");

      for (const path of ["/dashboard", "/signals", "/portfolio", "/settings"]) {
        await page.goto(path);
        await page.locator("main h1").first().waitFor();
        const badge = page.getByRole("banner").getByRole("link", { name: BADGE });
        await expect(badge, path).toBeVisible();
        await expect(badge).toHaveAttribute("href", EXPLANATION);
        const box = await badge.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `${path}: the badge is inside the viewport`).toBe(true);
        await noHorizontalOverflow(page, width);
      }
      expect(await seriousViolations(page, "/settings", theme)).toEqual([]);

      // Keyboard reachable: Tab reaches it, Enter follows it.
      await page.goto("/dashboard");
      await page.locator("main h1").first().waitFor();
      const badge = page.getByRole("banner").getByRole("link", { name: BADGE });
      let focused = false;
      for (let i = 0; i < 15 && !focused; i++) {
        await page.keyboard.press("Tab");
        focused = await badge.evaluate((el) => el === document.activeElement);
      }
      expect(focused, "the badge is reached with Tab").toBe(true);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`${EXPLANATION}$`));
      await expect(page.getByRole("heading", { level: 1, name: "Where market data comes from" })).toBeVisible();
      await expect(page.getByText("No broker shows these prices.")).toBeVisible();
      await noHorizontalOverflow(page, width);
      await context.close();
    });
  }
}

test("a regular account sees the automation status and Manual Update, but no Start or Stop", async ({ page }) => {
  await registerViaApi(page.request);
  await page.goto("/dashboard");
  const panel = page.locator("div[data-slot=card]", { has: page.getByRole("heading", { name: "Automation Status" }) });
  await expect(panel.getByTestId("automation-state")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Manual Update" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "Start" })).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Stop" })).toHaveCount(0);
});

test("a Free dashboard makes no request to /api/ai/recommendations and says what Pro adds", async ({ page }) => {
  // Unconfirmed: no trial, the Free plan.
  await registerViaApi(page.request, undefined, { confirm: false });
  const me = (await (await page.request.get("/api/auth/me")).json()) as { subscriptionPlan: string };
  expect(me.subscriptionPlan).toBe("free");

  const requested = recommendationRequests(page);
  const forbidden: string[] = [];
  page.on("response", (res) => {
    if (res.status() === 403) forbidden.push(new URL(res.url()).pathname);
  });
  await page.goto("/dashboard");
  const panel = page.locator("div[data-slot=card]", { has: page.getByRole("heading", { name: "AI Investment Assistant" }) });
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.getByRole("link", { name: "Upgrade to Pro" })).toBeVisible();
  await expect(panel.getByTestId("assistant-offer")).toContainText("Trade recommendations");
  await page.waitForLoadState("networkidle");
  expect(requested).toEqual([]);
  expect(forbidden).toEqual([]);
});

test("a Pro-trial dashboard does request its recommendations", async ({ page }) => {
  await registerViaApi(page.request);
  const requested = recommendationRequests(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "AI Investment Assistant" })).toBeVisible();
  await expect.poll(() => requested.length).toBeGreaterThan(0);
});
