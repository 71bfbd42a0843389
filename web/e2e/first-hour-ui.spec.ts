import { execFileSync } from "node:child_process";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { contrastOf, settleAnimations } from "./contrast";
import {
  answerTo,
  buyPremium,
  cardWithHeading,
  expect,
  registerViaApi,
  seriousViolations,
  test,
  type Theme,
  THEMES,
  toastText,
  toastTitle,
  watchConsole,
} from "./fixtures";

// Issue 27, item 7: the smaller things a trader meets in the first hour, each in light and dark
// and, where it is about layout, at a phone's 390 px: the custom-parameters header inside its
// box, the API explorer opening on the public API, a price alert already crossed asked about
// before it is created, the bell as a popover (a sheet on a phone), curl examples that survive
// zsh, sentiment counts that say what they count, red and pressed-blue text at 4.5:1, and one
// support promise per plan. axe runs on every screen touched.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** A context like the audits' (auditContext): the theme stored, motion reduced, the CSP lifted for axe; at `viewport`. */
async function themedContext(
  browser: Browser,
  baseURL: string | undefined,
  theme: Theme,
  viewport = DESKTOP,
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>,
): Promise<BrowserContext> {
  const phone = viewport.width < 640;
  const context = await browser.newContext({
    baseURL,
    storageState,
    colorScheme: theme,
    reducedMotion: "reduce",
    bypassCSP: true,
    viewport,
    isMobile: phone,
    hasTouch: phone,
  });
  await context.addInitScript((t) => window.localStorage.setItem("theme", t), theme);
  return context;
}

async function expectTheme(page: Page, theme: Theme) {
  await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
}

/** The page is no wider than the screen. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

/** `/api` is answered by the server on a direct load: the explorer is opened inside the app. */
async function openApiExplorer(page: Page, search = "") {
  await page.goto("/about");
  await page.locator("h1").first().waitFor();
  await page.evaluate((target) => {
    window.history.pushState({}, "", target);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, `/api${search}`);
  await expect(page.getByTestId("endpoint-detail")).toBeVisible();
}

/** Every element in `box` lies inside it (a pixel of rounding allowed). */
async function expectContained(box: Locator) {
  const outside = await box.evaluate((root) => {
    const frame = root.getBoundingClientRect();
    const found: string[] = [];
    for (const el of Array.from(root.querySelectorAll("*"))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (getComputedStyle(el).position === "absolute" && el.closest(".sr-only")) continue;
      if (r.left < frame.left - 1 || r.right > frame.right + 1) {
        found.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}" ${Math.round(r.left)}–${Math.round(r.right)}`,
        );
      }
    }
    return { frame: `${Math.round(frame.left)}–${Math.round(frame.right)}`, found };
  });
  expect(outside.found, `outside the box ${outside.frame}`).toEqual([]);
}

