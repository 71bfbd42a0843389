import type { Page } from "@playwright/test";
import { expect, registerViaApi, test, watchConsole } from "./fixtures";

// /news and the dashboard's AI Investment Assistant against the real server. With no feeds
// configured the server stores its bundled sample articles (badged "Sample") and market notes
// computed from the simulated prices, and analyses each one from the stock's indicators. A new
// account is on the 14-day Pro trial, so it sees the analyses and the recommendations.

/** Waits for the answer to the next GET /api/news?count=`count`. */
function newsAnswer(page: Page, count: number) {
  return page.waitForResponse((res) => {
    const url = new URL(res.url());
    return url.pathname === "/api/news" && url.searchParams.get("count") === String(count);
  });
}

/** The number a filter button shows after its label ("Bearish 2" → 2). */
async function countOf(page: Page, label: string): Promise<number> {
  const name = await page
    .getByRole("group", { name: "Sentiment" })
    .getByRole("button", { name: new RegExp(`^${label} \\d+$`) })
    .textContent();
  return Number(name?.replace(/\D+/g, ""));
}

test("news cards show sentiment, sample badges and the AI analysis; filters and counts work", async ({ page }) => {
  const errors = watchConsole(page, { expected: /status of 40[13]/ });
  await registerViaApi(page.request);

  const first = newsAnswer(page, 5);
  await page.goto("/news");
  expect((await first).status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Market News & AI Analysis" })).toBeVisible();

  const cards = page.getByTestId("news-card");
  await expect(cards).toHaveCount(5);
  await expect(page.getByTestId("sentiment-badge")).toHaveCount(5);
  // Bundled samples, or after the close the day's market notes (newer): either is badged as not live news.
  await expect(
    page
      .getByTestId("origin-badge")
      .filter({ hasText: /Sample|Market note/ })
      .first(),
  ).toBeVisible();
  // Pro trial: the analysis is there, grounded in the stock's last close; no upgrade prompt.
  await expect(page.getByTestId("analysis-reasoning").filter({ hasText: "closed at $" }).first()).toBeVisible();
  await expect(page.getByText(/Analysed by (Strikeline's built-in model|an OpenAI-compatible model)/).first()).toBeVisible();
  await expect(page.getByText("AI analysis is a Pro feature")).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "Upgrade", exact: true })).toHaveCount(0);

  // The sample badge explains itself on keyboard focus.
  await page.getByTestId("origin-badge").first().focus();
  await expect(page.locator('[data-slot="tooltip-content"]')).toBeVisible();
  await page.keyboard.press("Escape");

  // Bearish: only bearish cards, as many as the button says, with no new request.
  expect(await countOf(page, "All")).toBe(5);
  const bearish = await countOf(page, "Bearish");
  let requests = 0;
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/news") requests += 1;
  });
  await page
    .getByRole("group", { name: "Sentiment" })
    .getByRole("button", { name: /^Bearish/ })
    .click();
  await expect(page).toHaveURL(/sentiment=bearish/);
  await expect(cards).toHaveCount(bearish);
  if (bearish === 0) await expect(page.getByText("No news available")).toBeVisible();
  for (const badge of await page.getByTestId("sentiment-badge").all()) await expect(badge).toHaveAttribute("data-sentiment", "bearish");
  expect(requests).toBe(0);

  // 20: the server is asked for 20, and more cards come back.
  await page.getByRole("group", { name: "Sentiment" }).getByRole("button", { name: /^All/ }).click();
  const twenty = newsAnswer(page, 20);
  await page.getByRole("group", { name: "Articles to load" }).getByRole("button", { name: "20" }).click();
  const answered = (await (await twenty).json()) as unknown[];
  expect(answered.length).toBeGreaterThan(5);
  await expect(cards).toHaveCount(answered.length);
  expect(await countOf(page, "All")).toBe(answered.length);
  await expect(page).toHaveURL(/count=20/);

  // Refresh asks again for the same count.
  const again = newsAnswer(page, 20);
  await page.getByRole("button", { name: "Refresh" }).click();
  expect((await again).status()).toBe(200);
  await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();
  expect(errors).toEqual([]);
});

test("the dashboard's AI Investment Assistant shows recommendations or says there are none", async ({ page }) => {
  const errors = watchConsole(page, { expected: /status of 40[13]/ });
  await registerViaApi(page.request);
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/ai/recommendations");
  await page.goto("/dashboard");
  const res = await answer;
  expect(res.status()).toBe(200);
  expect(new URL(res.url()).searchParams.get("limit")).toBe("6");

  const panel = page.locator('[data-slot="card"]', { has: page.getByRole("heading", { name: "AI Investment Assistant" }) });
  await expect(panel.getByText("Pro Feature")).toBeVisible();
  await expect(panel.getByTestId("recommendation").first().or(panel.getByText("No AI recommendations available"))).toBeVisible();
  await expect(panel.getByText("Failed to fetch AI recommendations")).toHaveCount(0);
  await expect(panel.getByText("Upgrade to Pro for AI-powered insights")).toHaveCount(0);

  const items = panel.getByTestId("recommendation");
  if ((await items.count()) > 0) {
    const why = items.first().getByRole("button", { name: /^Why/ });
    await why.click();
    await expect(why).toHaveAttribute("aria-expanded", "true");
    await expect(items.first().getByText(/Analysed by/)).toBeVisible();
  }
  expect(errors).toEqual([]);
});
