// Starts the real Strikeline server for browser tests and screenshots:
// `$STRIKELINE_BIN serve --port 0 --data-dir <fresh temp dir>` serving web/dist.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const distDir = path.join(webDir, "dist");

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The administrator the e2e tests register to read stored form submissions (GET /api/admin/messages). */
export const ADMIN_EMAIL = "admin@example.com";

export function serverBinary() {
  return path.resolve(webDir, process.env.STRIKELINE_BIN ?? "../target/debug/strikeline");
}

/** Checks what the browser runs need before anything starts. */
export function checkPrerequisites() {
  const problems = [];
  if (!existsSync(path.join(distDir, "index.html"))) problems.push(`no built app at ${distDir} (run \`npm run build\`)`);
  if (!existsSync(serverBinary())) problems.push(`no server binary at ${serverBinary()} (build it or set STRIKELINE_BIN)`);
  if (!existsSync(CHROMIUM_PATH)) problems.push(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return problems;
}

/**
 * The server's environment for sending email by SMTP to the e2e fake mail server (e2e/mail.mjs)
 * on `smtpPort`, plain text on 127.0.0.1; the outbox is polled every second so a confirmation
 * link arrives within about a second. Empty without a port: mail stays in the outbox.
 */
export function smtpEnv(smtpPort) {
  if (!smtpPort) return {};
  return {
    STRIKELINE_EMAIL__TRANSPORT: "smtp",
    STRIKELINE_EMAIL__SMTP_HOST: "127.0.0.1",
    STRIKELINE_EMAIL__SMTP_PORT: String(smtpPort),
    STRIKELINE_EMAIL__SMTP_SECURITY: "none",
    STRIKELINE_EMAIL__FROM: "Strikeline <alerts@strikeline.test>",
    STRIKELINE_DELIVERY__POLL_SECONDS: "1",
  };
}

/**
 * Starts the server on a free port over a fresh data directory and resolves
 * with its base URL once it prints `listening on http://…`. `env` adds to (or overrides)
 * the server's environment: billing.spec.ts starts its own server with the test clock on.
 * `smtpPort` (default `STRIKELINE_E2E_SMTP_PORT`, which run.mjs sets for the specs) sends
 * the server's email to the fake mail server there.
 */
export function startServer({ timeoutMs = 60_000, env = {}, smtpPort = process.env.STRIKELINE_E2E_SMTP_PORT } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "strikeline-e2e-"));
  const child = spawn(serverBinary(), ["serve", "--port", "0", "--data-dir", dataDir], {
    cwd: dataDir,
    env: {
      ...process.env,
      STRIKELINE_WEB_DIR: distDir,
      STRIKELINE_ADMIN_EMAILS: [process.env.STRIKELINE_ADMIN_EMAILS, ADMIN_EMAIL].filter(Boolean).join(","),
      // Every spec signs up and in from 127.0.0.1: lift the per-address limits that would
      // otherwise throttle the test run itself (the limits have their own Rust tests).
      STRIKELINE_LIMITS__REGISTER__QUOTA: "10000",
      STRIKELINE_LIMITS__REGISTER__WINDOW_SECONDS: "3600",
      STRIKELINE_LIMITS__LOGIN_IP__QUOTA: "10000",
      STRIKELINE_LIMITS__LOGIN_IP__WINDOW_SECONDS: "600",
      STRIKELINE_LIMITS__CONTACT__QUOTA: "10000",
      STRIKELINE_LIMITS__CONTACT__WINDOW_SECONDS: "3600",
      STRIKELINE_LIMITS__NEWSLETTER__QUOTA: "10000",
      STRIKELINE_LIMITS__NEWSLETTER__WINDOW_SECONDS: "3600",
      // Every account confirms its address through the emailed link, from 127.0.0.1 too.
      STRIKELINE_LIMITS__ACCOUNT_LINK__QUOTA: "10000",
      STRIKELINE_LIMITS__ACCOUNT_LINK__WINDOW_SECONDS: "600",
      STRIKELINE_LIMITS__PASSWORD_RESET_IP__QUOTA: "10000",
      STRIKELINE_LIMITS__PASSWORD_RESET_IP__WINDOW_SECONDS: "3600",
      // webhooks.spec.ts delivers to a receiver on http://127.0.0.1: let webhook targets be
      // plain http and private addresses (production refuses both).
      STRIKELINE_DELIVERY__ALLOW_HTTP: "true",
      STRIKELINE_DELIVERY__ALLOW_PRIVATE: "true",
      // The last session's implied volatility only: a year's back-fill of the debug build would
      // take the cores the browser needs (docs/options.md).
      STRIKELINE_MARKET__IV_BACKFILL_SESSIONS: "1",
      ...smtpEnv(smtpPort),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });

  let output = "";
  const remember = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stderr.on("data", remember);

  const stop = () =>
    new Promise((resolve) => {
      const done = () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(killTimer);
        done();
      });
      child.kill("SIGTERM");
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop().then(() => reject(new Error(`server did not report its address within ${timeoutMs} ms\n${output}`)));
    }, timeoutMs);
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      remember(chunk);
      buffer += chunk.toString();
      const match = buffer.match(/listening on (https?:\/\/[^\s]+)/);
      if (match) {
        clearTimeout(timer);
        buffer = "";
        resolve({ baseURL: match[1].replace(/\/$/, ""), stop, output: () => output });
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (code ${code}, signal ${signal})\n${output}`));
    });
  });
}
