import {
  answerTo,
  expect,
  noHorizontalOverflow,
  premiumPage,
  registerViaApi,
  seriousViolations,
  test,
  toastTitle,
  watchConsole,
} from "./fixtures";

// The portfolio optimiser (issue 29, item 5; docs/optimisation.md) against the real server:
// Premium runs it from the Portfolio page and sees the limits used, "A proposal only", and
// either the proposed positions or the empty state (the simulated market may or may not give a
// signal with a checked chance); no serious axe violation. With positions, "Send as orders"
// asks first, then sends them (POST /api/orders/proposal) for the current account. Pro sees it
// locked and asks nothing of /api/portfolio/optimise.

const MONEY = /^[+-]?\$[\d,]+\.\d\d/;

for (const [width, theme] of [
  [1280, "light"],
  [390, "dark"],
] as const) {
  test(`at ${width} px (${theme}), Premium runs the optimiser on the Portfolio page`, async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    const { context, page, errors } = await premiumPage(browser, baseURL, width, theme);

    await page.goto("/portfolio");
    await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
    const card = page.getByRole("region", { name: "Optimise" });
    await expect(card).toBeVisible();
    await expect(card.getByText("A proposal only: nothing is bought until you send it as orders.")).toBeVisible();
    await expect(page.getByTestId("optimiser-locked")).toHaveCount(0);

    const answered = answerTo(page, "POST", "/api/portfolio/optimise");
    await card.getByRole("button", { name: "Propose positions" }).click();
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(200);
    const body = (await answer.json()) as { positions: unknown[]; limits: { budget: number } };

    // Deterministic whatever the market gives: the limits used, with the budget in money.
    const limits = card.getByRole("region", { name: "Limits used" });
    await expect(limits).toBeVisible();
    await expect(limits.getByTestId("optimiser-budget").locator("dd")).toHaveText(MONEY);
    for (const label of ["Per position", "Per symbol", "Per strategy", "Net delta", "Net vega"]) {
      await expect(limits.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(card.getByText("A proposal only: nothing is bought until you send it as orders.")).toBeVisible();
    await expect(card.getByRole("button", { name: "Propose again" })).toBeEnabled();

    if (body.positions.length > 0) {
      const table = card.getByRole("table", { name: /Proposed positions/ });
      await expect(table.getByTestId("proposed-position")).toHaveCount(body.positions.length);
      await expect(table.getByTestId("proposed-position").first().getByRole("cell").nth(6)).toContainText(/\d+%/);
      await expect(card.getByRole("img", { name: /^Net delta: / })).toBeVisible();
    } else {
      await expect(card.getByTestId("optimiser-empty")).toContainText("Nothing to propose");
      await expect(card.getByRole("table")).toHaveCount(0);
      await expect(card.getByRole("button", { name: "Send as orders" })).toHaveCount(0);
    }
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, `portfolio optimiser ${width}`, theme)).toEqual([]);

    if (body.positions.length > 0) {
      // Sent as orders after a confirmation: one market order each, filled by the paper broker.
      const send = card.getByRole("button", { name: "Send as orders" });
      await send.click();
      const dialog = page.getByRole("alertdialog", { name: "Send the proposal as orders?" });
      await expect(dialog).toContainText("filled by the paper broker");
      await expect(dialog.getByTestId("send-summary")).toContainText(`${body.positions.length} position`);
      await noHorizontalOverflow(page, width);
      const sent = answerTo(page, "POST", "/api/orders/proposal");
      await dialog.getByRole("button", { name: "Send orders" }).click();
      const sentAnswer = await sent;
      expect(sentAnswer.status(), await sentAnswer.text()).toBe(200);
      await expect(toastTitle(page, "Orders Sent")).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(send).toBeFocused();
    }

    expect(errors).toEqual([]);
    await context.close();
  });
}

test("Pro sees the optimiser locked and makes no request to it", async ({ page }) => {
  const errors = watchConsole(page);
  const optimise: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/portfolio/optimise") optimise.push(req.url());
  });
  // A confirmed address: the 14-day Pro trial.
  await registerViaApi(page.request);
  await page.goto("/portfolio");
  await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
  const locked = page.getByTestId("optimiser-locked");
  await expect(locked).toBeVisible();
  await expect(locked).toContainText("The portfolio optimiser is part of Premium");
  await expect(locked.getByText("Premium", { exact: true })).toBeVisible();
  await expect(locked.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
  await expect(page.getByRole("button", { name: "Propose positions" })).toHaveCount(0);
  expect(optimise).toEqual([]);
  expect(errors).toEqual([]);
});
