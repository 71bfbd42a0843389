// `npm run screenshots`: starts the real server and saves viewport screenshots of
// each page type (landing, auth, dashboard and every kind of public page), in light
// and dark, at 1280×800 and 390×844, to docs/screenshots/{page}-{theme}-{size}.png.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, checkPrerequisites, startServer, webDir } from "./server.mjs";

const outDir = path.resolve(webDir, "..", "docs", "screenshots");
const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};
const THEMES = ["light", "dark"];
const PAGES = [
  { name: "landing", path: "/", ready: "h1" },
  { name: "login", path: "/login", ready: "form" },
  { name: "register", path: "/register", ready: "form" },
  { name: "dashboard", path: "/dashboard", ready: "text=Welcome back", signedIn: true, fullPage: true },
  { name: "signals", path: "/signals", ready: "text=Trading Signals", signedIn: true, fullPage: true },
  { name: "portfolio", path: "/portfolio", ready: "main h1", signedIn: true, fullPage: true },
  { name: "backtest", path: "/backtest", ready: "main h1", signedIn: true, fullPage: true },
  { name: "pricing", path: "/pricing", ready: "[data-testid=plan-pro]" },
  { name: "about", path: "/about", ready: "[data-testid=figure-users]" },
  { name: "blog", path: "/blog", ready: "h1" },
  { name: "blog-article", path: "/blog/options-greeks-guide", ready: "article h2" },
  { name: "careers", path: "/careers", ready: "h1" },
  { name: "career-opening", path: "/careers/senior-frontend-engineer", ready: "main h2" },
  { name: "help", path: "/help", ready: "h1" },
  { name: "help-category", path: "/help/trading-guides", ready: "h1" },
  { name: "community", path: "/community", ready: "h1" },
  { name: "privacy", path: "/privacy", ready: "article h2" },
  { name: "documentation", path: "/documentation", ready: "h1" },
  { name: "docs-guide", path: "/docs/trading-signals", ready: "article h2" },
  // The server answers a direct load of /api itself, so the page is opened inside the app.
  { name: "api-explorer", path: "/api", ready: "[data-testid=endpoint-detail]", clientSide: true },
];

// `SCREENSHOTS_ONLY=dashboard,signals` limits the run to those pages.
const only = process.env.SCREENSHOTS_ONLY?.split(",");
const problems = checkPrerequisites();
if (problems.length > 0) {
  for (const p of problems) console.error(`screenshots: ${p}`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
let written = 0;
try {
  const account = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: `ada.${Date.now().toString(36)}@example.com`,
    username: `ada_${Date.now().toString(36)}`,
    password: "correct-horse-42",
  };
  const setup = await browser.newContext({ baseURL: server.baseURL });
  const registered = await setup.request.post("/api/auth/register", { data: account });
  if (registered.status() !== 201) throw new Error(`register answered ${registered.status()}: ${await registered.text()}`);
  await setup.close();

  for (const [size, options] of Object.entries(SIZES)) {
    for (const theme of THEMES) {
      for (const target of PAGES.filter((p) => !only || only.includes(p.name))) {
        const context = await browser.newContext({
          ...options,
          baseURL: server.baseURL,
          colorScheme: theme,
          deviceScaleFactor: 1,
          reducedMotion: "reduce",
        });
        await context.addInitScript((t) => window.localStorage.setItem("theme", t), theme);
        if (target.signedIn) {
          const res = await context.request.post("/api/auth/login", {
            data: { email: account.email, password: account.password },
          });
          if (!res.ok()) throw new Error(`login answered ${res.status()}`);
        }
        const page = await context.newPage();
        if (target.clientSide) {
          await page.goto("/about", { waitUntil: "networkidle" });
          await page.evaluate((path) => {
            window.history.pushState({}, "", path);
            window.dispatchEvent(new PopStateEvent("popstate"));
          }, target.path);
          await page.waitForLoadState("networkidle");
        } else {
          // Signed-in pages hold the live-events stream open, so the network never idles.
          await page.goto(target.path, { waitUntil: target.signedIn ? "load" : "networkidle" });
        }
        await page.locator(target.ready).first().waitFor();
        await page
          .locator('main [aria-busy="true"]')
          .first()
          .waitFor({ state: "detached", timeout: 10_000 })
          .catch(() => {});
        await page.evaluate(() => document.fonts.ready);
        const file = path.join(outDir, `${target.name}-${theme}-${size}.png`);
        if (target.signedIn) await page.waitForTimeout(1500);
        await page.screenshot({ path: file, animations: "disabled", caret: "hide", fullPage: Boolean(target.fullPage) });
        written += 1;
        console.log(`screenshots: ${path.relative(path.resolve(webDir, ".."), file)}`);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots: wrote ${written} files`);
