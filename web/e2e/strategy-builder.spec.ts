import type { Page } from "@playwright/test";
import {
  answerTo,
  auditContext,
  buyPremium,
  expect,
  noHorizontalOverflow,
  registerViaApi,
  seriousViolations,
  test,
  toastTitle,
  watchConsole,
} from "./fixtures";

// The strategy builder (issue 28) against the real server: Premium builds an iron condor on a
// tracked stock and sees its analysis; the copied link restores the same legs in a new page;
// saved to the portfolio, it is listed there as a multi-leg position; no serious axe violation
// on either page; Pro sees it locked and asks nothing of /api/structures.

/** Each leg's instrument, side and strike, as the editor shows them. */
async function legsOf(page: Page) {
  const legs = page.getByTestId("leg");
  const out: string[] = [];
  for (let i = 0; i < (await legs.count()); i++) {
    const leg = legs.nth(i);
    out.push(
      [
        await leg.getByLabel("Instrument").inputValue(),
        await leg.getByLabel("Side").inputValue(),
        await leg.getByLabel("Strike ($)").inputValue(),
      ].join(" "),
    );
  }
  return out;
}

for (const width of [1280, 390]) {
  test(`at ${width} px, Premium builds an iron condor, sees its analysis, shares it and saves it to the portfolio`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const context = await auditContext(browser, baseURL, width === 390 ? "dark" : "light");
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const errors = watchConsole(page);
    await registerViaApi(page.request);
    await buyPremium(page.request, baseURL ?? "");

    await page.goto("/strategy-builder");
    await expect(page.getByRole("heading", { level: 1, name: "Strategy builder" })).toBeVisible();
    await expect(page.getByLabel("Symbol")).not.toHaveValue("");
    await page.getByLabel("Template", { exact: true }).selectOption({ label: "Iron condor" });
    await page.getByRole("button", { name: "Use template" }).click();
    await expect(page.getByTestId("leg")).toHaveCount(4);

    const results = page.getByTestId("analysis-results");
    await expect(results).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("payoff-chart")).toBeVisible();
    await expect(page.getByTestId("payoff-chart").getByTestId("breakeven")).toHaveCount(2);
    await expect(page.getByTestId("breakevens")).toContainText(/\$[\d,]+\.\d\d, \$[\d,]+\.\d\d/);
    await expect(page.getByTestId("net-premium")).toContainText("Net credit");
    await expect(page.getByTestId("probability-of-profit")).toContainText(/^Probability of profit\d+\.\d%/);
    await expect(page.getByTestId("max-profit")).not.toContainText("Unlimited");
    await expect(page.getByRole("table")).toBeVisible();
    await noHorizontalOverflow(page, width);

    // The address holds the position: a new page opened at it shows the same legs.
    const legs = await legsOf(page);
    await expect(page).toHaveURL(/\/strategy-builder\?s=[\w-]+/);
    const shared = page.url();
    const other = await context.newPage();
    await other.setViewportSize({ width, height: 900 });
    await other.goto(shared);
    await expect(other.getByTestId("leg")).toHaveCount(4);
    expect(await legsOf(other)).toEqual(legs);
    await expect(other.getByTestId("analysis-results")).toBeVisible({ timeout: 15_000 });

    expect(await seriousViolations(page, `strategy builder ${width}`, width === 390 ? "dark" : "light")).toEqual([]);

    // Saved to the portfolio under the server's default name ("AAPL iron condor"), then listed there.
    const symbol = await page.getByLabel("Symbol").inputValue();
    const name = `${symbol} iron condor`;
    await expect(page.getByLabel("Name (optional)")).toHaveAttribute("placeholder", name);
    const saved = answerTo(page, "POST", "/api/portfolio/structures");
    await page.getByRole("button", { name: "Save to portfolio" }).click();
    expect((await saved).status()).toBe(201);
    await expect(toastTitle(page, "Saved to your portfolio")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: `Saved to your portfolio as “${name}”.` })).toBeVisible();
    await page.getByTestId("save-to-portfolio").getByRole("link", { name: "View portfolio" }).click();
    await expect(page).toHaveURL(/\/portfolio$/);
    const card = page.getByRole("article", { name: `${name} multi-leg position` });
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText("OPEN")).toBeVisible();
    await expect(card.getByTestId("held-legs")).toContainText(/^Legs: Long 1 Put \$[\d,]+\.\d\d · Short 1 Put/);
    await expect(card.getByTestId("held-net-premium")).toContainText("Net credit");
    await expect(card.getByTestId("held-breakevens")).toContainText(/\$[\d,]+\.\d\d, \$[\d,]+\.\d\d/);
    await expect(card.getByTestId("held-probability")).toContainText(/\d+\.\d%$/);
    await expect(card.getByTestId("held-greeks")).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, `portfolio with a multi-leg position ${width}`, width === 390 ? "dark" : "light")).toEqual([]);

    expect(errors).toEqual([]);
    await context.close();
  });
}

test("Premium opens a signal's contract in the builder from the signal's detail", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await registerViaApi(page.request);
  await buyPremium(page.request, baseURL ?? "");
  await page.goto("/dashboard");
  await page
    .getByRole("button", { name: /^View Details for / })
    .first()
    .click({ timeout: 15_000 });
  const detail = page.getByTestId("signal-detail");
  const type = (await detail.getByText("Type", { exact: true }).locator("xpath=following-sibling::dd").innerText()).trim();
  const strike = (await detail.getByText("Strike Price", { exact: true }).locator("xpath=following-sibling::dd").innerText()).trim();
  await detail.getByRole("link", { name: "Open in Strategy builder" }).click();
  await expect(page).toHaveURL(/\/strategy-builder\?s=[\w-]+/);
  const expected = type === "STRADDLE" ? ["call long", "put long"] : [type === "CALL" ? "call long" : "put long"];
  await expect(page.getByTestId("leg")).toHaveCount(expected.length);
  const strikeValue = String(Number(strike.replace(/[^\d.]/g, "")));
  expect(await legsOf(page)).toEqual(expected.map((leg) => `${leg} ${strikeValue}`));
  await expect(page.getByTestId("analysis-results")).toBeVisible({ timeout: 15_000 });
  expect(errors).toEqual([]);
});

test("Pro sees the builder locked and makes no request to /api/structures", async ({ page }) => {
  const structures: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.startsWith("/api/structures")) structures.push(req.url());
  });
  await registerViaApi(page.request);
  await page.goto("/strategy-builder");
  const locked = page.getByTestId("strategy-builder-locked");
  await expect(locked).toBeVisible();
  await expect(locked.getByText("Premium", { exact: true })).toBeVisible();
  await expect(locked.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
  await expect(page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Strategy builder" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  expect(structures).toEqual([]);
});
