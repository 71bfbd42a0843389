import { gzipSync } from "node:zlib";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import {
  adminContext,
  auditContext,
  expect,
  registerViaApi,
  networkQuiet,
  scrollThrough,
  seriousViolations,
  test,
  THEMES,
  type Theme,
  toastText,
  toastTitle,
  trackNetwork,
  uniqueAccount,
  uniqueId,
  watchConsole,
} from "./fixtures";

// The public site against the real server: every page and linked slug, every internal link,
// axe in light and dark, 390 px layouts, the forms (checked in the server's admin inbox),
// the search boxes, pricing, the API explorer and the landing page's JavaScript budget.

const LANDING_HEADING = /options signals with the reasoning attached/i;
const JS_BUDGET_BYTES = 150 * 1024;

const TOP_LEVEL = [
  "/",
  "/pricing",
  "/about",
  "/track-record",
  "/blog",
  "/careers",
  "/help",
  "/community",
  "/community/guidelines",
  "/privacy",
  "/terms",
  "/documentation",
  "/api",
];
const BLOG = [
  "ai-powered-market-analysis",
  "options-greeks-guide",
  "market-volatility-patterns",
  "first-options-portfolio",
  "options-risk-management",
  "earnings-season-strategy",
  "technical-analysis-options",
].map((slug) => `/blog/${slug}`);
const CAREERS = ["senior-frontend-engineer", "ml-engineer", "quant-researcher", "devops-engineer", "product-manager", "sdr"].map(
  (slug) => `/careers/${slug}`,
);
const HELP = ["getting-started", "trading-guides", "platform-features", "account-billing"].map((slug) => `/help/${slug}`);
const DOCS = ["account-setup", "trading-signals", "portfolio-setup", "ai-assistant", "errors"].map((slug) => `/docs/${slug}`);
const SPEC_PAGES = [...TOP_LEVEL, ...BLOG, ...CAREERS, ...HELP, ...DOCS];
/** One page of each kind, for the checks that are slow per page. */
const PAGE_TYPES = [...TOP_LEVEL, BLOG[1], CAREERS[0], HELP[1], "/help/trading-guides/reading-trading-signals", DOCS[1], DOCS[4]];

/**
 * Opens `path` and waits until its content, lazy chunks and Markdown included, has rendered.
 *
 * The server answers a direct load of `/api` itself (its API 404), so the API reference page
 * is opened the way a visitor reaches it: inside the app, by client-side navigation.
 */
