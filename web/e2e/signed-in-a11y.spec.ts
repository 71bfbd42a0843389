import { expect, type Page, test } from "@playwright/test";
import { seriousViolations, THEMES } from "./axe";

// axe on every signed-in screen, in light and dark, against the real server: the app shell
// (sidebar, header, bell, account menu) and each page's content once it has loaded.

const SETTINGS_TABS = ["trading", "notifications", "api-keys", "subscription", "security"].map((tab) => `/settings?tab=${tab}`);
const SCREENS = [
  "/dashboard",
  "/signals",
  "/portfolio",
  "/backtest",
  "/settings",
  ...SETTINGS_TABS,
  "/preferences",
  "/news",
  "/pricing",
  "/subscribe?plan=premium&billing=yearly",
];

function uniqueAccount() {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { firstName: "Ada", lastName: "Lovelace", email: `ada.${id}@example.com`, username: `ada_${id}`, password: "correct-horse-42" };
}

/** Opens `path` and waits until its heading is shown and nothing in it is loading. */
async function openLoaded(page: Page, path: string) {
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  // Below-the-fold panels load when scrolled into view.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 30));
    }
    window.scrollTo(0, 0);
  });
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

test.describe("signed-in screens", () => {
  for (const theme of THEMES) {
    test(`have no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      // axe is injected as a script, which the app's CSP rightly forbids: bypass it for the audit only.
      const context = await browser.newContext({ baseURL, colorScheme: theme, reducedMotion: "reduce", bypassCSP: true });
      await context.addInitScript((t) => window.localStorage.setItem("theme", t), theme);
      const res = await context.request.post("/api/auth/register", { data: uniqueAccount() });
      expect(res.status(), await res.text()).toBe(201);

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
