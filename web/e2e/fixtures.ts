import { type APIRequestContext, type Browser, expect, type Locator, type Page, type Request, request, test } from "@playwright/test";
import { auditContext, type Theme } from "./axe";

// What the specs share: accounts on the real server, the console watcher, toasts, answers to
// wait for, the test provider's card form and the axe audit context. Specs import `test` and
// `expect` from here too, so a fixture added later reaches every spec.

export { expect, test };
export { auditContext, seriousViolations, THEMES, type Theme } from "./axe";

export const PASSWORD = "correct-horse-42";

/**
 * The e2e server's administrator (ADMIN_EMAIL in e2e/server.mjs): whichever spec comes first
 * registers it, the others sign in.
 */
const ADMIN = { email: "admin@example.com", username: "site_admin", password: PASSWORD };

/** An expiry date far in the future (December 2049), as MM/YY: no test depends on today's date. */
const EXPIRY = "12/49";

/** A local calendar date `days` from today: as YYYY-MM-DD (what a date input takes) and as the date picker names its buttons. */
export function dayFromToday(days: number) {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return {
    date,
    iso: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    name: date.toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric" }),
  };
}

/** Asserts the page does not scroll sideways at `width` px: nothing is wider than the viewport. */
export async function noHorizontalOverflow(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** A short id no other test run has used: 48 random bits, in hex. */
export function uniqueId() {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 12);
}

type AccountOptions = {
  firstName?: string;
  lastName?: string;
  /** The start of the email's local part and of the username ("ada" → ada.{id}@example.com, ada_{id}). */
  handle?: string;
};

/** A new account's registration form, unique to this run. */
export function uniqueAccount({ firstName = "Ada", lastName = "Lovelace", handle = "ada" }: AccountOptions = {}) {
  const id = uniqueId();
  return { firstName, lastName, email: `${handle}.${id}@example.com`, username: `${handle}_${id}`, password: PASSWORD };
}

/** A message the e2e fake mail server received (e2e/mail.mjs), its body decoded. */
export type Mail = { id: number; receivedAt: number; from: string; to: string[]; subject: string; text: string };

/** The fake mail server's HTTP address, which e2e/run.mjs passes to the specs. */
function mailUrl(): string {
  const url = process.env.STRIKELINE_E2E_MAIL_URL;
  if (!url) throw new Error("STRIKELINE_E2E_MAIL_URL is not set: run the specs with `node e2e/run.mjs`");
  return url;
}

/**
 * Waits, up to `timeoutMs` (15 s), for the newest mail to `to` received at or after `since` (a
 * `Date.now()` taken before the request that sends it) whose text contains `link` (a page the
 * emailed link opens). The server's outbox sends within about a second.
 */
