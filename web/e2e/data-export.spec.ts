import { readFile } from "node:fs/promises";
import { auditContext, expect, registerViaApi, seriousViolations, test, THEMES, toastTitle, uniqueAccount } from "./fixtures";

// Issue 26, item 4: a user downloads everything Strikeline stores about them from Settings, as
// one JSON file, with their rows and none of their secrets.

for (const theme of THEMES) {
  test(`in ${theme} mode, Settings › Security downloads the user's data as JSON`, async ({ browser, baseURL }) => {
    test.setTimeout(60_000);
    const context = await auditContext(browser, baseURL, theme);
    const account = uniqueAccount();
    await registerViaApi(context.request, account);
    const page = await context.newPage();
    await page.goto("/settings?tab=security");
    const button = page.getByRole("button", { name: "Download your data" });
    await expect(button).toBeVisible();
    const download = page.waitForEvent("download");
    await button.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^strikeline-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile(await file.path(), "utf8")) as {
      email: string;
      tables: Record<string, Record<string, unknown>[]>;
    };
    expect(data.email).toBe(account.email);
    expect(data.tables.users).toHaveLength(1);
    expect(data.tables.users[0].email).toBe(account.email);
    expect(data.tables.sessions.length).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain("password_hash");
    await expect(toastTitle(page, "Data Downloaded")).toBeVisible();
    expect(await seriousViolations(page, "/settings?tab=security", theme)).toEqual([]);
    await context.close();
  });
}
