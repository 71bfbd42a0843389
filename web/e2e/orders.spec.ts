import { answerTo, expect, noHorizontalOverflow, premiumPage, seriousViolations, test, toastTitle } from "./fixtures";

// Automated execution (issue 29; docs/execution.md) against the real server: a Premium user
// with room for any signal asks for an update; the automation sends an order for each signal
// their rules take, the paper broker fills it, and the Portfolio page's Orders card lists them
// filled with their fill price and commission. The account's kill switch, turned on in
// Settings › Trading accounts, stops the next update's orders; turned off, they flow again.
// The page fits the screen with no serious axe violation.

const ALL = ["Momentum", "Mean Reversion", "Breakout", "Volatility"];

for (const [width, theme] of [
  [1280, "light"],
  [390, "dark"],
] as const) {
  test(`at ${width} px (${theme}), the automation's orders fill on paper and the kill switch stops them`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const { context, page, errors } = await premiumPage(browser, baseURL, width, theme);
    const origin = { Origin: new URL(baseURL as string).origin };
    const prefs = { investmentCapital: 1_000_000, riskTolerance: "high", maxPositionSize: 100_000, preferredStrategies: ALL.join(",") };
    const saved = await page.request.patch("/api/user/preferences", { headers: origin, data: prefs });
    expect(saved.status(), await saved.text()).toBe(200);

    // The account's kill switch first: an update sends nothing.
    await page.goto("/settings?tab=accounts");
    const accounts = page.getByRole("region", { name: "Trading accounts" });
    const killSwitch = accounts.getByRole("switch", { name: /Kill switch: stop new orders/ });
    const halted = answerTo(page, "PATCH", /^\/api\/accounts\/[\w-]+$/);
    await killSwitch.click();
    expect((await halted).status()).toBe(200);
    await expect(toastTitle(page, "Orders Stopped")).toBeVisible();
    await expect(accounts.getByText("Orders stopped", { exact: true })).toBeVisible();
    // Another test's update may have reached this account before the switch (the automation
    // runs for every account): the switch stops what comes after it.
    const update = () => page.request.post("/api/automation/update", { headers: origin });
    const before = (await (await page.request.get("/api/orders")).json()) as unknown[];
    expect((await update()).status()).toBe(200);
    const after = (await (await page.request.get("/api/orders")).json()) as unknown[];
    expect(after).toEqual(before);

    // Off again: the next update sends and fills.
    const resumed = answerTo(page, "PATCH", /^\/api\/accounts\/[\w-]+$/);
    await killSwitch.click();
    expect((await resumed).status()).toBe(200);
    await expect(toastTitle(page, "Orders Resumed")).toBeVisible();
    expect((await update()).status()).toBe(200);
    const sent = (await (await page.request.get("/api/orders")).json()) as { status: string; reason?: string; fills: unknown[] }[];
    const filled = sent.filter((o) => o.status === "filled");
    expect(filled.length, "the replayed market has active signals an aggressive account takes").toBeGreaterThan(0);
    expect(filled.every((o) => o.fills.length === 1)).toBe(true);
    // The rest were refused by a limit (the capital spent), each saying why.
    expect(sent.filter((o) => o.status !== "filled").every((o) => o.status === "rejected" && (o.reason ?? "").length > 0)).toBe(true);

    await page.goto("/portfolio");
    await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
    const card = page.getByRole("heading", { name: "Orders", exact: true }).locator("xpath=ancestor::*[@data-slot='card'][1]");
    // A table from 768 px; on a phone each order stacked, its status and fill price on screen.
    const phone = width < 768;
    const orders = card.getByTestId(phone ? "order-item" : "order-row");
    await expect(orders.first()).toBeVisible();
    await expect(card.getByRole("region", { name: "Orders table" })).toBeVisible({ visible: !phone });
    await expect(card.getByRole("list", { name: "Orders" })).toBeVisible({ visible: phone });
    // Newest first, 10 a page: the refusals that came after the capital was spent can fill the
    // first pages, so the Filled chip shows the fills alone.
    await card
      .getByRole("group", { name: "Show orders" })
      .getByRole("button", { name: /^Filled/ })
      .click();
    const filledOrder = orders.filter({ has: page.getByText("Filled", { exact: true }) }).first();
    await expect(filledOrder).toBeVisible();
    await expect(orders.filter({ has: page.getByText("Rejected", { exact: true }) })).toHaveCount(0);
    if (phone) {
      await expect(filledOrder.getByText("Fill price", { exact: true })).toBeVisible();
      await expect(filledOrder.getByText("Commission", { exact: true })).toBeVisible();
    }
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, "/portfolio (orders)", theme)).toEqual([]);
    if (process.env.SHOT_DIR) {
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.SHOT_DIR}/orders-${width}-${theme}.png`, fullPage: false });
    }
    expect(errors).toEqual([]);
    await context.close();
  });
}
