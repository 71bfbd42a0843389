import { execFileSync } from "node:child_process";
import { expect, registerViaApi, test, uniqueAccount } from "./fixtures";

test("an API key created in the app works from curl, and stops working once deleted", async ({ page, baseURL }) => {
  await registerViaApi(page.request, uniqueAccount({ handle: "curl" }));

  // Created the way Settings › API Keys creates it.
  const created = await page.request.post("/api/api-keys", {
    data: { name: "curl", permissions: "read", expiresIn: "30" },
    headers: { origin: baseURL ?? "" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string } };

  const curl = (path: string, bearer: string) =>
    execFileSync("curl", ["-s", "-i", "--max-time", "10", "-H", `Authorization: Bearer ${bearer}`, `${baseURL}${path}`], {
      encoding: "utf8",
    });
  const answer = curl("/api/v1/signals?limit=2", key);
  const [head, body] = answer.split(/\r?\n\r?\n/, 2);
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  expect(head.toLowerCase()).toContain('ratelimit-policy: "api_hour_pro";q=1000;w=3600');
  expect(head.toLowerCase()).toContain('ratelimit-policy: "api_signals";q=100;w=60');
  const page1 = JSON.parse(body) as { signals: unknown[]; total: number; page: number; hasMore: boolean };
  expect(page1.signals.length).toBeLessThanOrEqual(2);
  expect(page1.page).toBe(1);
  expect(typeof page1.total).toBe("number");

  expect(curl("/api/v1/stats", "slk_not-a-real-key")).toMatch(/^HTTP\/1\.1 401/);
  const deleted = await page.request.delete(`/api/api-keys/${apiKey.id}`, { headers: { origin: baseURL ?? "" } });
  expect(deleted.status()).toBe(204);
  expect(curl("/api/v1/stats", key)).toMatch(/^HTTP\/1\.1 401/);
});