async function open(page: Page, path: string) {
  trackNetwork(page);
  const url = new URL(path, "http://x");
  if (url.pathname === "/api") {
    if (!/^https?:/.test(page.url())) await page.goto("/about");
    await page.locator("h1").first().waitFor();
    await page.evaluate((target) => {
      window.history.pushState({}, "", target);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, path);
    // The page it came from still shows its own heading until the reference has rendered.
    await expect(page.getByRole("heading", { level: 1, name: "API Reference" })).toBeVisible();
    await expect(page).toHaveTitle("API Reference · Strikeline");
  } else {
    await page.goto(path);
    await page.locator("h1").first().waitFor();
  }
  await networkQuiet(page);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

/** Scrolls through the page so below-the-fold sections (the landing contact form) load, and waits until they have. */
async function loadBelowTheFold(page: Page) {
  await scrollThrough(page);
  await networkQuiet(page);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

type Inbox = {
  contactMessages: { name: string; email: string; company?: string | null; subject?: string | null; message: string; source: string }[];
  newsletterSubscribers: { email: string }[];
};

async function inbox(api: APIRequestContext): Promise<Inbox> {
  const res = await api.get("/api/admin/messages");
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Inbox;
}

test.describe("every public page", () => {
  test.describe.configure({ timeout: 300_000 });

  test("renders with its own title and description, and every internal link leads to a real page", async ({ page, baseURL }) => {
    const errors = watchConsole(page, { withUrl: true });
    const queue = [...SPEC_PAGES];
    const seen = new Set(queue);
    const titles = new Map<string, string>();
    const problems: string[] = [];

    while (queue.length > 0) {
      const href = queue.shift() as string;
      const url = new URL(href, baseURL);
      await open(page, href);

      if ((await page.getByTestId("not-found").count()) > 0) problems.push(`${href}: not-found screen`);
      if (url.pathname !== "/" && (await page.getByRole("heading", { level: 1, name: LANDING_HEADING }).count()) > 0) {
        problems.push(`${href}: fell back to the landing page`);
      }
      if (url.hash && (await page.locator(`[id="${decodeURIComponent(url.hash.slice(1))}"]`).count()) === 0) {
        problems.push(`${href}: no element for ${url.hash}`);
      }
      const title = await page.title();
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      if (!title || title === "Strikeline") problems.push(`${href}: no page title`);
      if (!description || description.length < 40) problems.push(`${href}: no meta description`);
      const other = titles.get(title);
      if (other && other !== url.pathname) problems.push(`${href}: same title as ${other} (${title})`);
      titles.set(title, url.pathname);

      const links = await page.$$eval("a[href]", (anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
      for (const link of links) {
        if (!link.startsWith("/") || link.startsWith("//")) continue;
        if (link.startsWith("/api/")) continue;
        if (!seen.has(link)) {
          seen.add(link);
          queue.push(link);
        }
      }
    }

    console.log(`public pages: visited ${seen.size} internal links`);
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(60);
    expect(errors).toEqual([]);
  });

  for (const theme of THEMES) {
    test(`has no serious or critical axe violations in ${theme} mode`, async ({ browser, baseURL }) => {
      const violations = await axeAll(browser, baseURL as string, theme);
      expect(violations).toEqual([]);
    });
  }

  test("fits a 390 px screen without sideways scrolling", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const overflowing: string[] = [];
    for (const path of PAGE_TYPES) {
      await open(page, path);
      await loadBelowTheFold(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) overflowing.push(`${path}: ${width}px`);
    }
    await context.close();
    expect(overflowing).toEqual([]);
  });
});

async function axeAll(browser: Browser, baseURL: string, theme: Theme) {
  const context = await auditContext(browser, baseURL, theme);
  const page = await context.newPage();
  const found: string[] = [];
  for (const path of [...PAGE_TYPES, "/blog/no-such-article"]) {
    await open(page, path);
    await loadBelowTheFold(page);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    found.push(...(await seriousViolations(page, path, theme)));
  }
  await context.close();
  return found;
}

test.describe("forms are stored by the server", () => {
  let admin: APIRequestContext;
  test.beforeAll(async ({ baseURL }) => {
    admin = await adminContext(baseURL as string);
  });
  test.afterAll(async () => {
    await admin.dispose();
  });

  test("the landing contact form validates, sends, toasts and clears", async ({ page }) => {
    const errors = watchConsole(page, { withUrl: true });
    const id = uniqueId();
    await page.goto("/#contact");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "Send us a message" }) });
    await expect(form.getByLabel("Name")).toBeVisible();

    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Name is required")).toBeVisible();
    await expect(form.getByText("Message is required")).toBeVisible();

    await form.getByLabel("Name").fill("Ada Lovelace");
    await form.getByLabel("Email").fill(`ada.${id}@example.com`);
    await form.getByLabel("Company (optional)").fill("Analytical Engines");
    await form.getByLabel("Message").fill(`Do you cover options on ETFs? (${id})`);
    await form.getByRole("button", { name: "Send Message" }).click();

    await expect(toastTitle(page, "Message Sent")).toBeVisible();
    await expect(toastText(page, "We'll get back to you within 48 hours (12 hours on Pro, around the clock on Premium).")).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Message")).toHaveValue("");

    const stored = (await inbox(admin)).contactMessages.find((m) => m.message.includes(id));
    expect(stored).toMatchObject({
      name: "Ada Lovelace",
      email: `ada.${id}@example.com`,
      company: "Analytical Engines",
      source: "landing",
    });
    expect(errors).toEqual([]);
  });

  test("the help contact form requires every field, sends, toasts and clears", async ({ page }) => {
    const id = uniqueId();
    await page.goto("/help#contact");
    const form = page.getByRole("form", { name: "Contact support" });
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Subject is required")).toBeVisible();

    await form.getByLabel("Name").fill("Grace Hopper");
    await form.getByLabel("Email").fill(`grace.${id}@example.com`);
    await form.getByLabel("Subject").fill("Billing question");
    await form.getByLabel("Message").fill(`Can I switch to yearly billing mid-month? (${id})`);
    await form.getByRole("button", { name: "Send Message" }).click();

    await expect(toastTitle(page, "Message Sent")).toBeVisible();
    await expect(
      toastText(page, "We've received your message and will respond within 48 hours (12 hours on Pro, around the clock on Premium)."),
    ).toBeVisible();
    await expect(form.getByLabel("Subject")).toHaveValue("");

    const stored = (await inbox(admin)).contactMessages.find((m) => m.message.includes(id));
    expect(stored).toMatchObject({ name: "Grace Hopper", subject: "Billing question", source: "help" });
  });

  test("the blog's subscribe box adds the address to the newsletter", async ({ page }) => {
    const email = `reader.${uniqueId()}@example.com`;
    await page.goto("/blog");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(toastTitle(page, "Subscribed")).toBeVisible();
    await expect(toastText(page, `You're on the list. We'll email new articles to ${email}.`)).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue("");
    expect((await inbox(admin)).newsletterSubscribers.map((s) => s.email)).toContain(email);

    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(toastText(page, "You're already on the list")).toBeVisible();
  });
});

