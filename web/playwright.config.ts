import { defineConfig, devices } from "@playwright/test";

// Started by e2e/run.mjs, which launches the real server and sets STRIKELINE_BASE_URL.
const baseURL = process.env.STRIKELINE_BASE_URL ?? "http://127.0.0.1:8080";

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "./test-results",
  fullyParallel: false,
  // Two workers, one spec file each at a time (docs/performance.md, "The test suite"): one
  // worker left the browser waiting on page loads while the contract fuzzing beside it took
  // the cores; two finished the browser tests in 6.6 minutes instead of 10.5.
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["./e2e/count-reporter.mjs"]],
  use: {
    baseURL,
    // Recording a trace of every test (to keep the failed ones') cost a seventh of the browser
    // tests' time on 2 cores (docs/performance.md); `npm run e2e -- --trace on` records them
    // when a failure needs one. A failed test still leaves its screenshot.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
});
