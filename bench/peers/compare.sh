#!/usr/bin/env bash
# The option workloads of strikeline-quant against NumPy, side by side in one run, both
# pinned to the same core: criterion's pricing bench (scalar API and SIMD batch kernels,
# 100,000 options), then NumPy at 100,000 options and at run.sh's default sizes; prints
# each throughput and its ratio to NumPy's best.
#   bench/peers/compare.sh                 (PEERS_CPU=0 to pin to another core)
# Uses CARGO_TARGET_DIR if set, and the venv of run.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cpu="${PEERS_CPU:-1}"
pin=()
if command -v taskset > /dev/null; then pin=(taskset -c "$cpu"); fi
rust_log="$(mktemp)"
peers_log="$(mktemp)"
trap 'rm -f "$rust_log" "$peers_log"' EXIT

cd "$root"
# Build first (on every core), then measure on one.
cargo bench -p strikeline-quant --bench pricing --no-run
"${pin[@]}" cargo bench -p strikeline-quant --bench pricing -- \
    --warm-up-time 1 --measurement-time 3 --noplot | tee "$rust_log" | grep -E "thrpt|^[a-z_]+/" || true
PEERS_CPU="$cpu" bench/peers/run.sh --options-only --pricing-n 100000 --iv-n 100000 | tee "$peers_log"
PEERS_CPU="$cpu" bench/peers/run.sh --options-only | tee -a "$peers_log"

python3 - "$rust_log" "$peers_log" << 'EOF'
import re
import sys

units = {"Kelem/s": 1e-3, "Melem/s": 1.0, "Gelem/s": 1e3}
rust = {}
name = None
for line in open(sys.argv[1]):
    head = line.split()
    if head and not line[0].isspace() and "/" in head[0]:
        name = head[0]
    m = re.search(r"thrpt:\s+\[\S+ \S+ (\S+) (\S+)", line)
    if m and name:
        rust[name] = float(m.group(1)) * units[m.group(2)]

numpy = {"pricing": 0.0, "iv": 0.0}
for line in open(sys.argv[2]):
    m = re.match(r"numpy\s+(price \+ 5 greeks|implied vol \(Newton\))\s+([\d.]+) M options/s\s+\((\d+) calls(.*)\)", line)
    if m and "stats.norm" not in line:
        key = "pricing" if m.group(1).startswith("price") else "iv"
        numpy[key] = max(numpy[key], float(m.group(2)))

print()
print(f"NumPy's best: price + 5 Greeks {numpy['pricing']:.2f} M/s, implied volatility {numpy['iv']:.2f} M/s (one core)")
print(f"{'strikeline-quant (criterion)':48} {'M options/s':>12} {'× NumPy':>8}")
for bench, value in rust.items():
    peer = numpy["iv"] if bench.startswith("implied_volatility") else numpy["pricing"]
    print(f"{bench:48} {value:12.2f} {value / peer:8.2f}")
EOF
