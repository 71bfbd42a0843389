#!/usr/bin/env bash
# Contract fuzzing: schemathesis against the OpenAPI document the server serves, as every kind of
# caller the API has, at least 100 examples per operation. Any server error, undocumented status,
# wrong content type or response that breaks its schema fails the run.
#
# Callers (docs/security.md, "Contract fuzzing"):
#   - signing up and in as a visitor (either would end the session of the run that sent it);
#   - the app's operations as a Free, a Pro and a Premium user's session (the Free run takes in
#     the public API and the administrators' routes too, which refuse it);
#   - the administrators' operations (/api/admin, starting and stopping automation) as an
#     administrator's session;
#   - the public API (/api/v1) with API keys of each permission (read, write, admin) of a
#     Premium user whose session is not fuzzed (the session runs change plans, and a plan
#     without write access switches write keys off).
# The server runs with scripts/fuzz/strikeline.toml, which lifts every limiter policy so the
# fuzzer reaches each operation's logic rather than its 429.
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
export STRIKELINE_CONFIG=scripts/fuzz/strikeline.toml
# Every generated Idempotency-Key made unique (scripts/fuzz/hooks.py).
export SCHEMATHESIS_HOOKS=scripts/fuzz/hooks.py
export STRIKELINE_DATA_DIR="$DATA" STRIKELINE_MARKET__HISTORY_YEARS=1 STRIKELINE_MARKET__REPLAY_DAYS=10 STRIKELINE_LOG=warn
export STRIKELINE_ADMIN_EMAILS=fuzzadmin@example.com
"$BIN" serve --port 0 >"$DATA/stdout" 2>"$LOG" &
PID=$!
for _ in $(seq 1 300); do
  grep -q "listening on" "$DATA/stdout" 2>/dev/null && break
  sleep 0.2
done
BASE=$(sed -n 's/^listening on //p' "$DATA/stdout")
[ -n "$BASE" ] || { echo "contract-fuzz: the server did not start"; cat "$LOG"; exit 1; }

# Signs up $1, confirms its address (as its owner would by the emailed link), puts it on plan $2
# and prints its session cookie.
session() {
  local cookie
  cookie=$(curl -s -D - -o /dev/null -H "Origin: $BASE" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1@example.com\",\"username\":\"$1\",\"password\":\"correct-horse\"}" \
    "$BASE/api/auth/register" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p')
  "$BIN" users confirm "$1@example.com" >/dev/null
  "$BIN" users set-plan "$1@example.com" "$2" >/dev/null
  echo "$cookie"
}
# A new API key of the session $1's user with permission $2.
api_key() {
  curl -s -H "Origin: $BASE" -H "Cookie: $1" -H 'Content-Type: application/json' \
    -d "{\"name\":\"fuzz $2\",\"permissions\":\"$2\"}" "$BASE/api/api-keys" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])'
}
FREE=$(session fuzzfree free)
PRO=$(session fuzzpro pro)
PREMIUM=$(session fuzzpremium premium)
ADMIN=$(session fuzzadmin free)
KEYS=$(session fuzzkeys premium)
KEY_READ=$(api_key "$KEYS" read)
KEY_WRITE=$(api_key "$KEYS" write)
KEY_ADMIN=$(api_key "$KEYS" admin)

status=0
# The administrators' operations: their routes, and starting and stopping automation.
ADMIN_ONLY='^/api/(admin/|automation/(start|stop)$)'
# A visitor's: signing up or in starts a new session and ends the one the request carried, so
# they are fuzzed without the runs' sessions.
VISITOR_ONLY='^/api/auth/(register|login)$'
# fuzz LABEL [schemathesis options…]: one run; its summary is kept for the report below.
fuzz() {
  local label=$1
  shift
  echo "contract-fuzz: $label, $EXAMPLES examples per operation"
  "$VENV/bin/schemathesis" run "$BASE/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$EXAMPLES" --mode positive --phases examples,coverage,fuzzing --seed 1 --no-color \
    --exclude-path /api/auth/logout --exclude-path /api/events \
    --request-timeout 60 --workers 2 -H "Origin: $BASE" "$@" | tee "$DATA/run-$label.txt" || status=1
}
# Sign-out would end the run's own session; the event stream never ends by design.
fuzz visitor --include-path-regex "$VISITOR_ONLY"
fuzz free-session -H "Cookie: $FREE" --exclude-path-regex "$VISITOR_ONLY"
for who in PRO PREMIUM; do
  fuzz "${who,,}-session" -H "Cookie: ${!who}" --exclude-path-regex "$ADMIN_ONLY|$VISITOR_ONLY|^/api/v1/"
done
fuzz admin-session -H "Cookie: $ADMIN" --include-path-regex "$ADMIN_ONLY"
for permission in READ WRITE ADMIN; do
  key=KEY_$permission
  fuzz "key-${permission,,}" -H "Authorization: Bearer ${!key}" --include-path-regex '^/api/v1/'
done

if grep -q "request failed" "$LOG"; then
  echo "contract-fuzz: the server logged failed requests:"; grep "request failed" "$LOG" | head -20; status=1
fi
exit $status
