import type { APIRequestContext } from "@playwright/test";
import { expect, registerViaApi, test, toastTitle, uniqueAccount } from "./fixtures";

type Listed = { id: string; strategy: string; locked: boolean; onDemand?: boolean; confidence?: number; currentOptionPrice?: number };

/** Every active signal the account's plan shows, through the cursor pages. */
async function activeSignals(request: APIRequestContext): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `/api/signals?status=active&limit=200${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await request.get(query);
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { signals: Listed[]; nextCursor: string | null };
    all.push(...page.signals);
    cursor = page.nextCursor;
  } while (cursor);
  return all.filter((s) => !s.locked && !s.onDemand);
}

test("saved investment preferences decide the automated positions opened next", async ({ page, baseURL }) => {
  await registerViaApi(page.request, uniqueAccount({ firstName: "Grace", lastName: "Hopper", handle: "grace" }));

  // The strategy with the most active signals this plan shows that an aggressive account takes
  // (confidence 50 and up) and that fit a $2,000 position.
  const takeable = (await activeSignals(page.request)).filter(
    (s) => (s.confidence ?? 0) >= 50 && (s.currentOptionPrice ?? Infinity) * 100 <= 2000,
  );
  expect(takeable.length, "the replayed market has active signals").toBeGreaterThan(0);
  const counts = new Map<string, number>();
  for (const s of takeable) counts.set(s.strategy, (counts.get(s.strategy) ?? 0) + 1);
  const [chosen] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];

  await page.goto("/preferences");
  await expect(page.getByRole("heading", { level: 1, name: "Investment Preferences" })).toBeVisible();
  await page.getByLabel("Investment capital").fill("100000");
  await page.getByLabel("Max position size").fill("2000");
  await page.getByLabel("Risk tolerance").selectOption("high");
  for (const name of ["Momentum", "Mean Reversion", "Breakout", "Volatility"]) {
    const box = page.getByRole("checkbox", { name });
    if (name === chosen) await box.check();
    else await box.uncheck();
  }
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(toastTitle(page, "Preferences Updated")).toBeVisible();

  // The next automation tick (a manual update) opens positions from what the preferences take.
  const update = await page.request.post("/api/automation/update", { headers: { origin: baseURL ?? "" } });
  expect(update.status(), await update.text()).toBe(200);

  const listed = await page.request.get("/api/portfolio/positions");
  const positions = (await listed.json()) as { id: string; quantity: number; entryPrice: number }[];
  expect(positions.length).toBeGreaterThan(0);
  for (const position of positions) {
    const detail = (await (await page.request.get(`/api/portfolio/position/${position.id}`)).json()) as {
      signal: { strategy: string; confidence: number };
      totalCost: number;
    };
    expect(detail.signal.strategy).toBe(chosen);
    expect(detail.signal.confidence).toBeGreaterThanOrEqual(50);
    expect(detail.totalCost).toBeLessThanOrEqual(2000);
    expect(position.quantity).toBeGreaterThanOrEqual(1);
  }

  // And the portfolio page shows them.
  await page.goto("/portfolio");
  await expect(page.getByRole("heading", { level: 1, name: "Portfolio Analysis" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Automated Signals" })).toBeVisible();
  await expect(page.getByText("No positions found")).toHaveCount(0);
});
