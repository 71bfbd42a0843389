#!/usr/bin/env bash
# Runs the Python peers (NumPy, TA-Lib) of the strikeline-quant benchmarks on one core.
# Installs bench/peers/requirements.txt into a venv under target/peers-venv (once).
#   bench/peers/run.sh            full sizes (as in docs/performance.md)
#   bench/peers/run.sh --quick    smaller sizes
#   bench/peers/run.sh --fixture  regenerate crates/quant/tests/fixtures/talib_reference.rs
#   bench/peers/run.sh --backtest SMA(10/30) crossover with vectorbt and backtesting.py
#                                 (requirements-backtest.txt, its own venv under target/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/target/peers-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/bench/peers/requirements.txt"
if [ "${1:-}" = "--backtest" ]; then
    shift
    bvenv="$root/target/peers-backtest-venv"
    if [ ! -x "$bvenv/bin/python" ]; then
        python3 -m venv "$bvenv"
    fi
    "$bvenv/bin/pip" install --quiet --disable-pip-version-check -r "$root/bench/peers/requirements-backtest.txt"
    exec "$bvenv/bin/python" "$root/bench/peers/sma_crossover.py" "$@"
fi
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
