import { auditContext, expect, registerViaApi, seriousViolations, test, THEMES } from "./fixtures";

// Issue 27, items 2 and 4, against the real server: a new account on the default profile ($100
// maximum position size) is offered ideas it can take first, or one sentence saying none fits
// and what limit would allow one, never five ideas each ending "skip it or raise the limit";
// in euros the assistant's sentences state amounts in euros, and contract terms in US dollars.

const NOTHING_FITS = "No trade idea fits your maximum position size";

for (const theme of THEMES) {
  test(`in ${theme} mode the assistant's trade ideas fit the account and speak its currency`, async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    const context = await auditContext(browser, baseURL, theme);
    await registerViaApi(context.request);
    const page = await context.newPage();
    const saved = await page.request.put("/api/user/preferences", { headers: { Origin: baseURL ?? "" }, data: { currency: "EUR" } });
    expect(saved.ok()).toBe(true);

    await page.goto("/dashboard");
    const trades = page.locator('[data-testid="recommendation"][data-kind="trade"]');
    await expect(trades.first()).toBeVisible({ timeout: 30_000 });
    const titles = await trades.locator("h4").allTextContents();
    const suggestions = await trades.locator("h4 + p + p").allTextContents();
    expect(suggestions.length).toBe(titles.length);

    // Never the old ending, and either what fits first or the one sentence, first.
    expect(suggestions.join("\n")).not.toContain("skip it or raise the limit");
    if (titles[0] === NOTHING_FITS) {
      expect(titles.filter((t) => t === NOTHING_FITS)).toHaveLength(1);
      expect(suggestions[0]).toMatch(/^A maximum position size of at least €[\d,]+\.\d\d /);
    } else {
      expect(suggestions[0]).toMatch(/^Up to \d+ contracts? \(€[\d,]+\.\d\d\) within your maximum position size of €[\d,]+\.\d\d\.$/);
    }
    // Amounts in euros; a strike in US dollars, written so ("US$"), and dates as the app writes them.
    for (const text of suggestions) expect(text).not.toMatch(/(^|[^S])\$/);
    for (const title of titles.filter((t) => t !== NOTHING_FITS)) {
      expect(title).toMatch(/ (CALL|PUT|STRADDLE) US\$[\d,]+\.\d\d · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    }
    // Risk is never "Low" for an idea that expires within three sessions (checked server-side);
    // here: every idea names its risk.
    await expect(trades.first()).toContainText(/Risk (Low|Medium|High)/);
    expect(await seriousViolations(page, "/dashboard", theme)).toEqual([]);
    await context.close();
  });
}
