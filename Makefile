# Strikeline: `make run` to use it, `make test` to check it. See README.md.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
PORT ?= 8080
# CI sets this to 1: an unreachable PostgreSQL is then a failure, not a skip.
STRIKELINE_REQUIRE_PG ?= 0
export STRIKELINE_REQUIRE_PG

.PHONY: help run build web web-deps test test-deps lint rust-test pinned-test web-test e2e e2e-and-fuzz two-instances contract-fuzz server-bin debian-deps bench bench-http api screenshots clean

help:
	@echo "make run          build (release) and serve on http://127.0.0.1:$(PORT) with SQLite under ./data"
	@echo "make test         install test needs (npm packages, chromium, haproxy, poppler-utils) and run every test"
	@echo "make build        release build of the server and the web app"
	@echo "make bench        benchmarks (criterion, side-by-side peers, American options beside QuantLib, then bench-http)"
	@echo "make bench-http   HTTP latency of the read endpoints under oha, on SQLite and PostgreSQL"
	@echo "make api          regenerate docs/openapi.json and the web's API types after an API change"
	@echo "make screenshots  refresh docs/screenshots (needs a debug build)"

web-deps:
	cd web && $(NPM) install --no-audit --no-fund --loglevel=error

web: web-deps
	cd web && $(NPM) run build

build: web
	$(CARGO) build --release --locked -p strikeline-server --bin strikeline

run: build
	@echo "Starting Strikeline at http://127.0.0.1:$(PORT)  (Ctrl-C to stop)"
	./target/release/strikeline serve --port $(PORT)

# Debian's packages the tests run: chromium (browser tests), haproxy (the two-instance
# scenario) and poppler-utils (pdftotext, pdfimages and pdfinfo read the PDF reports back).
DEBIAN_TEST_PACKAGES := chromium haproxy poppler-utils

debian-deps:
	@missing=""; for p in $(DEBIAN_TEST_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian's$$missing for the tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

test-deps: web-deps debian-deps

# The gates that run first: formatting (rustfmt, Prettier) and lints (clippy with warnings as
# errors, ESLint). `cargo fmt --all` and `cd web && npm run format` mend formatting.
lint: web-deps
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	cd web && $(NPM) run lint

HAVE_NEXTEST := $(shell $(CARGO) nextest --version >/dev/null 2>&1 && echo yes)

rust-test:
ifeq ($(HAVE_NEXTEST),yes)
	$(CARGO) nextest run --workspace --locked --no-fail-fast
else
	$(CARGO) test --workspace --locked --no-fail-fast
endif
	$(CARGO) test --workspace --locked --doc

# The server's integration tests again with the whole suite pinned to days that date-dependent
# code gets wrong (STRIKELINE_TEST_NOW, read by the test harness as every app's clock): a
# Saturday, a market holiday (Thanksgiving), the morning US daylight saving time starts, and
# 23:30 New York on a month end (already the 1st in UTC). The SQLite half is enough (every
# test that names PostgreSQL is left out: `::postgres::` halves and `postgres_` stories). The
# whole workspace is named so the features resolve as in rust-test and nothing is rebuilt
# (threads: .config/nextest.toml).
PINNED_INSTANTS ?= 2026-11-28T15:00:00Z 2026-11-26T15:00:00Z 2027-03-14T07:30:00Z 2026-12-01T04:30:00Z

pinned-test:
ifeq ($(HAVE_NEXTEST),yes)
	@for at in $(PINNED_INSTANTS); do \
	  echo "== server integration tests pinned to $$at (SQLite)"; \
	  STRIKELINE_TEST_NOW=$$at $(CARGO) nextest run --workspace --locked --no-fail-fast \
	    -E 'binary_id(strikeline-server::it) and not test(/postgres/)' || exit 1; \
	done
else
	@for at in $(PINNED_INSTANTS); do \
	  echo "== server integration tests pinned to $$at (SQLite)"; \
	  STRIKELINE_TEST_NOW=$$at $(CARGO) test --workspace --locked --no-fail-fast --test it -- --skip postgres || exit 1; \
	done
endif

# The debug server for the browser tests and the contract fuzzing: the binary the Rust tests
# built (same profile and features), so `make test` compiles the server once.
server-bin:
ifeq ($(HAVE_NEXTEST),yes)
	$(CARGO) nextest run --workspace --locked --no-run
else
	$(CARGO) test --workspace --locked --no-run
endif

# vitest's own summary is not one CI reads, so print a plain "N passed, N failed" line too.
web-test:
	mkdir -p target
	cd web && rc=0; $(NPM) run test -- --reporter=default --reporter=json --outputFile.json=../target/vitest.json || rc=$$?; \
	  node -e 'const r=require("../target/vitest.json"); console.log(`web: $${r.numPassedTests} passed, $${r.numFailedTests} failed, $${r.numPendingTests} skipped`)' || true; \
	  exit $$rc

# Build the web app and run the browser tests (e2e/run.mjs starts the debug server).
E2E_RUN = cd web && $(NPM) run build && $(NPM) run e2e

e2e: debian-deps server-bin
	$(E2E_RUN)

# Two instances over one PostgreSQL database and Redis behind HAProxy (deploy/haproxy), checked
# through the proxy: sessions, the limiter, live events, deliveries, a rolling restart, jobs.
two-instances: debian-deps server-bin
	node scripts/two-instances.mjs

# schemathesis against the served OpenAPI document, as a Free and a Pro user (docs/security.md).
contract-fuzz: server-bin
	scripts/contract-fuzz.sh

# The browser tests wait on page loads more than they compute (about half of the two cores is
# idle while they run: docs/performance.md), so the contract fuzzing runs beside them at the
# lowest CPU priority; its report is printed after theirs, and either failing fails this.
e2e-and-fuzz: debian-deps server-bin
	@mkdir -p target
	@nice -n 19 scripts/contract-fuzz.sh >target/contract-fuzz.log 2>&1 & fuzz=$$!; \
	rc=0; ( $(E2E_RUN) ) || rc=$$?; \
	frc=0; wait $$fuzz || frc=$$?; \
	echo "== contract fuzzing (ran beside the browser tests)"; cat target/contract-fuzz.log; \
	[ $$frc = 0 ] || echo "contract-fuzz: FAILED (exit $$frc)"; \
	[ $$rc = 0 ] && [ $$frc = 0 ]

test: test-deps lint rust-test pinned-test web-test e2e-and-fuzz two-instances

bench:
	$(CARGO) bench -p strikeline-quant
	$(CARGO) bench -p strikeline-engine
	$(CARGO) bench -p strikeline-market --bench chain
	$(CARGO) bench -p strikeline-sentiment
	@if [ -x bench/peers/run.sh ]; then bench/peers/run.sh && bench/peers/run.sh --backtest; fi
	bench/peers/american.sh
	$(MAKE) --no-print-directory bench-http

# Seeds a year of data, serves it from the release binary pinned to one core and loads each read
# endpoint with oha (BENCH_RPS, BENCH_SECONDS, BENCH_SCALE=small, BENCH_ENGINES; scripts/http-bench.py).
bench-http:
	$(CARGO) build --release --locked -p strikeline-server --bin strikeline
	python3 scripts/http-bench.py

api:
	UPDATE_SNAPSHOTS=1 $(CARGO) test --locked -p strikeline-server --test it openapi_snapshot
	cd web && $(NPM) run gen:api
	python3 scripts/fuzz/coverage.py --write

screenshots: debian-deps server-bin
	cd web && $(NPM) run build && $(NPM) run screenshots

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules
