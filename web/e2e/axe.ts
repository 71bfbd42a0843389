import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "@playwright/test";

// axe-core in the browser: the public-site and signed-in audits share it.

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve("axe-core/axe.min.js");

export type Theme = "light" | "dark";
export const THEMES: readonly Theme[] = ["light", "dark"];

/**
 * A browser context for an audit in `theme`. axe is injected as a script, which the app's CSP
 * rightly forbids: the context bypasses it, for the audit only.
 */
export async function auditContext(browser: Browser, baseURL: string | undefined, theme: Theme): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, colorScheme: theme, reducedMotion: "reduce", bypassCSP: true });
  await context.addInitScript((t) => window.localStorage.setItem("theme", t), theme);
  return context;
}

/**
 * The page's serious and critical axe violations as it is now, each as
 * "{label} [{theme}] {rule}: {first targets}". The context must bypass the CSP: axe is
 * injected as a script, which the app's CSP rightly forbids.
 */
export async function seriousViolations(page: Page, label: string, theme: Theme): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const results = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return (r.violations as { id: string; impact: string; nodes: { target: string[] }[] }[]).map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  return results
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${label} [${theme}] ${v.id}: ${v.targets.join(", ")}`);
}
