#!/usr/bin/env bash
# Contract fuzzing: schemathesis against the OpenAPI document the server serves, as every kind of
# caller the API has, at least 100 examples per operation. Any server error, undocumented status,
# wrong content type or response that breaks its schema fails the run.
#
# Callers (docs/security.md, "Contract fuzzing"):
#   - signing up and in as a visitor (either would end the session of the run that sent it);
#   - the app's operations as a Free, a Pro and a Premium user's session;
#   - what refuses a caller by design, as that caller (a Free user on the paid features, the
#     administrators' routes and the public API; a read key on the public API's writes), where
#     any success fails the run;
#   - the administrators' operations (/api/admin, starting and stopping automation) as an
#     administrator's session;
#   - the public API (/api/v1) with API keys of each permission (read, write, admin) of a
#     Premium user whose session is not fuzzed (the session runs change plans, and a plan
#     without write access switches write keys off).
# Before the runs each user buys its plan with the test provider's card and gets its own
# resources (scripts/fuzz/seed.py), whose ids the runs use behind every `{id}`.
# The server runs with scripts/fuzz/strikeline.toml, which lifts every limiter policy so the
# fuzzer reaches each operation's logic rather than its 429.
# Needs the debug server binary (cargo build -p strikeline-server --bin strikeline).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${STRIKELINE_BIN:-target/debug/strikeline}
VENV=target/fuzz-venv
SCHEMATHESIS_VERSION=4.32.5
EXAMPLES=${FUZZ_EXAMPLES:-100}

# The per-operation coverage table in docs/security.md is generated from this script's lists.
python3 scripts/fuzz/coverage.py --check

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
# The last session's implied volatility, no year of back-fill (docs/options.md).
export STRIKELINE_MARKET__IV_BACKFILL_SESSIONS=1
export STRIKELINE_ADMIN_EMAILS=fuzzadmin@example.com
# The seeded webhooks point at 127.0.0.1 (nothing here resolves a public name); the address
# rules have their own tests (docs/security.md).
export STRIKELINE_DELIVERY__ALLOW_HTTP=true STRIKELINE_DELIVERY__ALLOW_PRIVATE=true
"$BIN" serve --port 0 >"$DATA/stdout" 2>"$LOG" &
PID=$!
for _ in $(seq 1 300); do
  grep -q "listening on" "$DATA/stdout" 2>/dev/null && break
  sleep 0.2
done
BASE=$(sed -n 's/^listening on //p' "$DATA/stdout")
[ -n "$BASE" ] || { echo "contract-fuzz: the server did not start"; cat "$LOG"; exit 1; }

