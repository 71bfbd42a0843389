// `npm run e2e`: starts the real server, runs the Playwright specs against it
// in Debian's Chromium, stops the server, and ends with "N passed, N failed".
import { spawn } from "node:child_process";
import path from "node:path";
import { checkPrerequisites, startServer, webDir } from "./server.mjs";

const problems = checkPrerequisites();
if (problems.length > 0) {
  for (const p of problems) console.error(`e2e: ${p}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const server = await startServer();
console.log(`e2e: server at ${server.baseURL}`);

let exitCode = 1;
try {
  exitCode = await new Promise((resolve) => {
    const cli = path.join(webDir, "node_modules", "@playwright", "test", "cli.js");
    const child = spawn(process.execPath, [cli, "test", ...process.argv.slice(2)], {
      cwd: webDir,
      stdio: "inherit",
      env: { ...process.env, STRIKELINE_BASE_URL: server.baseURL, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
    });
    child.once("exit", (code) => resolve(code ?? 1));
  });
} finally {
  await server.stop();
}
process.exit(exitCode);
