// `npm run lighthouse`: starts the real server (as `npm run e2e` does) and audits the landing
// page with Lighthouse in Debian's Chromium, fully offline (localhost only). Prints the four
// category scores and fails when any is under 95.
//
// Options: `--url /path` audits another page; `--desktop` uses Lighthouse's desktop preset
// instead of the default mobile emulation (Moto G Power, simulated slow 4G, 4× CPU slowdown);
// `--json FILE` writes the full report.
import { writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, checkPrerequisites, startServer } from "./server.mjs";

const MINIMUM = 95;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

function option(name) {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}
const target = option("--url") ?? "/";
const jsonFile = option("--json");
const desktop = process.argv.includes("--desktop");

const problems = checkPrerequisites();
if (problems.length > 0) {
  for (const p of problems) console.error(`lighthouse: ${p}`);
  process.exit(1);
}

const server = await startServer();
const profileDir = mkdtempSync(path.join(tmpdir(), "strikeline-lh-"));
let chrome;
let exitCode = 1;
try {
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_ARGS,
    userDataDir: profileDir,
    logLevel: "silent",
  });
  const url = new URL(target, server.baseURL).href;
  const result = await lighthouse(
    url,
    { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES },
    desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error("Lighthouse returned no result");
  const { lhr } = result;
  if (jsonFile) writeFileSync(jsonFile, result.report);

  console.log(`lighthouse: ${url} (${desktop ? "desktop" : "mobile"}, Lighthouse ${lhr.lighthouseVersion})`);
  let failed = 0;
  for (const id of CATEGORIES) {
    const score = Math.round((lhr.categories[id].score ?? 0) * 100);
    if (score < MINIMUM) failed += 1;
    console.log(`  ${lhr.categories[id].title.padEnd(15)} ${String(score).padStart(3)}${score < MINIMUM ? `  (under ${MINIMUM})` : ""}`);
  }
  const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];
  for (const id of metrics) {
    const audit = lhr.audits[id];
    if (audit) console.log(`  ${audit.title.padEnd(26)} ${audit.displayValue ?? ""}`);
  }
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
        console.log(`  ! ${id}: ${audit.id} (${audit.score}) ${audit.displayValue ?? ""}`);
      }
    }
  }
  exitCode = failed === 0 ? 0 : 1;
} finally {
  if (chrome) await chrome.kill();
  rmSync(profileDir, { recursive: true, force: true });
  await server.stop();
}
process.exit(exitCode);
