import type { APIRequestContext, Locator, Page } from "@playwright/test";
import {
  answerTo,
  cardWithHeading,
  dayFromToday,
  expect,
  noHorizontalOverflow,
  premiumPage,
  seriousViolations,
  test,
  toastTitle,
} from "./fixtures";

// Trading accounts (docs/accounts.md) against the real server: a Premium user keeps an MSFT
// position in Main, opens an "IRA" account in Settings › Trading accounts, switches to it from
// the header and finds an empty portfolio, adds a position there, switches back to Main from
// the header and finds Main's position again, IRA's not; the page fits the screen with no
// serious axe violation.

const manualSection = (page: Page) => cardWithHeading(page, "Your Manual Positions");

/** Adds a manual position of `symbol` to the current account through the API. */
async function addPosition(request: APIRequestContext, origin: string, symbol: string, companyName: string) {
  // A signed-in write must say it comes from the site itself (the server's CSRF check).
  const added = await request.post("/api/manual-positions", {
    headers: { Origin: origin },
    data: { symbol, companyName, type: "CALL", strikePrice: 200, expirationDate: dayFromToday(40).iso, quantity: 1, entryPrice: 4.5 },
  });
  expect(added.status(), await added.text()).toBe(201);
}

/** Switches to the account named `name` from the header's account menu. */
async function switchFromHeader(page: Page, from: string, to: string) {
  const switched = answerTo(page, "PUT", "/api/accounts/current");
  await page.getByRole("button", { name: `Trading account: ${from}` }).click();
  await page.getByRole("menuitemradio", { name: to }).click();
  expect((await switched).status()).toBe(200);
  await expect(toastTitle(page, `Switched to ${to}`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Trading account: ${to}` })).toBeVisible();
}

const article = (section: Locator, symbol: string) => section.getByRole("article", { name: `${symbol} CALL manual position` });

for (const [width, theme] of [
  [1280, "light"],
  [390, "dark"],
] as const) {
  test(`at ${width} px (${theme}), Premium opens an IRA account, switches to it and back, each with its own positions`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const { context, page, errors } = await premiumPage(browser, baseURL, width, theme);
    const origin = new URL(baseURL as string).origin;
    await addPosition(page.request, origin, "MSFT", "Microsoft Corporation");

    // Settings › Trading accounts: Main only, current.
    await page.goto("/settings?tab=accounts");
    const card = page.getByRole("region", { name: "Trading accounts" });
    await expect(card.getByTestId("account-count")).toHaveText("You hold 1 of 10 accounts.");
    const main = card.getByRole("listitem", { name: "Main" });
    await expect(main.getByText("Current")).toBeVisible();
    await expect(page.getByRole("button", { name: "Trading account: Main" })).toBeVisible();

    // Opens IRA.
    await card.getByRole("button", { name: "Open an account" }).click();
    const dialog = page.getByRole("dialog", { name: "Open an account" });
    await dialog.getByLabel("Name").fill("IRA");
    await dialog.getByLabel("Investment capital (USD)").fill("25000");
    await dialog.getByLabel("Max position size (USD)").fill("2500");
    const created = answerTo(page, "POST", "/api/accounts");
    await dialog.getByRole("button", { name: "Open account" }).click();
    expect((await created).status()).toBe(201);
    await expect(toastTitle(page, "Account Opened")).toBeVisible();
    const ira = card.getByRole("listitem", { name: "IRA" });
    // Its capital, and its cash: no fill has moved it yet.
    await expect(ira.getByText("$25,000.00")).toHaveCount(2);
    await expect(ira.getByText("Current")).toHaveCount(0);
    await expect(card.getByTestId("account-count")).toHaveText("You hold 2 of 10 accounts.");
    await noHorizontalOverflow(page, width);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/accounts-${width}-${theme}.png`, fullPage: true });
    expect(await seriousViolations(page, `trading accounts ${width}`, theme)).toEqual([]);

    // Switches to IRA from the header: its portfolio is empty.
    if (process.env.SHOT_DIR) {
      await page.getByRole("button", { name: "Trading account: Main" }).click();
      await page.screenshot({ path: `${process.env.SHOT_DIR}/switcher-${width}-${theme}.png` });
      await page.keyboard.press("Escape");
    }
    await switchFromHeader(page, "Main", "IRA");
    await expect(ira.getByText("Current")).toBeVisible();
    await page.goto("/portfolio");
    await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
    await expect(manualSection(page).getByText("No Manual Positions")).toBeVisible();
    await expect(article(manualSection(page), "MSFT")).toHaveCount(0);

    // A position added now is IRA's.
    await addPosition(page.request, origin, "AAPL", "Apple Inc.");
    await page.reload();
    await expect(article(manualSection(page), "AAPL")).toBeVisible();
    await expect(article(manualSection(page), "MSFT")).toHaveCount(0);
    await noHorizontalOverflow(page, width);

    // Back to Main from the header, on the portfolio page: Main's position, not IRA's.
    await switchFromHeader(page, "IRA", "Main");
    await expect(article(manualSection(page), "MSFT")).toBeVisible();
    await expect(article(manualSection(page), "AAPL")).toHaveCount(0);

    expect(errors).toEqual([]);
    await context.close();
  });
}
