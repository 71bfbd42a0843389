#!/usr/bin/env bash
# Runs the Python peers (NumPy, TA-Lib) of the strikeline-quant benchmarks on one core.
# Installs bench/peers/requirements.txt into a venv under target/peers-venv (once).
#   bench/peers/run.sh            full sizes (as in docs/performance.md)
#   bench/peers/run.sh --quick    smaller sizes
#   bench/peers/run.sh --fixture  regenerate crates/quant/tests/fixtures/talib_reference.rs
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/target/peers-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/bench/peers/requirements.txt"
if [ "${1:-}" = "--fixture" ]; then
    "$venv/bin/python" "$root/bench/peers/make_talib_fixture.py" > "$root/crates/quant/tests/fixtures/talib_reference.rs"
    echo "wrote crates/quant/tests/fixtures/talib_reference.rs"
    exit 0
fi
# One core, no hidden threading; OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE slow a current NumPy.
pin=()
if command -v taskset > /dev/null; then pin=(taskset -c "${PEERS_CPU:-1}"); fi
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    "${pin[@]}" "$venv/bin/python" "$root/bench/peers/peers.py" "$@"
