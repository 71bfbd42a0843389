#!/usr/bin/env python3
"""HTTP benchmark of the read endpoints (issue 12), on SQLite and on PostgreSQL.

For each engine: a fresh database (a temporary data dir; a database created for the run on
PostgreSQL and dropped afterwards), `strikeline seed --scale year`, then the release server
pinned to one core (`taskset -c 0`), signed in as the bench account, and oha on the other core
(`taskset -c 1`) at a fixed offered rate (open loop, latency corrected for coordinated
omission) against each endpoint in turn. Prints one table per engine and keeps oha's JSON
under $CARGO_TARGET_DIR/bench-http/.

Needs the release binary (`cargo build --release -p strikeline-server --bin strikeline`;
`make bench-http` builds it). Installs oha with cargo into $CARGO_TARGET_DIR/tools when it is
not there yet (a few minutes, once).

Environment:
  CARGO_TARGET_DIR   target directory (default: target)
  BENCH_RPS          offered rate per endpoint, requests/s (default 1000)
  BENCH_SECONDS      duration per endpoint, seconds (default 10)
  BENCH_WARMUP_SECONDS  unrecorded load at the same rate before each endpoint's measurement
                     (default 3; 0 for none)
  BENCH_CONNECTIONS  oha's connections (default 50)
  BENCH_SCALE        `year` (default) or `small`: the seed's --scale
  BENCH_ENGINES      comma-separated, of sqlite,postgres (default: both)
  BENCH_PG           PostgreSQL server, default postgres://postgres@127.0.0.1:5432
  STRIKELINE_REQUIRE_PG=1   an unreachable PostgreSQL is a failure, not a skip

The scheduler's background loop is off during the run (STRIKELINE_SCHEDULE__BACKGROUND=false)
so that no market job lands in the middle of a measurement.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or "target")
if not TARGET.is_absolute():
    TARGET = ROOT / TARGET
BIN = TARGET / "release" / "strikeline"
TOOLS = TARGET / "tools"
OHA = TOOLS / "bin" / "oha"
OHA_VERSION = "1.16.0"
OUT = TARGET / "bench-http"

RPS = int(os.environ.get("BENCH_RPS", "1000"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
WARMUP = int(os.environ.get("BENCH_WARMUP_SECONDS", "3"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SCALE = os.environ.get("BENCH_SCALE", "year")
ENGINES = [e.strip() for e in os.environ.get("BENCH_ENGINES", "sqlite,postgres").split(",") if e.strip()]
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432").rstrip("/")
REQUIRE_PG = os.environ.get("STRIKELINE_REQUIRE_PG", "0") == "1"

EMAIL = "bench@strikeline.test"
USERNAME = "bench"
PASSWORD = "bench-password-1"
START_TIMEOUT = 900  # seconds for the server to answer /readyz (first start loads history)
SEED_TIMEOUT = 1800

# (path, needs the session cookie)
ENDPOINTS = [
    ("/api/plans", False),
    ("/api/signals?limit=50", True),
    ("/api/stats", True),
    ("/api/stock-prices", True),
    ("/api/portfolio/metrics", True),
    ("/api/portfolio/positions", True),
]
ACCEPT_ENCODING = "gzip, br"


class BenchError(Exception):
    pass


def log(msg: str) -> None:
    print(f"http-bench: {msg}", file=sys.stderr, flush=True)


def on_signal(signum, _frame):
    # Turn SIGTERM/SIGHUP into an exception so that the `finally` blocks clean up.
    raise SystemExit(128 + signum)


# ---------------------------------------------------------------- tools and machine


def ensure_oha() -> None:
    if OHA.is_file() and os.access(OHA, os.X_OK):
        return
    log(f"installing oha {OHA_VERSION} into {TOOLS} (once; a few minutes)")
    # Without CARGO_TARGET_DIR cargo builds it in a temporary directory it removes afterwards.
    env = {k: v for k, v in os.environ.items() if k != "CARGO_TARGET_DIR"}
    subprocess.run(
        ["cargo", "install", "oha", "--version", OHA_VERSION, "--locked", "--root", str(TOOLS)],
        check=True, env=env,
    )


def oha_version() -> str:
    out = subprocess.run([str(OHA), "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip() or "oha (unknown version)"


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        for line in out.splitlines():
            if line.lower().startswith("model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown CPU"


def cores() -> tuple[list[str], list[str], str]:
    """taskset prefixes for the server and for oha, and a note about the pinning."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 or shutil.which("taskset") is None:
        return [], [], "not pinned (needs taskset and two CPUs)"
    server, client = cpus[0], cpus[1]
    return (["taskset", "-c", str(server)], ["taskset", "-c", str(client)],
            f"server on CPU {server}, oha on CPU {client}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- PostgreSQL


def psql(sql: str, database: str = "postgres") -> subprocess.CompletedProcess:
    url = urllib.parse.urlsplit(PG)
    return subprocess.run(
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", url.hostname or "127.0.0.1",
         "-p", str(url.port or 5432), "-U", url.username or "postgres", "-d", database, "-Atc", sql],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, **({"PGPASSWORD": url.password} if url.password else {})},
    )


