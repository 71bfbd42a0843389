import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
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

// PDF reports and white-label branding (issue 30, docs/reports.md) against the real server:
// Premium saves a brand in Settings › Reports, uploads a PNG logo, sees the header preview in
// it, and downloads the portfolio report from the Portfolio page, a PDF without the house
// name; Free sees the brand card locked and still downloads the portfolio, backtest and
// track-record reports in the house brand.

/** A 32 × 32 RGBA PNG (a violet disc with a white stripe, transparent corners): 229 bytes. */
const LOGO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAArElEQVR42s3XQQ6FIAwEUM7l2byyZ8CYsDCNAtPOFJq4a9K3+J9OSwHrPK7a+4qiRkNlGO9gCoQ13IWorZYgqqlUxNPwVSmId8MShG1QI6Z+8WmIXpMSMf2fVyGgB0eGQJoVCPjJZSNcbz4T4V46LERo6zEQ4bUbRVD2fgRBCx8eBD39oAhJ/EIQsgw4g5CH0BEiJQn/IVLjuK0lNwE0fIvDZIvTbIvjNOM8vwEPHvGx3m6wqQAAAABJRU5ErkJggg==",
  "base64",
);

const VIOLET = "rgb(124, 58, 237)";

/** Presses the download button `name` and resolves with the file and its bytes, the button usable again. */
async function download(page: Page, name: string, timeout = 30_000): Promise<{ file: Download; bytes: Buffer }> {
  const started = page.waitForEvent("download", { timeout });
  await page.getByRole("button", { name }).click();
  const file = await started;
  const bytes = await readFile(await file.path());
  await expect(page.getByRole("button", { name })).toBeEnabled();
  return { file, bytes };
}