for (const theme of THEMES) {
  test.describe(`${theme} mode`, () => {
    test("the custom-parameters header stays inside its box at 390 px", async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const context = await themedContext(browser, baseURL, theme, PHONE);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await registerViaApi(context.request);
      await buyPremium(context.request, baseURL ?? "");

      await page.goto("/backtest");
      await expectTheme(page, theme);
      const custom = page.getByTestId("custom-params");
      await custom.scrollIntoViewIfNeeded();
      const toggle = custom.getByRole("switch", { name: "Use custom parameters" });
      await expect(toggle).toBeVisible();
      await expectContained(custom);
      await expectNoHorizontalOverflow(page);
      // Switched on, the fields open under a header that still fits.
      await toggle.click();
      await expect(custom.getByLabel("Momentum RSI low")).toBeVisible();
      await expectContained(custom.getByTestId("custom-params-header"));
      await expectContained(custom);
      await expectNoHorizontalOverflow(page);

      expect(await seriousViolations(page, "/backtest 390px", theme)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    test("the API explorer opens on the public API with Try it, the internal endpoints apart", async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      for (const viewport of [DESKTOP, PHONE]) {
        const context = await themedContext(browser, baseURL, theme, viewport);
        const page = await context.newPage();
        const errors = watchConsole(page);
        await openApiExplorer(page);
        await expectTheme(page, theme);

        const detail = page.getByTestId("endpoint-detail");
        await expect(detail.getByRole("heading", { name: "/api/v1/signals", exact: true })).toBeVisible();
        await expect(detail.getByText("API key (Bearer)")).toBeVisible();
        const tryIt = detail.getByRole("tab", { name: "Try it" });
        await expect(tryIt).toBeVisible();

        const list = page.getByRole("navigation", { name: "Endpoints" });
        const publicApi = list.getByTestId("endpoints-public");
        const publicPaths = await publicApi.getByRole("button").allTextContents();
        expect(publicPaths.length).toBeGreaterThan(5);
        for (const text of publicPaths) expect(text).toMatch(/\/api\/v1\//);
        await expect(publicApi.getByRole("button", { name: "GET /api/v1/signals", exact: true })).toHaveAttribute("aria-current", "true");

        // The web app's own endpoints are grouped apart, collapsed.
        const internal = list.getByTestId("endpoints-internal");
        await expect(internal.getByText("Internal (used by the web app)")).toBeVisible();
        const plans = list.getByRole("button", { name: /GET \/api\/plans/ });
        await expect(plans).toBeHidden();
        await internal.getByText("Internal (used by the web app)").click();
        await expect(plans).toBeVisible();
        await plans.click();
        await expect(detail.getByRole("heading", { name: "/api/plans", exact: true })).toBeVisible();
        await expect(detail.getByTestId("endpoint-internal-note")).toBeVisible();
        await expect(detail.getByRole("tab", { name: "Try it" })).toHaveCount(0);

        // Back on a public endpoint, "Try it" opens its form.
        await publicApi.getByRole("button", { name: "GET /api/v1/stats", exact: true }).click();
        await detail.getByRole("tab", { name: "Try it" }).click();
        await expect(detail.getByLabel("API key")).toBeVisible();
        await expectNoHorizontalOverflow(page);

        expect(await seriousViolations(page, `/api ${viewport.width}px`, theme)).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    test("a price alert already crossed is asked about before it is created", async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const context = await themedContext(browser, baseURL, theme);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await registerViaApi(context.request);
      const stocks = (await (await context.request.get("/api/stock-prices")).json()) as { symbol: string; currentPrice: number }[];
      const stock = stocks.find((s) => s.currentPrice > 4);
      if (!stock) throw new Error("no stock above $4 on the watchlist");
      const target = Math.floor(stock.currentPrice / 2);
      const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
      let posts = 0;
      page.on("request", (req) => {
        if (req.method() === "POST" && new URL(req.url()).pathname === "/api/price-alerts") posts += 1;
      });

      await page.goto("/dashboard");
      await expectTheme(page, theme);
      const card = cardWithHeading(page, "Price Alerts");
      const form = card.getByRole("form", { name: "Set a price alert" });
      await form.getByLabel("Symbol").fill(stock.symbol);
      await expect(form.getByText(`${stock.symbol} is at`)).toBeVisible();
      await form.getByLabel("Direction").selectOption("above");
      await form.getByLabel("Target price (USD)").fill(String(target));
      await form.getByRole("button", { name: "Set Alert" }).click();

      // Nothing is sent: the form says why and asks.
      const question = form.getByRole("alert");
      await expect(question).toContainText(`${stock.symbol} is already above ${usd(target)}`);
      await expect(question).toContainText("the alert would fire at once. Create it anyway?");
      await expect(question.getByRole("button", { name: "Create anyway" })).toBeFocused();
      expect(await seriousViolations(page, "/dashboard (alert question)", theme)).toEqual([]);
      // Asked again, it asks again.
      await form.getByRole("button", { name: "Set Alert" }).click();
      await expect(question).toBeVisible();
      expect(posts).toBe(0);

      // "Change target" withdraws the question and returns to the price.
      await question.getByRole("button", { name: "Change target" }).click();
      await expect(form.getByRole("alert")).toHaveCount(0);
      await expect(form.getByLabel("Target price (USD)")).toBeFocused();
      expect(posts).toBe(0);

      // Asked again and confirmed, it is created.
      await form.getByRole("button", { name: "Set Alert" }).click();
      const created = answerTo(page, "POST", "/api/price-alerts");
      await form.getByRole("alert").getByRole("button", { name: "Create anyway" }).click();
      expect((await created).status()).toBe(201);
      await expect(toastTitle(page, "Price Alert Set")).toBeVisible();
      await expect(card.getByTestId("price-alert-row")).toContainText(`Above ${usd(target)}`);
      expect(posts).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    test("the bell opens a popover under itself on a desktop and a bottom sheet at 390 px", async ({ browser, baseURL }) => {
      // Two widths, each audited: more than the default 30 s on a busy machine.
      test.setTimeout(120_000);
      const setup = await browser.newContext({ baseURL });
      await registerViaApi(setup.request);
      const signedIn = await setup.storageState();
      await setup.close();
      for (const viewport of [DESKTOP, PHONE]) {
        const context = await themedContext(browser, baseURL, theme, viewport, signedIn);
        const page = await context.newPage();
        const errors = watchConsole(page);
        await page.goto("/dashboard");
        await expectTheme(page, theme);

        const bell = page.getByRole("button", { name: /^Notifications: \d+ unread$/ });
        // Measured before opening: a modal sheet hides the rest of the page from the accessibility tree.
        const at = (await bell.boundingBox())!;
        await bell.click();
        const panel = page.getByRole("dialog", { name: "Notifications" });
        await expect(panel).toBeVisible();
        await expect(panel.getByRole("tab", { name: /^Notifications/ })).toHaveAttribute("aria-selected", "true");
        await settleAnimations(panel);
        const box = (await panel.boundingBox())!;
        if (viewport === DESKTOP) {
          // Anchored: just under the bell, its right edge near the bell's, the page not dimmed.
          expect(box.y).toBeGreaterThanOrEqual(at.y + at.height);
          expect(box.y).toBeLessThanOrEqual(at.y + at.height + 16);
          expect(Math.abs(box.x + box.width - (at.x + at.width))).toBeLessThanOrEqual(16);
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
          await expect(page.locator('[data-slot="dialog-overlay"], [data-slot="sheet-overlay"]')).toHaveCount(0);
          // A click outside closes it, and the page under it takes the click.
          await page.getByRole("heading", { level: 1 }).first().click();
          await expect(panel).toHaveCount(0);
          await bell.click();
          await expect(panel).toBeVisible();
        } else {
          // A sheet: the full width, on the bottom edge of the screen.
          expect(Math.round(box.x)).toBe(0);
          expect(Math.round(box.width)).toBe(viewport.width);
          expect(Math.round(box.y + box.height)).toBe(viewport.height);
          await expect(panel.getByRole("button", { name: "Close notifications" })).toBeVisible();
        }
        expect(await seriousViolations(page, `bell ${viewport.width}px`, theme)).toEqual([]);
        await page.keyboard.press("Escape");
        await expect(panel).toHaveCount(0);
        await expect(bell).toBeFocused();
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    test("every curl example quotes its URL and runs in a shell that refuses unmatched globs, as zsh does", async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const context = await themedContext(browser, baseURL, theme);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await registerViaApi(context.request);
      const created = await context.request.post("/api/api-keys", {
        data: { name: "zsh", permissions: "read", expiresIn: "30" },
        headers: { Origin: baseURL ?? "" },
      });
      expect(created.status(), await created.text()).toBe(201);
      const { key } = (await created.json()) as { key: string };

      /** Runs `command` as pasted into bash with `failglob` (zsh's `nomatch`: an unmatched `?` is an error). */
      const run = (command: string) =>
        execFileSync("bash", ["-O", "failglob", "-c", command.replace(/^curl /, "curl -s -i --max-time 10 ")], {
          encoding: "utf8",
          env: { ...process.env, STRIKELINE_API_KEY: key },
          cwd: "/",
        });
      const singleQuotedUrl = new RegExp(`'${(baseURL ?? "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/api/[^']*'`);

      // Settings › API Keys.
      await page.goto("/settings?tab=api-keys");
      await expectTheme(page, theme);
      const settingsCurl = (await page.getByLabel("curl example", { exact: true }).textContent()) ?? "";
      expect(settingsCurl).toMatch(singleQuotedUrl);
      expect(settingsCurl).toContain("?limit=5'");
      expect(run(settingsCurl)).toMatch(/^HTTP\/1\.1 200/);
      expect(await seriousViolations(page, "/settings?tab=api-keys", theme)).toEqual([]);

      // The API reference's example for the same endpoint, with a query.
      await openApiExplorer(page, `?endpoint=${encodeURIComponent("GET /api/v1/news")}`);
      const detail = page.getByTestId("endpoint-detail");
      await detail.getByRole("tab", { name: "Example" }).click();
      const referenceCurl = (await detail.getByLabel("curl example", { exact: true }).textContent()) ?? "";
      expect(referenceCurl).toMatch(singleQuotedUrl);
      expect(run(referenceCurl)).toMatch(/^HTTP\/1\.1 200/);

      // The documentation's REST sample.
      await page.goto("/documentation?tab=integrations");
      const sample = page.locator("section", { has: page.getByRole("heading", { name: "REST", exact: true }) }).locator("pre");
      const docsCurl = (await sample.textContent()) ?? "";
      expect(docsCurl).toMatch(singleQuotedUrl);
      expect(run(docsCurl)).toMatch(/^HTTP\/1\.1 200/);
      expect(errors).toEqual([]);
      await context.close();
    });

    test("the sentiment counts say they cover only the articles loaded", async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const context = await themedContext(browser, baseURL, theme);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await registerViaApi(context.request);
      const first = answerTo(page, "GET", "/api/news");
      await page.goto("/news");
      await expectTheme(page, theme);
      const loaded = ((await (await first).json()) as unknown[]).length;
      await expect(page.getByTestId("news-card")).toHaveCount(loaded);

      const label = `Sentiment of the latest ${loaded} articles`;
      const group = page.getByRole("group", { name: label, exact: true });
      await expect(group.getByRole("button", { name: `All ${loaded}` })).toBeVisible();
      await expect(page.getByTestId("sentiment-scope")).toHaveText(label);

      // More loaded, the label follows.
      const twenty = answerTo(page, "GET", "/api/news");
      await page.getByRole("group", { name: "Articles to load" }).getByRole("button", { name: "20" }).click();
      const more = ((await (await twenty).json()) as unknown[]).length;
      await expect(page.getByTestId("sentiment-scope")).toHaveText(`Sentiment of the latest ${more} articles`);
      await expect(page.getByRole("group", { name: `Sentiment of the latest ${more} articles`, exact: true })).toBeVisible();
      expect(await seriousViolations(page, "/news", theme)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    test("red toast text and a pressed blue button reach 4.5:1", async ({ browser, baseURL }) => {
      const context = await themedContext(browser, baseURL, theme);
      const page = await context.newPage();
      watchConsole(page);
      await page.goto("/login");
      await expectTheme(page, theme);
      await page.getByLabel("Email").fill("nobody@example.com");
      await page.getByLabel("Password", { exact: true }).fill("not-the-password-1");
      await page.getByRole("button", { name: "Sign In" }).click();
      const title = toastTitle(page, "Login Failed").first();
      await expect(title).toBeVisible();
      const toast = page.locator('[data-slot="toast"][data-variant="destructive"]').first();
      await settleAnimations(toast);
      for (const part of [title, toastText(page, /./).first()]) {
        const measured = await contrastOf(part);
        expect(measured.ratio, `toast text ${measured.text} on ${measured.background}`).toBeGreaterThanOrEqual(4.5);
      }
      // The close control is not text: 3:1 (WCAG 1.4.11).
      const close = await contrastOf(toast.locator('[data-slot="toast-close"]'));
      expect(close.ratio, `toast close ${close.text} on ${close.background}`).toBeGreaterThanOrEqual(3);
      expect(await seriousViolations(page, "/login (toast)", theme)).toEqual([]);

      // The primary button, hovered and then pressed.
      const button = page.getByRole("button", { name: "Sign In" });
      const rest = await contrastOf(button);
      await button.hover();
      await settleAnimations(button);
      const hovered = await contrastOf(button);
      await page.mouse.down();
      await settleAnimations(button);
      const pressed = await contrastOf(button);
      await page.mouse.up();
      for (const [state, measured] of Object.entries({ rest, hovered, pressed })) {
        expect(measured.ratio, `${state} button ${measured.text} on ${measured.background}`).toBeGreaterThanOrEqual(4.5);
      }
      await context.close();
    });

    test("support response times are one promise per plan, everywhere", async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const context = await themedContext(browser, baseURL, theme);
      const page = await context.newPage();
      const errors = watchConsole(page);
      const catalogue = (await (await context.request.get("/api/plans")).json()) as { plans: { id: string; supportResponse: string }[] };
      const promise = Object.fromEntries(catalogue.plans.map((p) => [p.id, p.supportResponse]));
      expect(Object.keys(promise).sort()).toEqual(["free", "premium", "pro"]);

      // Every page that states a response time states the catalogue's, and no other.
      const statements: string[] = [];
      for (const path of ["/help", "/help/account-billing/plans-and-limits", "/pricing", "/documentation", "/"]) {
        await page.goto(path);
        await page.locator("h1").first().waitFor();
        await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
        const text = (await page.locator("body").innerText()).replace(/\s+/g, " ");
        const found = text.match(/[^.]*\b\d+\s*(?:[–-]\s*\d+\s*)?hours?\b[^.]*/gi) ?? [];
        statements.push(...found.filter((s) => /support|respon|repl|answer|get back/i.test(s)).map((s) => `${path}: ${s.trim()}`));
        if (path === "/help") {
          await expectTheme(page, theme);
          await expect(page.locator("#contact")).toContainText(
            `within ${promise.free} on Free, ${promise.pro} on Pro, and around the clock (${promise.premium}) on Premium`,
          );
          expect(await seriousViolations(page, "/help", theme)).toEqual([]);
        }
      }
      expect(statements.length).toBeGreaterThan(3);
      for (const statement of statements) {
        const hours = [...statement.matchAll(/(\d+)\s*(?:[–-]\s*\d+\s*)?hours?/gi)].map((m) => `${m[1]} hours`);
        for (const h of hours) expect([promise.free, promise.pro], statement).toContain(h);
        expect(statement).not.toMatch(/\d+\s*[–-]\s*\d+\s*hours/);
      }
      // The plans article's table agrees with the catalogue.
      await page.goto("/help/account-billing/plans-and-limits");
      const row = page.getByRole("row", { name: /Support response/ });
      await expect(row).toContainText(promise.free);
      await expect(row).toContainText(promise.pro);
      await expect(row).toContainText(promise.premium);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
