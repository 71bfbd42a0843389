import type { Page } from "@playwright/test";
import { auditContext, expect, registerViaApi, scrollThrough, seriousViolations, test, THEMES } from "./fixtures";

// axe on every signed-in screen, in light and dark, against the real server: the app shell
// (sidebar, header, bell, account menu) and each page's content once it has loaded.

const SETTINGS_TABS = ["trading", "notifications", "reports", "api-keys", "subscription", "security"].map((tab) => `/settings?tab=${tab}`);
const SCREENS = [
  "/dashboard",
  "/signals",
  "/portfolio",
  "/backtest",
  "/custom-strategies",
  "/settings",
  ...SETTINGS_TABS,
  "/preferences",
  "/news",
  "/pricing",
  "/subscribe?plan=premium&billing=yearly",
];

/** Opens `path` and waits until its heading is shown and nothing in it is loading. */
async function openLoaded(page: Page, path: string) {
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  // Below-the-fold panels load when scrolled into view.
  await scrollThrough(page);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

test.describe("signed-in screens", () => {
  for (const theme of THEMES) {
    test(`have no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      // Every signed-in screen, loaded and audited in turn: more than the default 30 s on a
      // busy two-core machine.
      test.setTimeout(150_000);
      const context = await auditContext(browser, baseURL, theme);
      await registerViaApi(context.request);

      const page = await context.newPage();
      const found: string[] = [];
      for (const path of SCREENS) {
        await openLoaded(page, path);
        await expect(page.getByRole("navigation", { name: "App" }).first()).toBeVisible();
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
        found.push(...(await seriousViolations(page, path, theme)));
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
