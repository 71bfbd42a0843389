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

// Custom strategies (issue 29; docs/strategies.md §11) against the real server: Premium starts
// from a template, sees what the rule says today on the tracked stocks, backtests it and sees
// its figures, saves it, finds it again after a reload, edits and saves it again, switches its
// live signals on and off, and deletes it; no serious axe violation and no sideways scrolling.
// Pro sees the feature locked and asks nothing of the Premium endpoints.

type LanguageAnswer = { indicators: { name: string; label: string; kind: string }[]; maxConditions: number };
type PreviewAnswer = { firing: number; symbols: { symbol: string; triggered: boolean }[] };
type BacktestAnswer = { totalTrades: number; trades: { strategy: string }[] };

const counts = new Intl.NumberFormat("en-US");

for (const [width, theme] of [
  [1280, "light"],
  [390, "dark"],
] as const) {
  test(`at ${width} px (${theme}), Premium writes, previews, backtests, saves, edits and deletes a custom strategy`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const { context, page, errors } = await premiumPage(browser, baseURL, width, theme);

    const languageAnswer = answerTo(page, "GET", "/api/strategies/custom/language");
    await page.goto("/custom-strategies");
    await expect(page.getByRole("heading", { level: 1, name: "Custom strategies" })).toBeVisible();
    await expect(page).toHaveTitle("Custom strategies · Strikeline");
    // The builder reads the server's rule language: every indicator, under the server's label (grouped by kind).
    const language = (await (await languageAnswer).json()) as LanguageAnswer;
    await expect(page.getByText(`1 of ${language.maxConditions} comparisons`)).toBeVisible();
    const options = page.getByTestId("condition").first().getByLabel("Indicator", { exact: true }).locator("option");
    await expect(options).toHaveCount(language.indicators.length);
    expect((await options.allTextContents()).sort()).toEqual(
      language.indicators.map((i) => i.label.charAt(0).toUpperCase() + i.label.slice(1)).sort(),
    );
    const saved = page.getByTestId("saved-strategies");
    await expect(saved.getByText("No saved strategies")).toBeVisible();

    // From a template: the rule's rows, and the Today panel's answer once the edits stop.
    // The preview of the template's rule (the blank rule's may come first, if the page waited).
    const previewed = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === "/api/strategies/custom/preview" &&
        res.request().method() === "POST" &&
        (res.request().postData() ?? "").includes('"ema50"'),
    );
    await page.getByLabel("Start from a template").selectOption({ label: "Trend pullback" });
    await page.getByRole("button", { name: "Use template" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Trend pullback");
    const rows = page.getByTestId("condition");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByLabel("Indicator", { exact: true })).toHaveValue("ema20");
    await expect(rows.nth(0).getByLabel("Other indicator")).toHaveValue("ema50");
    await expect(rows.nth(1).getByLabel("Relation")).toHaveValue("below");
    const preview = await previewed;
    expect(preview.status(), await preview.text()).toBe(200);
    const answer = (await preview.json()) as PreviewAnswer;
    const today = page.getByTestId("today-panel");
    await expect(today.getByTestId("firing-count")).toHaveText(`Fires on ${answer.firing} of ${answer.symbols.length} stocks today`);
    await expect(today.getByTestId("firing-symbol")).toHaveCount(Math.min(answer.firing, 5));
    if (answer.firing > 0) {
      const first = answer.symbols.find((s) => s.triggered)!;
      await expect(today.getByTestId("firing-symbol").first()).toContainText(first.symbol);
      await expect(today.getByTestId("firing-symbol").first().getByText("Entry")).toBeVisible();
    }
    if (answer.symbols.length > answer.firing) {
      await expect(today.getByTestId("closest-symbol").first().getByTestId("judged-condition")).toHaveCount(2);
    }

    // A kind mismatch is said on the row; back to a like kind, the rule is whole again.
    await rows.nth(0).getByLabel("Other indicator").selectOption("rsi14");
    await expect(rows.nth(0).getByText("EMA(20) is a price, RSI(14) is a 0–100 reading: they cannot be compared.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Run backtest" })).toBeDisabled();
    await rows.nth(0).getByLabel("Other indicator").selectOption("ema50");

    // The backtest: progress while it runs, then its figures, equity curve and trades.
    const ran = answerTo(page, "POST", "/api/backtest");
    await page.getByRole("button", { name: "Run backtest" }).click();
    await expect(page.getByRole("progressbar", { name: "Backtest running" })).toBeVisible();
    const run = await ran;
    expect(run.status(), await run.text()).toBe(200);
    expect(run.request().postDataJSON()).toMatchObject({ customStrategy: { opens: "CALL", strike: { offset: 1 }, minDays: 21 } });
    const result = (await run.json()) as BacktestAnswer;
    const overall = page.getByTestId("overall-results");
    await expect(overall).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    const metric = (label: string) => overall.getByTestId("backtest-metric").filter({ hasText: label }).locator("dd");
    await expect(metric("Total Trades")).toHaveText(counts.format(result.totalTrades));
    await expect(metric("Win Rate")).toHaveText(/^(\d+\.\d%|—)$/);
    await expect(metric("Total P&L")).toHaveText(/^[+-]?\$[\d,]+\.\d\d$/);
    await expect(metric("Max Drawdown")).toHaveText(/%$/);
    await expect(overall.getByTestId("equity-chart")).toBeVisible();
    if (result.trades.length > 0) {
      expect(new Set(result.trades.map((t) => t.strategy))).toEqual(new Set(["Custom"]));
      await expect(overall.getByTestId("trade-row").first().getByRole("cell").nth(1)).toHaveText("Custom");
    }
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, `custom strategies ${width}`, theme)).toEqual([]);

    // Saved: in the list, and opened again after a reload.
    const created = answerTo(page, "POST", "/api/strategies/custom");
    await page.getByRole("button", { name: "Save strategy" }).click();
    expect((await created).status()).toBe(201);
    await expect(toastTitle(page, "Strategy saved.")).toBeVisible();
    await expect(page).toHaveURL(/\/custom-strategies\?id=[\w-]+$/);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Editing “Trend pullback”" })).toBeVisible();
    const item = saved.getByTestId("saved-strategy");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Trend pullback");
    await expect(item).toContainText("1 strike out of the money, 21+ days");
    await expect(item).toContainText("+60% / −40%");
    await expect(page.getByLabel("Stop loss")).toHaveValue("40");

    // Edited and saved again (PUT): the list follows. A new strategy would lose the edit: asked first.
    await page.getByLabel("Stop loss").fill("35");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "New strategy" }).click();
    const discard = page.getByRole("alertdialog", { name: "Discard changes?" });
    await expect(discard).toContainText("Your changes to “Trend pullback” are not saved: a new strategy replaces them.");
    await discard.getByRole("button", { name: "Keep editing" }).click();
    await expect(discard).toHaveCount(0);
    await expect(page.getByLabel("Stop loss")).toHaveValue("35");
    const updated = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+$/);
    await page.getByRole("button", { name: "Save changes" }).click();
    const put = await updated;
    expect(put.status(), await put.text()).toBe(200);
    expect(put.request().postDataJSON()).toMatchObject({ name: "Trend pullback", document: { exits: { stopLoss: 0.35 } } });
    await expect(item).toContainText("+60% / −35%");
    await expect(page.getByText("All changes saved.")).toBeVisible();
    await noHorizontalOverflow(page, width);

    // A custom AI strategy: a minimum model score (a score out of 100, never a chance), judged
    // in the preview and kept in the list; sent as a fraction.
    const scored = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === "/api/strategies/custom/preview" &&
        (res.request().postData() ?? "").includes('"minProbability":0.6'),
    );
    await page.getByLabel("Require a minimum model score").check();
    await expect(page.getByLabel("Minimum model score (5–95)")).toHaveValue("60");
    const scoredAnswer = (await (await scored).json()) as PreviewAnswer & { modelVersion: string | null };
    if (scoredAnswer.modelVersion === null && scoredAnswer.firing > 0) {
      await expect(today.getByText("No model ships yet, so this strategy issues no signals until one does.")).toBeVisible();
    }
    const withScore = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+$/);
    await page.getByRole("button", { name: "Save changes" }).click();
    const scoredPut = await withScore;
    expect(scoredPut.status(), await scoredPut.text()).toBe(200);
    expect(scoredPut.request().postDataJSON()).toMatchObject({ document: { minProbability: 0.6 } });
    await expect(item).toContainText("model score ≥ 60");
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, `custom AI strategy ${width}`, theme)).toEqual([]);
    if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/custom-ai-${width}-${theme}.png`, fullPage: true });

    // Live signals: switched on, automated while on, then off again (which takes the automation
    // with them); each switch shows the server's answer.
    const live = item.getByRole("switch", { name: "Live signals for Trend pullback" });
    const automate = item.getByRole("switch", { name: "Open paper positions automatically for Trend pullback" });
    await expect(live).not.toBeChecked();
    await expect(automate).toHaveCount(0);
    const flip = async (control: typeof live, body: Record<string, boolean>) => {
      const switched = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+\/active$/);
      await control.click();
      const answer = await switched;
      expect(answer.status(), await answer.text()).toBe(200);
      expect(answer.request().postDataJSON()).toEqual(body);
    };
    await flip(live, { active: true });
    await expect(live).toBeChecked();
    await flip(automate, { active: true, automate: true });
    await expect(automate).toBeChecked();
    await noHorizontalOverflow(page, width);
    if (process.env.SHOT_DIR) await saved.screenshot({ path: `${process.env.SHOT_DIR}/saved-${width}.png` });
    await flip(live, { active: false });
    await expect(live).not.toBeChecked();
    await expect(automate).toHaveCount(0);

    // Deleted after confirming: the list is empty and a new strategy starts.
    await item.getByRole("button", { name: "Delete Trend pullback" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("“Trend pullback” will be deleted for good.");
    const deleted = answerTo(page, "DELETE", /^\/api\/strategies\/custom\/[\w-]+$/);
    await dialog.getByRole("button", { name: "Delete strategy" }).click();
    expect((await deleted).status()).toBe(204);
    await expect(toastTitle(page, "Strategy deleted.")).toBeVisible();
    await expect(saved.getByText("No saved strategies")).toBeVisible();
    await expect(page.getByRole("heading", { name: "New strategy" })).toBeVisible();

    expect(errors).toEqual([]);
    await context.close();
  });
}

test("Premium switches a rule on and finds its signals on the signals page, named by the rule", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { context, page, errors } = await premiumPage(browser, baseURL, 1280, "light");
  const origin = { origin: baseURL ?? "" };
  // A rule that always holds (the builder itself is the test above): it fires on every tracked stock.
  const document = {
    version: 1,
    entry: { compare: { left: { indicator: { name: "close" } }, is: "above", right: { number: 0.01 } } },
    opens: "PUT",
    strike: { offset: 0 },
    minDays: 30,
    exits: { targetGain: 0.5, stopLoss: 0.4, maxDays: null },
  };
  const created = await page.request.post("/api/strategies/custom", { headers: origin, data: { name: "Every close", document } });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto("/custom-strategies");
  const live = page.getByRole("switch", { name: "Live signals for Every close" });
  const switched = answerTo(page, "PUT", /^\/api\/strategies\/custom\/[\w-]+\/active$/);
  await live.click();
  expect((await switched).status()).toBe(200);
  await expect(live).toBeChecked();

  // An update now (any user may ask for one) runs the issuing the scheduler runs.
  const update = await page.request.post("/api/automation/update", { headers: origin });
  expect(update.status(), await update.text()).toBe(200);

  await page.goto("/signals?strategy=Custom");
  await expect(page.getByLabel("Strategy", { exact: true })).toHaveValue("Custom");
  const cards = page.getByRole("article");
  await expect(cards.first()).toBeVisible({ timeout: 15_000 });
  await expect(cards.first()).toContainText("Every close");
  await expect(cards.first()).toContainText("PUT");
  expect(await cards.count()).toBeGreaterThan(2);
  if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/custom-signals.png` });

  expect(errors).toEqual([]);
  await context.close();
});

test("Pro sees custom strategies locked and asks nothing of the Premium endpoints", async ({ page }) => {
  const errors = watchConsole(page);
  const premiumCalls: string[] = [];
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (req.method() !== "GET" && (path.startsWith("/api/strategies/custom") || path === "/api/backtest")) premiumCalls.push(path);
  });
  // A confirmed address: the 14-day Pro trial.
  await registerViaApi(page.request);
  await page.goto("/custom-strategies");
  await expect(page.getByRole("heading", { level: 1, name: "Custom strategies" })).toBeVisible();
  const locked = page.getByTestId("custom-strategies-locked");
  await expect(locked).toBeVisible();
  await expect(locked.getByText("Premium", { exact: true })).toBeVisible();
  await expect(locked.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
  // What was saved stays listed, to read and delete: nothing yet.
  await expect(page.getByTestId("saved-strategies").getByText("No saved strategies")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Run backtest" })).toHaveCount(0);
  expect(premiumCalls).toEqual([]);
  expect(errors).toEqual([]);
});
