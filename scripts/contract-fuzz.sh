#!/usr/bin/env bash
# Contract fuzzing: schemathesis against the OpenAPI document the server serves, signed in as
# a Free and as a Pro user, at least 100 examples per operation. Any server error, undocumented
# status, wrong content type or response that breaks its schema fails the run.
# Needs the debug server binary (cargo build -p strikeline-server --bin strikeline).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${STRIKELINE_BIN:-target/debug/strikeline}
VENV=target/fuzz-venv
SCHEMATHESIS_VERSION=4.32.5
EXAMPLES=${FUZZ_EXAMPLES:-100}

if [ ! -x "$VENV/bin/schemathesis" ] || ! "$VENV/bin/schemathesis" --version | grep -q "$SCHEMATHESIS_VERSION"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

DATA=$(mktemp -d)
LOG="$DATA/server.log"
cleanup() { [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT
export STRIKELINE_DATA_DIR="$DATA" STRIKELINE_MARKET__HISTORY_YEARS=2 STRIKELINE_MARKET__REPLAY_DAYS=10 STRIKELINE_LOG=warn
"$BIN" serve --port 0 >"$DATA/stdout" 2>"$LOG" &
PID=$!
for _ in $(seq 1 300); do
  grep -q "listening on" "$DATA/stdout" 2>/dev/null && break
  sleep 0.2
done
BASE=$(sed -n 's/^listening on //p' "$DATA/stdout")
[ -n "$BASE" ] || { echo "contract-fuzz: the server did not start"; cat "$LOG"; exit 1; }

# Signs up $1 and prints its session cookie.
session() {
  curl -s -D - -o /dev/null -H "Origin: $BASE" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1@example.com\",\"username\":\"$1\",\"password\":\"correct-horse\"}" \
    "$BASE/api/auth/register" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p'
}
PRO=$(session fuzzpro)
FREE=$(session fuzzfree)
# Both addresses confirmed (as their owners would by the emailed link), one of them on Pro.
"$BIN" users confirm fuzzpro@example.com >/dev/null
"$BIN" users confirm fuzzfree@example.com >/dev/null
"$BIN" users set-plan fuzzpro@example.com pro >/dev/null

status=0
for who in FREE PRO; do
  cookie=${!who}
  echo "contract-fuzz: $who user, $EXAMPLES examples per operation"
  # Sign-out would end the run's own session; the event stream never ends by design.
  "$VENV/bin/schemathesis" run "$BASE/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$EXAMPLES" --mode positive --phases examples,coverage,fuzzing --seed 1 --no-color \
    --exclude-path /api/auth/logout --exclude-path /api/events \
    --request-timeout 60 --workers 2 \
    -H "Cookie: $cookie" -H "Origin: $BASE" || status=1
done
if grep -q "request failed" "$LOG"; then
  echo "contract-fuzz: the server logged failed requests:"; grep "request failed" "$LOG" | head -20; status=1
fi
exit $status
