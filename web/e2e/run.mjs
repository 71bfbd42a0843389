// `npm run e2e`: starts a fake mail server (e2e/mail.mjs) and the real server, which sends
// its email there, runs the Playwright specs against it in Debian's Chromium, stops both,
// and ends with "N passed, N failed". The specs read the mail from STRIKELINE_E2E_MAIL_URL;
// a server a spec starts itself sends to the same fake (STRIKELINE_E2E_SMTP_PORT).
import { spawn } from "node:child_process";
import path from "node:path";
import { startMailServer } from "./mail.mjs";
import { checkPrerequisites, startServer, webDir } from "./server.mjs";

const problems = checkPrerequisites();
if (problems.length > 0) {
  for (const p of problems) console.error(`e2e: ${p}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}

const mail = await startMailServer();
console.log(`e2e: fake mail server: SMTP 127.0.0.1:${mail.smtpPort}, messages at ${mail.url}/messages`);
let server;
try {
  server = await startServer({ smtpPort: mail.smtpPort });
} catch (error) {
  await mail.stop();
  throw error;
}
console.log(`e2e: server at ${server.baseURL}`);

let exitCode = 1;
try {
  exitCode = await new Promise((resolve) => {
    const cli = path.join(webDir, "node_modules", "@playwright", "test", "cli.js");
    const child = spawn(process.execPath, [cli, "test", ...process.argv.slice(2)], {
      cwd: webDir,
      stdio: "inherit",
      env: {
        ...process.env,
        STRIKELINE_BASE_URL: server.baseURL,
        STRIKELINE_E2E_MAIL_URL: mail.url,
        STRIKELINE_E2E_SMTP_PORT: String(mail.smtpPort),
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
      },
    });
    child.once("exit", (code) => resolve(code ?? 1));
  });
} finally {
  await server.stop();
  await mail.stop();
}
process.exit(exitCode);
