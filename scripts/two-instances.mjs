#!/usr/bin/env node
// Two Strikeline instances over one PostgreSQL database (and Redis for the limiter) behind
// HAProxy with TLS, configured by deploy/haproxy/strikeline.cfg: issue 26, item 2. Part of
// `make test` (`make two-instances`). Everything goes through the proxy, as a user's browser
// would, and checks:
//
//   1. sign-in: a session made on one instance is honoured by the other; cookies are Secure;
//   2. the trusted hop: a forged X-Forwarded-For is kept out of the audit log;
//   3. the limiter's exact count over both instances (Redis): quota + k requests, k refused;
//   4. live events reach streams open on either instance;
//   5. outbox deliveries exactly once: price alerts fired by racing refreshes on both
//      instances reach the webhook receiver once each, signed;
//   6. a rolling restart of each instance under load: not one failed request;
//   7. scheduled jobs once per schedule across instances (from the instances' JSON logs).
//
// Prints "two-instances: N passed, N failed". Needs target/debug/strikeline (STRIKELINE_BIN),
// haproxy, openssl, psql, PostgreSQL (STRIKELINE_TEST_PG_URL) and Redis (STRIKELINE_TEST_REDIS_URL).
// Bounded: gives up after SCENARIO_SECONDS (default 420).

import { execFileSync, spawn } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startMailServer } from "../web/e2e/mail.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.resolve(
  root,
  process.env.STRIKELINE_BIN ?? "target/debug/strikeline",
);
const PG =
  process.env.STRIKELINE_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const REDIS = process.env.STRIKELINE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const BUDGET_MS = Number(process.env.SCENARIO_SECONDS ?? 420) * 1000;

/** The limiter policy counted exactly, and its quota for this run. */
const STATS_QUOTA = 7;
/** Seconds between runs of the portfolio-figures job (the one job due on any day). */
const STATS_JOB_SECONDS = 2;
/** How long a SIGTERM'd instance fails readiness before its listener closes. */
const DRAIN_SECONDS = 3;
const ALERTS = 20;
const PASSWORD = "correct-horse-42";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...args) => console.log("two-instances:", ...args);

// ---------------------------------------------------------------------------------------------
// Checks

const results = [];
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true });
    log(`PASS ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    results.push({ name, ok: false });
    log(`FAIL ${name}: ${error?.stack ?? error}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function until(what, probe, timeoutMs = 30_000, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP through the proxy (TLS, a cookie jar per browser) and directly to an instance

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

class Browser {
  constructor(base, ca) {
    this.base = base;
    this.agent = new https.Agent({ ca, keepAlive: true, maxSockets: 16 });
    this.cookies = new Map();
    this.secureCookies = [];
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** One request; resolves with `{ status, headers, text, json }`. */
  request(method, pathname, { body, headers = {} } = {}) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const cookie = this.cookieHeader();
    return new Promise((resolve, reject) => {
      const req = https.request(
        new URL(pathname, this.base),
        {
          method,
          agent: this.agent,
          timeout: 30_000,
          headers: {
            Origin: this.base,
            Accept: "application/json",
            ...(cookie ? { Cookie: cookie } : {}),
            ...(payload
              ? {
                  "Content-Type": "application/json",
                  "Content-Length": Buffer.byteLength(payload),
                }
              : {}),
            ...headers,
          },
        },
        (res) => {
          this.remember(res.headers["set-cookie"]);
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              status: res.statusCode,
              headers: res.headers,
              text,
              json: () => JSON.parse(text),
            });
          });
          res.on("error", reject);
        },
      );
      req.on("timeout", () =>
        req.destroy(new Error(`${method} ${pathname} timed out`)),
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  remember(setCookies = []) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      if (value === "" || attributes.some((a) => /^max-age=0$/i.test(a)))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
      this.secureCookies.push({
        name,
        secure: attributes.some((a) => /^secure$/i.test(a)),
      });
    }
  }

  /**
   * Opens the live-update stream; resolves once its headers arrive with `{ servedBy, events,
   * close }`, where `events` fills with the event names received.
   */
  stream() {
    const cookie = this.cookieHeader();
    return new Promise((resolve, reject) => {
      const req = https.get(new URL("/api/events", this.base), {
        agent: false,
        ca: this.agent.options.ca,
        headers: {
          Origin: this.base,
          Accept: "text/event-stream",
          Cookie: cookie,
        },
      });
      req.on("response", (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`/api/events answered ${res.statusCode}`));
          return;
        }
        const events = [];
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          buffer += chunk;
          for (const match of buffer.matchAll(/^event: (\S+)$/gm))
            events.push(match[1]);
          buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
        });
        res.on("error", () => {});
        resolve({
          servedBy: res.headers["x-served-by"],
          events,
          close: () => req.destroy(),
        });
      });
      req.on("error", reject);
    });
  }

  close() {
    this.agent.destroy();
  }
}

