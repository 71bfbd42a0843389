"""Peers of the strikeline-engine SMA crossover benchmark (crates/engine/benches/backtest.rs,
`backtest/sma_crossover_100_symbols`): the same long-only SMA(10/30) stock crossover on
the same 100 synthetic symbols x 2,520 daily bars, with vectorbt and with backtesting.py.
Prints bars per second; docs/performance.md sets them beside the criterion figure.

The series are regenerated here with the Rust bench's own generator (64-bit LCG +
Box-Muller, geometric Brownian motion), so every implementation reads identical closes and
the trade counts can be compared.

Setup (once; bench/peers/.venv is git-ignored):
    python3 -m venv bench/peers/.venv
    bench/peers/.venv/bin/pip install -r bench/peers/requirements-backtest.txt
Run (pins itself to one core, no hidden threading):
    bench/peers/.venv/bin/python bench/peers/sma_crossover.py [--quick] [--bt-symbols N]
"""
import os

# One core, no BLAS/OpenMP threads: set before NumPy loads.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(var, "1")
os.environ.setdefault("TQDM_DISABLE", "1")  # backtesting.py's progress bar

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

MASK = (1 << 64) - 1
BARS = 2_520
SYMBOLS = 100
FAST, SLOW = 10, 30


class Lcg:
    """The Rust bench's generator, bit for bit."""

    def __init__(self, seed):
        self.state = seed

    def uniform(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & MASK
        return ((self.state >> 11) + 0.5) / float(1 << 53)

    def normal(self):
        u, v = self.uniform(), self.uniform()
        return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)


def sma_market(symbols=SYMBOLS, bars=BARS):
    """GBM closes, (bars, symbols): start 20-200, annual volatility 15-50%, drift 5%."""
    rng = Lcg(42)
    dt = 1.0 / 252.0
    out = np.empty((bars, symbols))
    for k in range(symbols):
        close = 20.0 + 180.0 * rng.uniform()
        sigma = 0.15 + 0.35 * rng.uniform()
        drift = (0.05 - 0.5 * sigma * sigma) * dt
        shock = sigma * math.sqrt(dt)
        for i in range(bars):
            close *= math.exp(drift + shock * rng.normal())
            out[i, k] = close
    return out


def best_of(fn, repeats):
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def run_vectorbt(close):
    import vectorbt as vbt

    def backtest():
        fast = vbt.MA.run(close, FAST, short_name="fast")
        slow = vbt.MA.run(close, SLOW, short_name="slow")
        entries = fast.ma_crossed_above(slow)
        exits = fast.ma_crossed_below(slow)
        pf = vbt.Portfolio.from_signals(close, entries, exits, init_cash=1.0, fees=0.0, freq="1D")
        return pf.total_return().to_numpy(), pf.trades.count().to_numpy()

    backtest()  # JIT compilation (numba) outside the measurement
    return backtest


def run_backtesting_py(close, symbols):
    from backtesting import Backtest, Strategy
    from backtesting.lib import crossover
    from backtesting.test import SMA

    class SmaCross(Strategy):
        def init(self):
            self.fast = self.I(SMA, self.data.Close, FAST)
            self.slow = self.I(SMA, self.data.Close, SLOW)

        def next(self):
            if crossover(self.fast, self.slow):
                if not self.position:
                    self.buy()
            elif crossover(self.slow, self.fast):
                self.position.close()

    index = pd.bdate_range("2015-01-02", periods=close.shape[0])
    frames = []
    for k in range(symbols):
        c = close[:, k]
        frames.append(pd.DataFrame({"Open": c, "High": c, "Low": c, "Close": c, "Volume": 1e6}, index=index))

    def backtest():
        returns, trades = [], []
        for df in frames:
            # Fills at the signal bar's close, like the other two; whole shares of a
            # large account so that rounding is negligible.
            bt = Backtest(df, SmaCross, cash=1e9, commission=0.0, trade_on_close=True, finalize_trades=True)
            stats = bt.run()
            returns.append(stats["Return [%]"] / 100.0)
            trades.append(int(stats["# Trades"]))
        return np.array(returns), np.array(trades)

    return backtest


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one repeat each, 10 symbols for backtesting.py")
    parser.add_argument("--bt-symbols", type=int, default=None, help="symbols run through backtesting.py (default 100; 10 with --quick)")
    parser.add_argument("--cpu", type=int, default=int(os.environ.get("PEERS_CPU", "1")), help="core to pin to (default 1)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {args.cpu})
        except OSError:
            pass
    warnings.filterwarnings("ignore")

    close = sma_market()
    print(f"data: {SYMBOLS} symbols x {BARS} bars of GBM (first close {close[0, 0]:.6f}), SMA({FAST}/{SLOW}) long-only crossover")
    rows = []

    columns = pd.DataFrame(close, index=pd.bdate_range("2015-01-02", periods=BARS), columns=[f"S{k:03}" for k in range(SYMBOLS)])
    vbt_run = run_vectorbt(columns)
    seconds, (vbt_returns, vbt_trades) = best_of(vbt_run, 1 if args.quick else 7)
    rows.append(("vectorbt", SYMBOLS * BARS, seconds, int(vbt_trades.sum()), vbt_returns.mean()))

    bt_symbols = args.bt_symbols or (10 if args.quick else SYMBOLS)
    bt_run = run_backtesting_py(close, bt_symbols)
    seconds, (returns, trades) = best_of(bt_run, 1 if args.quick else 2)
    rows.append((f"backtesting.py ({bt_symbols} symbols)", bt_symbols * BARS, seconds, int(trades.sum()), returns.mean()))
    same = int((trades == vbt_trades[:bt_symbols]).sum())
    gap = float(np.abs(returns - vbt_returns[:bt_symbols]).max())
    agreement = (
        f"backtesting.py vs vectorbt on those {bt_symbols} symbols: equal trade counts on {same}; largest total-return gap {gap:.2e}"
        " (backtesting.py closes the position still open at the end one bar early)"
    )

    import backtesting
    import vectorbt

    print(f"vectorbt {vectorbt.__version__}, backtesting.py {backtesting.__version__}, numpy {np.__version__}, pandas {pd.__version__}")
    print(f"{'implementation':34} {'bars':>9} {'best time':>11} {'bars/s':>14} {'trades':>7} {'mean return':>12}")
    for name, bars, seconds, trades, mean_return in rows:
        print(f"{name:34} {bars:9d} {seconds * 1e3:9.1f} ms {bars / seconds:14,.0f} {trades:7d} {mean_return:12.6f}")
    print(agreement)
    print("trades include positions still open after the last bar; compare with the criterion bench's stderr line")


if __name__ == "__main__":
    main()