/** Presses the Portfolio page's "Download report". */
async function downloadPortfolioReport(page: Page) {
  await page.goto("/portfolio");
  await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
  return download(page, "Download report");
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString("latin1") === "%PDF-";

for (const [width, theme] of [
  [1280, "light"],
  [390, "dark"],
] as const) {
  test(`at ${width} px (${theme}), Premium brands its reports and downloads the portfolio report in its brand`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const { context, page, errors } = await premiumPage(browser, baseURL, width, theme);

    await page.goto("/settings?tab=reports");
    await expect(page.getByRole("tab", { name: "Reports" })).toHaveAttribute("aria-selected", "true");
    const name = page.getByLabel("Brand name", { exact: true });
    await expect(name).toHaveValue("");
    // The logo belongs to a saved brand: not before.
    const upload = page.getByLabel("Upload logo (PNG)");
    await expect(upload).toBeDisabled();
    await expect(page.getByText(/Save your brand first/)).toBeVisible();

    await name.fill("Acme Capital");
    await page.getByLabel("Primary colour", { exact: true }).fill("#7c3aed");
    await page.getByLabel("Accent colour", { exact: true }).fill("#f59e0b");
    await page.getByLabel("Footer", { exact: true }).fill("Acme Capital LLC · 100 Main Street, Springfield · Not investment advice.");
    await expect(page.getByText("72/300 characters")).toBeVisible();
    // The preview follows the form as it is typed.
    const preview = page.getByTestId("brand-preview");
    await expect(preview.getByTestId("brand-preview-name")).toHaveText("Acme Capital");
    await expect(preview.getByTestId("brand-preview-name")).toHaveCSS("color", VIOLET);
    await expect(preview.getByTestId("brand-preview-rule")).toHaveCSS("background-color", VIOLET);
    await expect(preview.getByTestId("brand-preview-footer")).toHaveText(/^Acme Capital LLC · 100 Main Street/);
    await expect(page.getByLabel("Primary colour picker")).toHaveValue("#7c3aed");

    const saved = answerTo(page, "PUT", "/api/reports/brand");
    await page.getByRole("button", { name: "Save branding" }).click();
    expect((await saved).status()).toBe(200);
    await expect(toastTitle(page, "Branding saved")).toBeVisible();

    await expect(upload).toBeEnabled();
    const uploaded = answerTo(page, "PUT", "/api/reports/brand/logo");
    await upload.setInputFiles({ name: "acme.png", mimeType: "image/png", buffer: LOGO_PNG });
    expect((await uploaded).status()).toBe(204);
    await expect(toastTitle(page, "Logo uploaded")).toBeVisible();
    // The saved logo, read back from the server, in the logo field and in the header preview.
    const logo = page.getByRole("img", { name: "Acme Capital logo" });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(32);
    await expect.poll(() => preview.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(32);
    await expect(page.getByRole("button", { name: "Remove logo" })).toBeVisible();
    await noHorizontalOverflow(page, width);
    expect(await seriousViolations(page, `settings reports ${width}`, theme)).toEqual([]);

    // Kept by the server: a reload shows the same brand and logo.
    await page.reload();
    await expect(page.getByLabel("Brand name", { exact: true })).toHaveValue("Acme Capital");
    await expect(page.getByLabel("Primary colour", { exact: true })).toHaveValue("#7c3aed");
    await expect(page.getByRole("img", { name: "Acme Capital logo" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Reset to Strikeline branding" })).toBeVisible();

    const { file, bytes } = await downloadPortfolioReport(page);
    expect(file.suggestedFilename()).toMatch(/^portfolio-report-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(isPdf(bytes)).toBe(true);
    // White-label: the house name is nowhere in the file (docs/reports.md).
    expect(bytes.includes("Strikeline")).toBe(false);
    await noHorizontalOverflow(page, width);

    expect(errors).toEqual([]);
    await context.close();
  });
}

test("a Free account sees report branding locked, and downloads its reports in the house brand", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  // Unconfirmed: no trial, the Free plan.
  await registerViaApi(page.request, undefined, { confirm: false });
  const brandRequests: string[] = [];
  page.on("request", (req) => {
    if (req.method() !== "GET" && new URL(req.url()).pathname.startsWith("/api/reports/")) brandRequests.push(req.url());
  });

  await page.goto("/settings?tab=reports");
  const locked = page.getByTestId("report-brand-locked");
  await expect(locked).toBeVisible();
  await expect(locked).toContainText("Reports in your own brand are part of Premium");
  await expect(locked.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/pricing");
  await expect(page.getByText(/Reports can still be downloaded on every plan, in the Strikeline brand/)).toBeVisible();
  await expect(page.getByLabel("Brand name", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save branding" })).toHaveCount(0);

  const portfolio = await downloadPortfolioReport(page);
  expect(portfolio.file.suggestedFilename()).toMatch(/^portfolio-report-.*\.pdf$/);
  expect(isPdf(portfolio.bytes)).toBe(true);
  // In the house brand.
  expect(portfolio.bytes.includes("Strikeline")).toBe(true);

  // The backtest shown, as a PDF: the same request posted again.
  await page.goto("/backtest");
  await page.getByLabel("Symbols").fill("AAPL, MSFT");
  const ran = answerTo(page, "POST", "/api/backtest");
  await page.getByRole("button", { name: "Run Backtest" }).click();
  const run = await ran;
  expect(run.status(), await run.text()).toBe(200);
  await expect(page.getByTestId("overall-results")).toBeVisible({ timeout: 15_000 });
  const reported = answerTo(page, "POST", "/api/backtest/report");
  const backtest = await download(page, "Download PDF", 90_000);
  expect((await reported).request().postDataJSON()).toEqual(run.request().postDataJSON());
  expect(backtest.file.suggestedFilename()).toMatch(/^backtest-report-.*\.pdf$/);
  expect(isPdf(backtest.bytes)).toBe(true);

  // The track record, signed in.
  await page.goto("/track-record");
  await expect(page.getByRole("heading", { level: 1, name: "Track record" })).toBeVisible();
  const record = await download(page, "Download report");
  expect(record.file.suggestedFilename()).toMatch(/^track-record-report-.*\.pdf$/);
  expect(isPdf(record.bytes)).toBe(true);

  expect(brandRequests).toEqual([]);
  expect(errors).toEqual([]);
});