function direct(port, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: pathname, headers, timeout: 5_000 },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
  });
}

// ---------------------------------------------------------------------------------------------
// The parts: database, certificate, mail, webhook receiver, instances, proxy

const work = mkdtempSync(path.join(os.tmpdir(), "strikeline-two-"));
const id = randomUUID().replaceAll("-", "").slice(0, 10);
const database = `strikeline_two_${id}`;
const redisPrefix = `strikeline-two-${id}`;
const children = new Set();

function psql(sql) {
  execFileSync(
    "psql",
    [`${PG}/postgres`, "-v", "ON_ERROR_STOP=1", "-qc", sql],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

function makeCertificate() {
  const key = path.join(work, "key.pem");
  const cert = path.join(work, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  const pem = path.join(work, "proxy.pem");
  writeFileSync(pem, readFileSync(cert, "utf8") + readFileSync(key, "utf8"), {
    mode: 0o600,
  });
  return { pem, ca: readFileSync(cert) };
}

/** Receives webhooks, checks each signature (Standard Webhooks) and keeps what arrived. */
async function startReceiver() {
  const received = [];
  const secrets = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const messageId = req.headers["webhook-id"];
      const signed = `${messageId}.${req.headers["webhook-timestamp"]}.${body}`;
      const signatures = String(req.headers["webhook-signature"] ?? "").split(
        " ",
      );
      const valid = secrets.some((secret) => {
        const mac = createHmac(
          "sha256",
          Buffer.from(secret.replace(/^whsec_/, ""), "base64"),
        )
          .update(signed)
          .digest("base64");
        return signatures.includes(`v1,${mac}`);
      });
      received.push({ messageId, valid, payload: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    received,
    secrets,
    stop: () => server.close(),
  };
}

/** One `strikeline serve` process; its JSON log lines are kept for the job check. */
class Instance {
  constructor(name, port, env) {
    Object.assign(this, { name, port, env, lines: [], runs: 0 });
  }

  start() {
    this.runs += 1;
    const logFile = path.join(work, `${this.name}-${this.runs}.log`);
    const child = spawn(BIN, ["--log-format", "json", "serve"], {
      env: {
        ...process.env,
        ...this.env,
        STRIKELINE_PORT: String(this.port),
        STRIKELINE_DATA_DIR: path.join(work, this.name),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.add(child);
    const lines = this.lines;
    let partial = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      writeFileSync(logFile, chunk, { flag: "a" });
      partial += chunk;
      const complete = partial.split("\n");
      partial = complete.pop();
      for (const line of complete)
        lines.push({ process: `${this.name}${this.runs}`, line });
    });
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    this.exited.then(() => children.delete(child));
    this.child = child;
  }

  async ready(timeoutMs = 240_000) {
    const died = this.exited.then(({ code, signal }) => {
      throw new Error(
        `${this.name} exited with ${code ?? signal} before it was ready (log in ${work})`,
      );
    });
    const ready = until(
      `${this.name} to be ready`,
      async () => (await direct(this.port, "/readyz")).status === 200,
      timeoutMs,
      250,
    );
    await Promise.race([ready, died]);
    died.catch(() => {});
  }

  async stop() {
    this.child.kill("SIGTERM");
    const { code, signal } = await this.exited;
    assert(
      code === 0,
      `${this.name} exited with ${code ?? signal} after SIGTERM`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  for (const tool of ["haproxy", "openssl", "psql"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      throw new Error(
        `${tool} is not installed (make test-deps installs haproxy)`,
      );
    }
  }
  assert(
    existsSync(BIN),
    `no server binary at ${BIN} (make server-bin, or set STRIKELINE_BIN)`,
  );
  psql(`CREATE DATABASE ${database}`);
  const { pem, ca } = makeCertificate();
  const mail = await startMailServer();
  const receiver = await startReceiver();
  const [portA, portB, proxyPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const base = `https://127.0.0.1:${proxyPort}`;
  const env = {
    DATABASE_URL: `${PG}/${database}`,
    REDIS_URL: REDIS,
    STRIKELINE_REDIS_PREFIX: redisPrefix,
    STRIKELINE_HOST: "127.0.0.1",
    STRIKELINE_PUBLIC_URL: base,
    STRIKELINE_PROXY_HOPS: "1",
    STRIKELINE_DRAIN_SECONDS: String(DRAIN_SECONDS),
    STRIKELINE_WEB_DIR: path.join(root, "web", "dist"),
    STRIKELINE_LOG: "info",
    // A short history keeps the first start quick on a debug build.
    STRIKELINE_MARKET__HISTORY_YEARS: "1",
    STRIKELINE_MARKET__IV_BACKFILL_SESSIONS: "1",
    STRIKELINE_MARKET__REPLAY_DAYS: "5",
    STRIKELINE_SCHEDULE__TICK_SECONDS: "1",
    STRIKELINE_SCHEDULE__PORTFOLIO_STATS_SECONDS: String(STATS_JOB_SECONDS),
    STRIKELINE_LIMITS__STATS_UPDATE__QUOTA: String(STATS_QUOTA),
    STRIKELINE_LIMITS__STATS_UPDATE__WINDOW_SECONDS: "3600",
    STRIKELINE_LIMITS__PRICE_UPDATE__QUOTA: "1000",
    STRIKELINE_LIMITS__PRICE_UPDATE__WINDOW_SECONDS: "60",
    STRIKELINE_DELIVERY__POLL_SECONDS: "1",
    STRIKELINE_DELIVERY__ALLOW_HTTP: "true",
    STRIKELINE_DELIVERY__ALLOW_PRIVATE: "true",
    STRIKELINE_EMAIL__TRANSPORT: "smtp",
    STRIKELINE_EMAIL__SMTP_HOST: "127.0.0.1",
    STRIKELINE_EMAIL__SMTP_PORT: String(mail.smtpPort),
    STRIKELINE_EMAIL__SMTP_SECURITY: "none",
  };
  const a = new Instance("a", portA, env);
  const b = new Instance("b", portB, env);
  const instances = { a, b };
  let proxy;
  const cleanup = async () => {
    proxy?.kill("SIGKILL");
    for (const child of children) child.kill("SIGKILL");
    await sleep(300);
    receiver.stop();
    await mail.stop();
  };
  try {
    // Both at once, as a deployment starts them: first-start work is done once (faults.rs).
    const started = Date.now();
    a.start();
    b.start();
    await Promise.all([a.ready(), b.ready()]);
    log(`both instances ready in ${Date.now() - started} ms`);
    proxy = spawn(
      "haproxy",
      ["-db", "-f", path.join(root, "deploy", "haproxy", "strikeline.cfg")],
      {
        env: {
          ...process.env,
          STRIKELINE_PROXY_BIND: `127.0.0.1:${proxyPort}`,
          STRIKELINE_PROXY_CERT: pem,
          STRIKELINE_INSTANCE_A: `127.0.0.1:${portA}`,
          STRIKELINE_INSTANCE_B: `127.0.0.1:${portB}`,
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    proxy.stderr.on("data", (chunk) =>
      writeFileSync(path.join(work, "haproxy.log"), chunk, { flag: "a" }),
    );
    const visitor = new Browser(base, ca);
    const seen = new Set();
    await until("the proxy to route to both instances", async () => {
      const res = await visitor.request("GET", "/readyz");
      if (res.status === 200) seen.add(res.headers["x-served-by"]);
      return seen.has("a") && seen.has("b");
    });

    const ada = new Browser(base, ca);
    const email = `ada.${id}@example.com`;
    await check(
      "sign-in on one instance is a session on both, with Secure cookies over the proxy's TLS",
      async () => {
        const since = Date.now();
        const account = {
          firstName: "Ada",
          lastName: "Lovelace",
          email,
          username: `ada_${id}`,
          password: PASSWORD,
        };
        const registered = await ada.request("POST", "/api/auth/register", {
          body: account,
        });
        assert(
          registered.status === 201,
          `register answered ${registered.status}: ${registered.text}`,
        );
        const message = await until("the confirmation mail", async () =>
          mail.messages.find(
            (m) =>
              m.receivedAt >= since &&
              m.to.includes(email) &&
              /\/verify-email\?token=/.test(m.text),
          ),
        );
        const token = message.text.match(/\/verify-email\?token=([^\s&]+)/)[1];
        const verified = await ada.request("POST", "/api/auth/verify-email", {
          body: { token },
        });
        assert(
          verified.status === 200,
          `verify-email answered ${verified.status}: ${verified.text}`,
        );
        const servers = new Set();
        for (let i = 0; i < 6; i += 1) {
          const me = await ada.request("GET", "/api/auth/me");
          assert(
            me.status === 200,
            `/api/auth/me answered ${me.status} on ${me.headers["x-served-by"]}`,
          );
          assert(me.json().email === email, "the session is Ada's");
          servers.add(me.headers["x-served-by"]);
        }
        assert(
          servers.size === 2,
          `the session was read by ${[...servers]} only`,
        );
        assert(
          ada.secureCookies.length > 0 &&
            ada.secureCookies.every((c) => c.secure),
          `cookies not all Secure: ${JSON.stringify(ada.secureCookies)}`,
        );
        assert(
          ada.secureCookies.some((c) => c.name.startsWith("__Host-")),
          "the session cookie is a __Host- cookie",
        );
      },
    );

    await check(
      "the trusted hop: a forged X-Forwarded-For does not reach the audit log",
      async () => {
        const other = new Browser(base, ca);
        const login = await other.request("POST", "/api/auth/login", {
          body: { email, password: PASSWORD },
          headers: { "X-Forwarded-For": "203.0.113.9" },
        });
        assert(
          login.status === 200,
          `login answered ${login.status}: ${login.text}`,
        );
        const audit = (await other.request("GET", "/api/user/audit")).json();
        const signIn = audit.find((entry) => entry.action === "sign_in");
        assert(signIn, `no sign_in in the audit log: ${JSON.stringify(audit)}`);
        assert(
          signIn.ip === "127.0.0.1",
          `the audit log recorded ${signIn.ip}, not the address the proxy saw`,
        );
        other.close();
      },
    );

    await check(
      `the limiter counts exactly across instances: ${STATS_QUOTA} of ${STATS_QUOTA + 3} admitted`,
      async () => {
        const answers = await Promise.all(
          Array.from({ length: STATS_QUOTA + 3 }, () =>
            ada.request("POST", "/api/update-stats"),
          ),
        );
        const admitted = answers.filter((r) => r.status === 200);
        const refused = answers.filter((r) => r.status === 429);
        assert(
          admitted.length === STATS_QUOTA && refused.length === 3,
          `statuses ${answers.map((r) => r.status)}`,
        );
        assert(
          new Set(answers.map((r) => r.headers["x-served-by"])).size === 2,
          "both instances answered",
        );
        for (const r of refused) {
          assert(
            r.headers["content-type"] === "application/problem+json" &&
              Number(r.headers["retry-after"]) > 0,
            "a refusal is a problem with Retry-After",
          );
        }
        const keys = execFileSync(
          "redis-cli",
          ["-u", REDIS, "--scan", "--pattern", `${redisPrefix}*`],
          { encoding: "utf8" },
        ).trim();
        assert(
          keys.length > 0,
          "the buckets are in Redis under the deployment's prefix",
        );
      },
    );

    await check(
      `live events reach both instances' streams; ${ALERTS} alerts fired by racing refreshes are delivered once each`,
      async () => {
        const hook = await ada.request("POST", "/api/webhooks", {
          body: { eventType: "price_alert", url: receiver.url },
        });
        assert(
          hook.status === 201,
          `webhook create answered ${hook.status}: ${hook.text}`,
        );
        receiver.secrets.push(hook.json().secret);
        const stocks = (await ada.request("GET", "/api/stock-prices")).json();
        assert(
          stocks.length >= ALERTS,
          `${stocks.length} stocks on the watchlist`,
        );
        const alertIds = new Set();
        for (const stock of stocks.slice(0, ALERTS)) {
          const alert = await ada.request("POST", "/api/price-alerts", {
            body: { symbol: stock.symbol, direction: "above", targetPrice: 1 },
          });
          assert(
            alert.status === 201,
            `price alert answered ${alert.status}: ${alert.text}`,
          );
          alertIds.add(alert.json().id);
        }
        // One stream on each instance (round robin alternates; at most five per account).
        const streams = [];
        while (!(
          streams.some((s) => s.servedBy === "a") &&
          streams.some((s) => s.servedBy === "b")
        )) {
          assert(
            streams.length < 5,
            `streams all on ${streams.map((s) => s.servedBy)}`,
          );
          streams.push(await ada.stream());
        }
        await sleep(500);
        const refreshes = await Promise.all(
          Array.from({ length: 4 }, () =>
            ada.request("POST", "/api/update-stock-prices"),
          ),
        );
        assert(
          refreshes.every((r) => r.status === 200),
          `refreshes answered ${refreshes.map((r) => r.status)}`,
        );
        assert(
          new Set(refreshes.map((r) => r.headers["x-served-by"])).size === 2,
          "the refreshes ran on both instances",
        );
        await until(
          "an alerts event on every stream",
          async () => streams.every((s) => s.events.includes("alerts")),
          10_000,
        );
        streams.forEach((s) => s.close());
        await until(
          `${ALERTS} deliveries`,
          async () => receiver.received.length >= ALERTS,
          30_000,
        );
        await sleep(3_000); // a second delivery of any message would arrive by now
        const ids = receiver.received.map((r) => r.messageId);
        assert(
          receiver.received.length === ALERTS,
          `${receiver.received.length} deliveries for ${ALERTS} alerts`,
        );
        assert(new Set(ids).size === ALERTS, "every message delivered once");
        assert(
          receiver.received.every((r) => r.valid),
          "every delivery is signed with the endpoint's secret",
        );
        const delivered = new Set(
          receiver.received.map((r) => r.payload.data.alertId),
        );
        assert(
          [...alertIds].every((alertId) => delivered.has(alertId)),
          "every alert's message arrived",
        );
      },
    );

    await check(
      "a rolling restart of each instance under load fails not one request",
      async () => {
        const outcome = { total: 0, failures: [], servedAfter: { a: 0, b: 0 } };
        const restarted = { a: false, b: false };
        let running = true;
        const worker = async (n) => {
          for (let i = 0; running; i += 1) {
            const [method, pathname, headers] = [
              ["GET", "/api/auth/me", {}],
              ["GET", "/api/stock-prices", {}],
              [
                "POST",
                "/api/notifications/read-all",
                { "Idempotency-Key": randomUUID() },
              ],
              // A write the proxy may not repeat (no Idempotency-Key): only the drain keeps it whole.
              ["POST", "/api/notifications/read-all", {}],
            ][(n + i) % 4];
            try {
              const res = await ada.request(method, pathname, { headers });
              outcome.total += 1;
              if (res.status >= 300)
                outcome.failures.push(
                  `${method} ${pathname}: ${res.status} ${res.text.slice(0, 200)}`,
                );
              const by = res.headers["x-served-by"];
              if (restarted[by]) outcome.servedAfter[by] += 1;
            } catch (error) {
              outcome.total += 1;
              outcome.failures.push(`${method} ${pathname}: ${error.message}`);
            }
          }
        };
        const load = Array.from({ length: 6 }, (_, n) => worker(n));
        await sleep(1_500);
        for (const name of ["a", "b"]) {
          const instance = instances[name];
          const began = Date.now();
          await instance.stop();
          instance.start();
          await instance.ready();
          restarted[name] = true;
          await until(
            `the proxy to send requests to ${name} again`,
            async () => outcome.servedAfter[name] > 0,
            20_000,
          );
          log(`restarted ${name} in ${Date.now() - began} ms`);
        }
        await sleep(1_000);
        running = false;
        await Promise.all(load);
        log(
          `rolling restart: ${outcome.total} requests, ${outcome.failures.length} failed`,
        );
        assert(
          outcome.failures.length === 0,
          `failed requests:\n${outcome.failures.slice(0, 10).join("\n")}`,
        );
        assert(
          outcome.total > 100,
          `only ${outcome.total} requests in the restart`,
        );
      },
    );

    await check(
      `scheduled jobs ran once per schedule across instances (${STATS_JOB_SECONDS} s apart, never twice)`,
      async () => {
        const jobRuns = () => {
          const runs = [];
          for (const instance of [a, b]) {
            for (const { process: proc, line } of instance.lines) {
              if (
                !line.includes("automation ran") ||
                !line.includes("PortfolioStats")
              )
                continue;
              runs.push({ proc, at: Date.parse(JSON.parse(line).timestamp) });
            }
          }
          return runs;
        };
        // The holder's successor takes the lease on its next tick and runs the job when it is due.
        const runs = await until(
          "a dozen runs, by more than one process",
          async () => {
            const runs = jobRuns();
            return (
              runs.length >= 12 &&
              new Set(runs.map((r) => r.proc)).size >= 2 &&
              runs
            );
          },
          30_000,
          500,
        ).catch(() => jobRuns());
        runs.sort((x, y) => x.at - y.at);
        const order = runs.map((r) => r.proc);
        const handovers = order.filter(
          (proc, i) => i > 0 && proc !== order[i - 1],
        ).length;
        const gaps = runs.slice(1).map((r, i) => r.at - runs[i].at);
        log(
          `PortfolioStats ran ${runs.length} times: ${order.join(" ")}; shortest gap ${Math.min(...gaps)} ms`,
        );
        assert(runs.length >= 12, `the job ran ${runs.length} times`);
        // One holder at a time: the runs pass from one process to another only when the holder
        // stops (twice in the rolling restart), never back and forth between live instances.
        assert(
          handovers >= 1 && handovers <= 2,
          `${handovers} changes of the process running the job: ${order.join(" ")}`,
        );
        // Two instances running one slot would log within a run's duration of each other.
        assert(
          gaps.every((gap) => gap >= (STATS_JOB_SECONDS - 1) * 1000),
          `runs too close: ${gaps}`,
        );
      },
    );
    ada.close();
    visitor.close();
  } finally {
    await cleanup();
  }
}

const timer = setTimeout(() => {
  log(`gave up after ${BUDGET_MS / 1000} s`);
  for (const child of children) child.kill("SIGKILL");
  console.log("two-instances: 0 passed, 1 failed");
  process.exit(1);
}, BUDGET_MS);

let code = 1;
try {
  await main();
  code = results.length > 0 && results.every((r) => r.ok) ? 0 : 1;
} catch (error) {
  log(`could not run: ${error?.stack ?? error}`);
  results.push({ name: "setup", ok: false });
} finally {
  clearTimeout(timer);
  try {
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } catch {
    log(`could not drop ${database}`);
  }
  try {
    const keys = execFileSync(
      "redis-cli",
      ["-u", REDIS, "--scan", "--pattern", `${redisPrefix}*`],
      { encoding: "utf8" },
    )
      .split("\n")
      .filter(Boolean);
    if (keys.length > 0)
      execFileSync("redis-cli", ["-u", REDIS, "DEL", ...keys], {
        stdio: "ignore",
      });
  } catch {
    // Redis keys expire by themselves.
  }
  if (code === 0) rmSync(work, { recursive: true, force: true });
  else log(`logs kept in ${work}`);
}
const passed = results.filter((r) => r.ok).length;
console.log(
  `two-instances: ${passed} passed, ${results.length - passed} failed`,
);
process.exit(code);