test.describe("search and filters", () => {
  test("blog search and category chips", async ({ page }) => {
    await open(page, "/blog");
    await page.getByLabel("Search articles").fill("straddle");
    await expect(page.getByRole("link", { name: /Trading Earnings Season with Options/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Latest articles" })).toHaveCount(0);
    await page.getByLabel("Search articles").fill("");
    await page.getByRole("button", { name: "Risk Management" }).click();
    await expect(page.getByText("1 article in Risk Management")).toBeVisible();
    await page.getByRole("link", { name: /Options Risk Management/ }).click();
    await expect(page).toHaveURL(/\/blog\/options-risk-management$/);
    await expect(page.getByRole("heading", { level: 2, name: "Know your maximum loss before you enter" })).toBeVisible();
  });

  test("careers department chips", async ({ page }) => {
    await open(page, "/careers");
    await expect(page.getByRole("link", { name: /^Apply:/ })).toHaveCount(6);
    await page.getByRole("button", { name: /^Engineering/ }).click();
    await expect(page.getByRole("link", { name: /^Apply:/ })).toHaveCount(2);
    await page.getByRole("button", { name: /^AI\/ML/ }).click();
    await page.getByRole("link", { name: "Apply: Machine Learning Engineer" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Machine Learning Engineer" })).toBeVisible();
  });

  test("help search with its Search button and popular topics", async ({ page }) => {
    await open(page, "/help");
    await expect(page.getByRole("button", { name: "Search", exact: true })).toHaveCount(0);
    await page.getByLabel("Search help articles").fill("cancel refund");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByRole("link", { name: /Cancelling and refunds/ })).toBeVisible();
    await page.getByRole("button", { name: "Risk management" }).click();
    await expect(page.getByRole("heading", { name: /for “Risk management”/ })).toBeVisible();
    await page.getByRole("link", { name: /Risk management basics/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Risk management basics" })).toBeVisible();
  });

  test("documentation search", async ({ page }) => {
    await open(page, "/documentation");
    await page.getByLabel("Search the documentation").fill("retry-after");
    await page.getByRole("link", { name: /API errors/ }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Validation failed" })).toBeVisible();
    await page.goto("/docs/errors#conflict");
    await expect(page.locator("#conflict")).toBeInViewport();
  });
});

test.describe("pricing", () => {
  test("monthly/yearly toggle; visitors go to /register", async ({ page }) => {
    await open(page, "/pricing");
    const pro = page.getByTestId("plan-pro");
    await expect(pro).toContainText("$49/month");
    await expect(pro).toContainText("Most Popular");
    await page.getByRole("button", { name: /Yearly/ }).click();
    await expect(page.getByText("Save 20%")).toBeVisible();
    await expect(pro).toContainText("$470/year");
    await expect(page.getByTestId("plan-premium")).toContainText("$1,430/year");
    // A paid plan: sign up, then straight on to pay for it.
    await expect(page.getByTestId("plan-premium").getByRole("link", { name: "Start with Premium" })).toHaveAttribute(
      "href",
      `/register?next=${encodeURIComponent("/subscribe?plan=premium&billing=yearly")}`,
    );
    await page.getByTestId("plan-free").getByRole("link").click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("signed in: Free toasts, a paid plan opens /subscribe with plan and billing", async ({ page }) => {
    await registerViaApi(page.request, uniqueAccount({ handle: "pricing" }));
    await open(page, "/pricing");
    await page.getByTestId("plan-free").getByRole("button", { name: "Free Plan" }).click();
    await expect(toastTitle(page, "Already on Free Plan")).toBeVisible();
    await page.getByRole("button", { name: /Yearly/ }).click();
    // A paid plan starts the subscription first, names the payment provider, then opens /subscribe.
    await page.getByTestId("plan-pro").getByRole("button", { name: "Choose Pro" }).click();
    await expect(toastTitle(page, "Redirecting to Strikeline test payments")).toBeVisible();
    await expect(page).toHaveURL(/\/subscribe\?plan=pro&billing=yearly$/);
    await expect(page.getByTestId("checkout-amount")).toContainText("$470.00");
  });
});

test("the API explorer reads the server's OpenAPI document", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const doc = (await (await page.request.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  // It opens on the public API's signals list; the web app's own endpoints are grouped apart, collapsed.
  const signals = Object.keys(doc.paths).find((p) => /^\/api\/v1\/signals\/?$/.test(p) && doc.paths[p].get);

  await open(page, "/api");
  const detail = page.getByTestId("endpoint-detail");
  if (signals) {
    await expect(detail.getByRole("heading", { name: signals })).toBeVisible();
  } else {
    await expect(page.getByRole("navigation", { name: "Endpoints" }).getByRole("button").first()).toHaveAttribute("aria-current", "true");
  }
  await page.getByText("Internal (used by the web app)").click();
  await page.getByRole("button", { name: /GET \/api\/plans/ }).click();
  await expect(detail.getByRole("heading", { name: "/api/plans" })).toBeVisible();
  await expect(page).toHaveURL(/endpoint=GET/);

  await detail.getByRole("tab", { name: "Response" }).click();
  await expect(detail.getByRole("cell", { name: /plans\[\]\.apiRequestsPerHour/ })).toBeVisible();
  await detail.getByRole("button", { name: "Copy response" }).click();
  await expect(detail.getByRole("button", { name: "response copied" })).toContainText("Copied");

  await detail.getByRole("tab", { name: "Example" }).click();
  await expect(detail.getByLabel("curl example", { exact: true })).toContainText(`curl '${baseURL}/api/plans'`);
  await detail.getByRole("button", { name: "Copy curl example" }).click();
  await expect(detail.getByRole("button", { name: "curl example copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`curl '${baseURL}/api/plans'`);
  await expect(detail.getByRole("button", { name: "Copy curl example" })).toBeVisible({ timeout: 3_000 });

  await expect(page.getByRole("region", { name: "Rate limits per plan" })).toContainText("5,000");
});

test("the landing page shows honest live figures and loads under 150 KB of gzipped JavaScript", async ({ page }) => {
  const scripts: { url: string; bytes: number }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: response.url(), bytes: gzipSync(body, { level: 9 }).length });
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.getByRole("heading", { level: 1, name: LANDING_HEADING })).toBeVisible();
  await expect(page.getByTestId("figure-win-rate")).toContainText(/Not enough closed signals yet|%/);
  await expect(page.getByTestId("figure-freshness")).toContainText(/Every /);
  await expect(page.getByText("Example signal")).toBeVisible();

  const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
  console.log(`landing page JavaScript: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(scripts.some((s) => /contact-form|markdown|options-greeks/.test(s.url))).toBe(false);
  expect(total).toBeLessThan(JS_BUDGET_BYTES);
});

test("header links to landing sections work from another page", async ({ page }) => {
  await open(page, "/about");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.locator("#pricing")).toBeInViewport();
});
