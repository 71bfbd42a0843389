import { type APIRequestContext, expect, type Locator, type Page, request, test } from "@playwright/test";

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

/** Registers `account` through the API; the request context (a page's, a context's) is signed in afterwards. */
export async function registerViaApi(api: APIRequestContext, account = uniqueAccount()) {
  const res = await api.post("/api/auth/register", { data: account });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

/** A request context signed in as the administrator (registered by the first spec that needs it). */
export async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const registered = await api.post("/api/auth/register", { data: ADMIN });
  if (registered.status() !== 201) {
    const login = await api.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.ok(), await login.text()).toBe(true);
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