export async function waitForMail(to: string, { since, link, timeoutMs = 15_000 }: { since: number; link: string; timeoutMs?: number }) {
  const deadline = Date.now() + timeoutMs;
  const url = `${mailUrl()}/messages?to=${encodeURIComponent(to)}&since=${since}`;
  for (;;) {
    const res = await fetch(url);
    const found = ((await res.json()) as Mail[]).filter((m) => m.text.includes(`/${link}?token=`));
    if (found.length > 0) return found[found.length - 1];
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with a /${link} link within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The path and query of the `/{page}?token=…` link in `mail` (the server writes its own base
 * URL in front, which for a server on port 0 is not the address the tests use).
 */
export function linkIn(mail: Mail, page: string): string {
  const match = mail.text.match(new RegExp(`/${page}\\?token=([^\\s&]+)`));
  if (!match) throw new Error(`no /${page} link in the mail "${mail.subject}":\n${mail.text}`);
  return `/${page}?token=${match[1]}`;
}

/** The token of the `/{page}?token=…` link in `mail`. */
export function tokenIn(mail: Mail, page: string): string {
  return new URL(linkIn(mail, page), "http://x").searchParams.get("token") ?? "";
}

/**
 * Confirms `email` as its owner would: waits for the confirmation mail sent since `since` and
 * opens its link through the API. `origin` is the site's (a request carrying the session
 * cookie must say it comes from the site itself).
 */
export async function confirmViaEmail(api: APIRequestContext, email: string, since: number, origin: string) {
  const mail = await waitForMail(email, { since, link: "verify-email" });
  const res = await api.post("/api/auth/verify-email", { headers: { Origin: origin }, data: { token: tokenIn(mail, "verify-email") } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { trialStarted: boolean };
}

/**
 * Registers `account` through the API and, unless `confirm` is false, confirms its address
 * with the emailed link (which starts the 14-day Pro trial); the request context (a page's, a
 * context's) is signed in afterwards.
 */
export async function registerViaApi(api: APIRequestContext, account = uniqueAccount(), { confirm = true } = {}) {
  const since = Date.now();
  const res = await api.post("/api/auth/register", { data: account });
  expect(res.status(), await res.text()).toBe(201);
  if (confirm) await confirmViaEmail(api, account.email, since, new URL(res.url()).origin);
  return account;
}

/**
 * A request context signed in as the administrator (registered by the first spec that needs
 * it, and confirmed: administrator rights need a confirmed address).
 */
export async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const since = Date.now();
  const registered = await api.post("/api/auth/register", { data: ADMIN });
  if (registered.status() === 201) {
    await confirmViaEmail(api, ADMIN.email, since, baseURL);
    return api;
  }
  const login = await api.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(login.ok(), await login.text()).toBe(true);
  // Another worker may have registered it a moment ago and be opening its link now: give it
  // the time to, before sending a new link (which would end that worker's).
  const verified = async () => ((await (await api.get("/api/auth/me")).json()) as { emailVerified: boolean }).emailVerified;
  for (let waited = 0; waited < 20_000 && !(await verified()); waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!(await verified())) {
    const resendSince = Date.now();
    const resent = await api.post("/api/auth/verify-email/resend");
    expect(resent.status(), await resent.text()).toBe(202);
    await confirmViaEmail(api, ADMIN.email, resendSince, baseURL);
  }
  return api;
}

type WatchOptions = {
  /**
   * Console errors the test expects: the browser logs every failed request ("… status of 401"),
   * and a visitor's 401 from /api/auth/me is normal. `null` lets none through.
   */
  expected?: RegExp | null;
  /** Prefix each error with the page's address (for specs that walk many pages). */
  withUrl?: boolean;
  /** Also record every answer of 400 or more ("404 GET /api/…"). */
  failedResponses?: boolean;
};

/** Collects console errors and uncaught exceptions (a CSP violation shows up as one): the test ends with `expect(errors).toEqual([])`. */
export function watchConsole(page: Page, { expected = /status of 401/, withUrl = false, failedResponses = false }: WatchOptions = {}) {
  const errors: string[] = [];
  const record = (text: string) => errors.push(withUrl ? `${page.url()}: ${text}` : text);
  page.on("console", (msg) => {
    if (msg.type() === "error" && !expected?.test(msg.text())) record(msg.text());
  });
  page.on("pageerror", (error) => record(error.message));
  if (failedResponses) {
    page.on("response", (res) => {
      if (res.status() >= 400) record(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
  }
  return errors;
}

/** A toast's title (Radix also repeats toasts in a live region for screen readers). */
export function toastTitle(page: Page, title: string) {
  return page.locator('[data-slot="toast-title"]', { hasText: title });
}

/** A toast's description. */
export function toastText(page: Page, text: string | RegExp) {
  return page.locator('[data-slot="toast-description"]', { hasText: text });
}

/** The card whose heading is `heading` ("Price Alerts", "Live Signals", …). */
export function cardWithHeading(page: Page, heading: string): Locator {
  return page.locator("div[data-slot=card]", { has: page.getByRole("heading", { name: heading }) });
}

/** Waits for the answer to the next `method` request to `path` (a pathname, or a pattern it matches). */
export function answerTo(page: Page, method: string, path: string | RegExp) {
  return page.waitForResponse((res) => {
    const url = new URL(res.url());
    return res.request().method() === method && (typeof path === "string" ? url.pathname === path : path.test(url.pathname));
  });
}

/** Fills the test provider's card form on /subscribe and presses Subscribe Now; resolves with the payment's answer. */
/** Puts the signed-in account of `api` on Premium, paid with the test provider's 4242 card. */
export async function buyPremium(api: APIRequestContext, origin: string) {
  const started = await api.post("/api/create-subscription", {
    headers: { Origin: origin },
    data: { plan: "premium", billing: "monthly" },
  });
  expect(started.status(), await started.text()).toBe(200);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  const paid = await api.post("/api/billing/test-provider/pay", {
    headers: { Origin: origin },
    data: { clientSecret, cardNumber: "4242424242424242", expMonth: 12, expYear: 2049, cvc: "123" },
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

export async function payWithCard(page: Page, cardNumber: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry (MM/YY)").fill(EXPIRY);
  await page.getByLabel("CVC").fill("123");
  const paid = answerTo(page, "POST", "/api/billing/test-provider/pay");
  await page.getByRole("button", { name: "Subscribe Now" }).click();
  return paid;
}

/** Scrolls to the bottom of the page and back, so below-the-fold sections load. */
export async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 30));
    }
    window.scrollTo(0, 0);
  });
}

/** Requests in flight per page, for `networkQuiet` (the live-events stream never ends, so it is left out). */
const inFlight = new WeakMap<Page, Set<Request>>();

/**
 * Starts counting `page`'s requests in flight. Call it before the navigation that
 * `networkQuiet` waits for afterwards, so that no request of it is missed.
 */
export function trackNetwork(page: Page) {
  if (inFlight.has(page)) return;
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on("request", (req) => {
    if (req.resourceType() !== "eventsource" && !new URL(req.url()).pathname.startsWith("/api/events")) open.add(req);
  });
  page.on("requestfinished", (req) => open.delete(req));
  page.on("requestfailed", (req) => open.delete(req));
}

/**
 * Resolves once `page` has had no request in flight (see `trackNetwork`) for `quietMs`.
 * Playwright's "networkidle" waits for 500 ms of quiet, which over a walk of 20 pages is 10 s
 * of waiting for nothing. Call it after the page has rendered what it shows first (its
 * heading): a page fetches its data as it mounts, so the requests that matter have started.
 */
export async function networkQuiet(page: Page, { quietMs = 100, timeoutMs = 15_000 } = {}) {
  const open = inFlight.get(page);
  if (!open) throw new Error("networkQuiet: call trackNetwork(page) before the navigation");
  const deadline = Date.now() + timeoutMs;
  let quietSince = Infinity;
  for (;;) {
    const now = Date.now();
    if (open.size > 0) quietSince = Infinity;
    else if (quietSince === Infinity) quietSince = now;
    if (now - quietSince >= quietMs) return;
    if (now > deadline) throw new Error(`networkQuiet: ${open.size} request(s) still in flight after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A new Premium account signed in on a page of its own context at `width` px in `theme` (axe
 * and the contrast check can run on it), with its console watched: what the Premium features'
 * specs start from. Close `context` at the end.
 */
export async function premiumPage(browser: Browser, baseURL: string | undefined, width: number, theme: Theme) {
  const context = await auditContext(browser, baseURL, theme);
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  await buyPremium(page.request, baseURL ?? "");
  return { context, page, errors };
}
