#!/usr/bin/env bash
# American options: Strikeline's engine beside QuantLib's, in one run on one core
# (bench/peers/american.py; QuantLib's wheel is in requirements.txt, venv of run.sh), then the
# engine's accuracy against a 10,001-step Leisen-Reimer lattice on 5,000 random cases.
#   bench/peers/american.sh [cases]     (PEERS_CPU=0 to pin to another core)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/target/peers-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/bench/peers/requirements.txt"
pin=()
if command -v taskset > /dev/null; then pin=(taskset -c "${PEERS_CPU:-1}"); fi
cd "$root"
cargo build --release --locked -p strikeline-quant --example american_speed --example american_accuracy
target="${CARGO_TARGET_DIR:-$root/target}/release/examples"
OMP_NUM_THREADS=1 "${pin[@]}" "$venv/bin/python" bench/peers/american.py "$target/american_speed" "${1:-2000}"
"${pin[@]}" "$target/american_accuracy" 5000 10001