def pg_available() -> str | None:
    """None when PostgreSQL answers, else why not."""
    if shutil.which("psql") is None:
        return "psql is not installed"
    try:
        res = psql("select 1")
    except subprocess.TimeoutExpired:
        return "psql timed out"
    return None if res.returncode == 0 else (res.stderr.strip() or "psql failed")


# ---------------------------------------------------------------- HTTP


def request(base: str, method: str, path: str, body: dict | None = None, cookie: str | None = None):
    """(status, headers, body bytes) without raising on 4xx/5xx."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Origin", base)
    req.add_header("Accept-Encoding", ACCEPT_ENCODING)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def session_cookie(headers) -> str | None:
    for value in headers.get_all("Set-Cookie") or []:
        pair = value.split(";", 1)[0].strip()
        if "=" in pair and pair.split("=", 1)[1]:
            return pair
    return None


# ---------------------------------------------------------------- one engine


class Server:
    def __init__(self, env: dict, workdir: Path, pin: list[str]):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        self.log_file = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            pin + [str(BIN), "serve", "--port", str(self.port)],
            env=env, cwd=workdir, stdout=self.log_file, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BenchError(f"the server exited with status {self.proc.returncode}:\n{self.log_tail()}")
            try:
                status, _, _ = request(self.base, "GET", "/readyz")
                if status == 200:
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.25)
        raise BenchError(f"the server did not answer /readyz within {START_TIMEOUT} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log_file.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(server: "Server", engine: str, database: str | None, workdir: Path) -> None:
    """Measures the steady state, not the start: waits until the server's start-up jobs (the
    daily valuation of every portfolio writes 10,000 rows on the year's data) have finished,
    i.e. it used under 3 % of a core for two seconds running, then checkpoints the database
    so those writes are not flushed in the middle of a measurement."""
    deadline = time.monotonic() + 300
    quiet = 0
    last = cpu_seconds(server.proc.pid)
    while quiet < 2 and time.monotonic() < deadline:
        time.sleep(1)
        now = cpu_seconds(server.proc.pid)
        quiet = quiet + 1 if now - last < 0.03 else 0
        last = now
    if engine == "postgres" and database is not None:
        res = psql("CHECKPOINT", database)
        if res.returncode != 0:
            log(f"CHECKPOINT failed: {res.stderr.strip()}")
    elif engine == "sqlite":
        import sqlite3
        for path in (workdir / "data").glob("*.db"):
            with sqlite3.connect(path, timeout=30) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log(f"{engine}: settled")


def has_seed_command(env: dict) -> bool:
    res = subprocess.run([str(BIN), "seed", "--help"], env=env, capture_output=True, timeout=30)
    return res.returncode == 0


def run_oha(base: str, path: str, cookie: str | None, pin: list[str], out: Path, seconds: int = SECONDS) -> dict:
    cmd = pin + [
        str(OHA), base + path,
        "-z", f"{seconds}s", "-q", str(RPS), "-c", str(CONNECTIONS),
        "--latency-correction", "--no-tui", "--output-format", "json", "-o", str(out),
        "-t", "10s",
        "-H", f"Accept-Encoding: {ACCEPT_ENCODING}",
        "--worker-threads", "1",
    ]
    if cookie:
        cmd += ["-H", f"Cookie: {cookie}"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)
    if res.returncode != 0:
        raise BenchError(f"oha failed on {path} (status {res.returncode}): {res.stderr.strip()}")
    return json.loads(out.read_text())


def summarise(path: str, result: dict, probe: tuple[int, str]) -> dict:
    summary = result.get("summary", {})
    codes = {str(k): int(v) for k, v in (result.get("statusCodeDistribution") or {}).items()}
    errors = {str(k): int(v) for k, v in (result.get("errorDistribution") or {}).items()}
    duration = float(summary.get("total") or SECONDS)
    ok = sum(n for code, n in codes.items() if code.startswith("2"))
    pct = result.get("latencyPercentiles") or {}

    def ms(key: str):
        value = pct.get(key)
        return None if value is None else value * 1000.0

    seen = ", ".join(f"{code}:{n}" for code, n in sorted(codes.items()))
    deadline = sum(n for e, n in errors.items() if "deadline" in e.lower())
    other = sum(errors.values()) - deadline
    if other:
        seen += (", " if seen else "") + f"err:{other}"
    return {
        "endpoint": f"GET {path}",
        "offered": RPS,
        "served": ok / duration if duration > 0 else 0.0,
        "ok": ok,
        "status": seen or "none",
        "errors": {e: n for e, n in errors.items() if "deadline" not in e.lower()},
        "aborted_at_deadline": deadline,
        "p50": ms("p50"),
        "p99": ms("p99"),
        "p999": ms("p99.9"),
        "size": summary.get("sizePerRequest"),
        "encoding": probe[1],
        "probe_status": probe[0],
    }


def bench_engine(engine: str, cpu: str, pin_server: list[str], pin_client: list[str], pin_note: str,
                 oha_ver: str) -> list[dict]:
    workdir = Path(tempfile.mkdtemp(prefix=f"strikeline-bench-{engine}-"))
    database = None
    server = None
    try:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("STRIKELINE_") and k not in ("DATABASE_URL", "REDIS_URL", "RUST_LOG")}
        env.update({
            "STRIKELINE_DATA_DIR": str(workdir / "data"),
            "STRIKELINE_WEB_DIR": str(ROOT / "web" / "dist"),
            "STRIKELINE_LOG": "warn",
            "STRIKELINE_SCHEDULE__BACKGROUND": "false",
        })
        if engine == "postgres":
            database = f"strikeline_bench_{os.getpid()}_{secrets.token_hex(3)}"
            res = psql(f'CREATE DATABASE "{database}"')
            if res.returncode != 0:
                database = None
                raise BenchError(f"cannot create the PostgreSQL database: {res.stderr.strip()}")
            env["DATABASE_URL"] = f"{PG}/{database}"

        seeded = has_seed_command(env)
        if seeded:
            log(f"{engine}: strikeline seed --scale {SCALE}")
            t0 = time.monotonic()
            subprocess.run([str(BIN), "seed", "--scale", SCALE], env=env, cwd=workdir, check=True,
                           timeout=SEED_TIMEOUT, stdout=subprocess.DEVNULL)
            log(f"{engine}: seeded in {time.monotonic() - t0:.1f} s")
        else:
            # Until `strikeline seed` exists: the server's own first start loads the market
            # (a year of history for `year`), and the bench account is registered over the API.
            log(f"{engine}: no `strikeline seed` in this build; falling back to the server's first start "
                "and registering the bench account over the API")
            env["STRIKELINE_MARKET__HISTORY_YEARS"] = "1"
            env["STRIKELINE_MARKET__REPLAY_DAYS"] = "10" if SCALE == "small" else "60"

        log(f"{engine}: starting the server")
        t0 = time.monotonic()
        server = Server(env, workdir, pin_server)
        server.wait_ready()
        log(f"{engine}: ready at {server.base} after {time.monotonic() - t0:.1f} s")

        if not seeded:
            status, _, body = request(server.base, "POST", "/api/auth/register",
                                      {"email": EMAIL, "username": USERNAME, "password": PASSWORD})
            if status not in (201, 409):
                raise BenchError(f"registering the bench account: {status} {body[:300]!r}")
        status, headers, body = request(server.base, "POST", "/api/auth/login",
                                        {"email": EMAIL, "password": PASSWORD})
        cookie = session_cookie(headers) if status == 200 else None
        if not cookie:
            raise BenchError(f"signing in as {EMAIL}: {status} {body[:300]!r}")

        settle(server, engine, database, workdir)

        OUT.mkdir(parents=True, exist_ok=True)
        rows = []
        for path, private in ENDPOINTS:
            use_cookie = cookie if private else None
            p_status, p_headers, _ = request(server.base, "GET", path, cookie=use_cookie)
            probe = (p_status, p_headers.get("Content-Encoding") or "identity")
            slug = path.strip("/").replace("/", "-").replace("?", "-").replace("=", "")
            out = OUT / f"{engine}-{slug}.json"
            if WARMUP > 0:
                # Unrecorded: every pooled connection prepares its statements, the engine's
                # caches fill, and the measurement sees the steady state.
                run_oha(server.base, path, use_cookie, pin_client, OUT / f"{engine}-{slug}.warmup.json", WARMUP)
            log(f"{engine}: {path} at {RPS} req/s for {SECONDS} s")
            result = run_oha(server.base, path, use_cookie, pin_client, out)
            if server.proc.poll() is not None:
                raise BenchError(f"the server died during {path}:\n{server.log_tail()}")
            rows.append(summarise(path, result, probe))

        meta = {"engine": engine, "cpu": cpu, "pinning": pin_note, "oha": oha_ver, "rps": RPS,
                "seconds": SECONDS, "connections": CONNECTIONS, "scale": SCALE,
                "seeded_by": "strikeline seed" if seeded else "server first start + API registration",
                "rows": rows}
        (OUT / f"{engine}-summary.json").write_text(json.dumps(meta, indent=2) + "\n")
        return rows
    finally:
        if server is not None:
            server.stop()
            failures = [l for l in server.log_tail(10_000).splitlines() if "request failed" in l]
            if failures:
                log(f"{engine}: the server logged {len(failures)} failed requests, e.g.:\n  " + "\n  ".join(failures[:5]))
        if database is not None:
            res = psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            if res.returncode != 0:
                log(f"could not drop the database {database}: {res.stderr.strip()}")
        shutil.rmtree(workdir, ignore_errors=True)


# ---------------------------------------------------------------- output


def fmt_ms(value) -> str:
    return "—" if value is None else (f"{value:.2f}" if value < 100 else f"{value:.0f}")


def print_table(engine: str, cpu: str, pin_note: str, oha_ver: str, rows: list[dict]) -> None:
    name = {"sqlite": "SQLite", "postgres": "PostgreSQL"}.get(engine, engine)
    print()
    print(f"== {name} — {cpu} ({pin_note}); {oha_ver}, {CONNECTIONS} connections, "
          f"{SECONDS} s per endpoint, latency corrected, scale {SCALE}")
    header = ["endpoint", "offered", "served", "status codes", "p50 ms", "p99 ms", "p99.9 ms", "size B", "enc"]
    table = [header] + [[
        r["endpoint"], str(r["offered"]), f"{r['served']:.0f}", r["status"],
        fmt_ms(r["p50"]), fmt_ms(r["p99"]), fmt_ms(r["p999"]),
        "—" if r["size"] is None else str(r["size"]), r["encoding"],
    ] for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    left = {0, 3, 8}
    for n, row in enumerate(table):
        print("  ".join(cell.ljust(widths[i]) if i in left else cell.rjust(widths[i]) for i, cell in enumerate(row)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    for r in rows:
        notes = []
        if r["errors"]:
            notes.append("errors " + ", ".join(f"{e} ×{n}" for e, n in r["errors"].items()))
        if r["aborted_at_deadline"]:
            notes.append(f"{r['aborted_at_deadline']} in flight at the deadline")
        if r["probe_status"] != 200:
            notes.append(f"a single request answered {r['probe_status']}")
        if notes:
            print(f"  {r['endpoint']}: " + "; ".join(notes))


def main() -> int:
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    if SCALE not in ("year", "small"):
        log(f"BENCH_SCALE must be `year` or `small`, not {SCALE!r}")
        return 2
    unknown = [e for e in ENGINES if e not in ("sqlite", "postgres")]
    if unknown or not ENGINES:
        log(f"BENCH_ENGINES: unknown engine(s) {unknown}; use sqlite,postgres")
        return 2
    if not BIN.is_file():
        log(f"{BIN} is missing: run `cargo build --release -p strikeline-server --bin strikeline` "
            "(or `make bench-http`)")
        return 2
    ensure_oha()
    oha_ver = oha_version()
    cpu = cpu_model()
    pin_server, pin_client, pin_note = cores()
    status = 0
    for engine in ENGINES:
        if engine == "postgres":
            why = pg_available()
            if why is not None:
                log(f"PostgreSQL at {PG} is not reachable ({why}): "
                    + ("failing (STRIKELINE_REQUIRE_PG=1)" if REQUIRE_PG else "skipping its half"))
                if REQUIRE_PG:
                    status = 1
                continue
        try:
            rows = bench_engine(engine, cpu, pin_server, pin_client, pin_note, oha_ver)
        except (BenchError, subprocess.SubprocessError, OSError, json.JSONDecodeError) as err:
            log(f"{engine}: {err}")
            status = 1
            continue
        print_table(engine, cpu, pin_note, oha_ver, rows)
        if any(r["ok"] == 0 for r in rows):
            status = 1
    print(f"\nraw oha JSON: {OUT}/", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