PASSWORD=correct-horse
# Signs up $1, confirms its address (as its owner would by the emailed link), puts it on plan $2
# and prints its session cookie. A paid plan is bought with the test provider's card, as a
# customer would (a subscription with a period, which the billing operations then act on, and an
# invoice to fetch); a Free user bought a month of Pro once and is back on Free.
session() {
  local cookie
  cookie=$(curl -s -D - -o /dev/null -H "Origin: $BASE" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1@example.com\",\"username\":\"$1\",\"password\":\"$PASSWORD\"}" \
    "$BASE/api/auth/register" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p')
  "$BIN" users confirm "$1@example.com" >/dev/null
  if [ "$2" = free ]; then
    python3 scripts/fuzz/seed.py buy "$BASE" "$cookie" pro >&2
    "$BIN" users set-plan "$1@example.com" free >/dev/null
  else
    python3 scripts/fuzz/seed.py buy "$BASE" "$cookie" "$2" >&2
  fi
  echo "$cookie"
}
# The resources behind each `{id}` of user $1 (session $2): schemathesis configuration for the
# runs as that user (scripts/fuzz/seed.py).
seed() {
  python3 scripts/fuzz/seed.py resources "$BASE" "$2" "$1@example.com" "$PASSWORD" "$ADMIN" >"$DATA/ids-$1.toml"
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
seed fuzzfree "$FREE"
seed fuzzpro "$PRO"
seed fuzzpremium "$PREMIUM"
seed fuzzkeys "$KEYS"

status=0
# The administrators' operations: their routes, and starting and stopping automation.
ADMIN_ONLY='^/api/(admin/|automation/(start|stop|orders)$)'
# A visitor's: signing up or in starts a new session and ends the one the request carried, so
# they are fuzzed without the runs' sessions.
VISITOR_ONLY='^/api/auth/(register|login)$'
# What the Free plan refuses (entitlements: Pro and up), the webhook endpoints a Free user
# cannot have, subscribing a browser to push notifications and setting a number for texts.
FREE_REFUSED=("GET /api/ai/recommendations" "POST /api/backtest/strategy" "POST /api/signals/generate-for-symbol"
  "POST /api/webhooks" "DELETE /api/webhooks/{id}" "GET /api/webhooks/{id}/deliveries"
  "POST /api/webhooks/{id}/enable" "POST /api/webhooks/{id}/test" "POST /api/push/subscriptions"
  "PUT /api/sms/phone")
# What only Premium reaches (the strategy builder, the reports' own brand, the optimiser): refused to Free as
# above; left out of the Pro and Premium session runs and fuzzed as the keys' Premium user, whose
# plan no fuzzed billing operation changes (the Premium session's own run cancels and changes its
# plan as it goes).
PREMIUM_ONLY=("POST /api/structures/analysis" "POST /api/structures/template" "POST /api/portfolio/structures"
  "PUT /api/reports/brand" "PUT /api/reports/brand/logo" "POST /api/portfolio/optimise"
  "POST /api/strategies/custom" "PUT /api/strategies/custom/{id}" "POST /api/strategies/custom/preview"
  "PUT /api/strategies/custom/{id}/active" "POST /api/accounts" "POST /api/orders/proposal"
  "PUT /api/accounts/{id}/broker" "GET /api/accounts/{id}/broker/reconciliation")
FREE_REFUSED+=("${PREMIUM_ONLY[@]}")
WITHOUT_PREMIUM_ONLY=() ONLY_PREMIUM_ONLY=()
for name in "${PREMIUM_ONLY[@]}"; do
  WITHOUT_PREMIUM_ONLY+=(--exclude-name "$name")
  ONLY_PREMIUM_ONLY+=(--include-name "$name")
done
# What only Premium holds: saving a multi-leg position or a report logo is Premium, so a Free or
# Pro caller has none behind these (a downgraded one keeps theirs). Left out of the Free and Pro session
# runs, fuzzed by the Premium session and the keys' Premium user, whose seeds save two each.
HELD_BY_PREMIUM=("GET /api/portfolio/structures/{id}" "DELETE /api/portfolio/structures/{id}" "GET /api/reports/brand/logo"
  "GET /api/strategies/custom/{id}" "DELETE /api/strategies/custom/{id}" "DELETE /api/accounts/{id}")
WITHOUT_HELD=()
for name in "${HELD_BY_PREMIUM[@]}"; do
  WITHOUT_HELD+=(--exclude-name "$name")
  ONLY_PREMIUM_ONLY+=(--include-name "$name")
done
# What only Pro and up hold: a browser's push subscription and a number for texts are Pro and up,
# so a Free caller has none behind these (a downgraded one keeps theirs). Left out of the Free
# session run; the Pro and Premium seeds make one each.
HELD_BY_PRO=("DELETE /api/push/subscriptions/{id}" "PUT /api/sms/preferences")
WITHOUT_HELD_BY_PRO=()
for name in "${HELD_BY_PRO[@]}"; do
  WITHOUT_HELD_BY_PRO+=(--exclude-name "$name")
done
FREE_REFUSED_ARGS=() FREE_ALLOWED_ARGS=()
for name in "${FREE_REFUSED[@]}"; do
  FREE_REFUSED_ARGS+=(--include-name "$name")
  FREE_ALLOWED_ARGS+=(--exclude-name "$name")
done
CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
# fuzz LABEL USER [schemathesis options…]: one run, with USER's resources behind the `{id}`s (no
# user: none). With FUZZ_REFUSED=1 the caller is one the operations refuse by design: every
# answer must be a refusal (the check `refused_caller_never_succeeds`, scripts/fuzz/hooks.py),
# so the warning that the caller was refused is the expected outcome and is not shown.
fuzz() {
  local label=$1 user=$2
  shift 2
  local config=() checks=$CHECKS warnings=()
  [ -n "$user" ] && config=(--config-file "$DATA/ids-$user.toml")
  if [ "${FUZZ_REFUSED:-}" = 1 ]; then
    checks+=,refused_caller_never_succeeds
    warnings=(--warnings validation_mismatch,rate_limited)
  fi
  echo "contract-fuzz: $label, $EXAMPLES examples per operation"
  "$VENV/bin/schemathesis" "${config[@]}" run "$BASE/api/openapi.json" --checks "$checks" "${warnings[@]}" \
    --max-examples "$EXAMPLES" --mode positive --phases examples,coverage,fuzzing --seed 1 --no-color \
    --exclude-path /api/auth/logout --exclude-path /api/events --exclude-path /api/billing/stripe/webhook \
    --exclude-path /api/admin/billing/run --exclude-path /api/sms/twilio/inbound \
    --request-timeout 60 --workers 2 -H "Origin: $BASE" "$@" || status=1
}
refused() {
  FUZZ_REFUSED=1
  export FUZZ_REFUSED
  fuzz "$@"
  unset FUZZ_REFUSED
}
# session_run WHO COOKIE [options…]: WHO's session run over the app's operations, in the
# background, its report kept in a file.
session_runs=()
session_run() {
  local who=$1 cookie=$2
  shift 2
  (
    fuzz "$who-session" "fuzz$who" -H "Cookie: $cookie" --exclude-path-regex "$ADMIN_ONLY|$VISITOR_ONLY|^/api/v1/" "$@"
    [ "$status" = 0 ]
  ) >"$DATA/out-$who.txt" 2>&1 &
  session_runs+=($!)
}
# Sign-out would end the run's own session; the event stream never ends by design; the Stripe
# webhook answers only with the Stripe provider (its tests run against a fake Stripe), the SMS
# provider's inbound webhook only where Twilio is configured and signs (its tests run against a
# fake Twilio), and the billing test clock only where it is switched on (moving the one clock would end the runs'
# sessions and subscriptions; its tests are the billing ones).
fuzz visitor "" --include-path-regex "$VISITOR_ONLY"
# The three session runs at once: each schemathesis is one Python process, which its interpreter
# lock keeps to one core, so one after another they left a third of the machine idle. Their
# reports are printed in order once all three have ended.
session_run free "$FREE" "${FREE_ALLOWED_ARGS[@]}" "${WITHOUT_HELD[@]}" "${WITHOUT_HELD_BY_PRO[@]}"
session_run pro "$PRO" "${WITHOUT_PREMIUM_ONLY[@]}" "${WITHOUT_HELD[@]}"
session_run premium "$PREMIUM" "${WITHOUT_PREMIUM_ONLY[@]}"
for run in "${session_runs[@]}"; do wait "$run" || status=1; done
cat "$DATA/out-free.txt" "$DATA/out-pro.txt" "$DATA/out-premium.txt"
fuzz premium-builder fuzzkeys -H "Cookie: $KEYS" "${ONLY_PREMIUM_ONLY[@]}"
refused free-refused fuzzfree -H "Cookie: $FREE" --include-path-regex "$ADMIN_ONLY|^/api/v1/" "${FREE_REFUSED_ARGS[@]}"
fuzz admin-session "" -H "Cookie: $ADMIN" --include-path-regex "$ADMIN_ONLY"
fuzz key-read fuzzkeys -H "Authorization: Bearer $KEY_READ" --include-path-regex '^/api/v1/' --include-method-regex '^GET$'
refused key-read-refused fuzzkeys -H "Authorization: Bearer $KEY_READ" --include-path-regex '^/api/v1/' --include-method-regex '^(POST|DELETE)$'
for permission in WRITE ADMIN; do
  # A run deletes every endpoint it is shown: each starts with two of its own.
  python3 scripts/fuzz/seed.py webhooks "$BASE" "$KEY_WRITE" "$DATA/ids-fuzzkeys.toml"
  key=KEY_$permission
  fuzz "key-${permission,,}" fuzzkeys -H "Authorization: Bearer ${!key}" --include-path-regex '^/api/v1/'
done

if grep -q "request failed" "$LOG"; then
  echo "contract-fuzz: the server logged failed requests:"; grep "request failed" "$LOG" | head -20; status=1
fi
exit $status
