"""Peer benchmarks for strikeline-quant: the same workloads as crates/quant/benches, done
the way a Python shop would, with NumPy (vectorised, scipy.special.ndtr for N(x)) and
TA-Lib. Prints throughput; docs/performance.md sets these beside the criterion figures.

Run through bench/peers/run.sh (one core, no BLAS threading), or directly:
    python bench/peers/peers.py [--quick] [--options-only] [--pricing-n N] [--iv-n N]
bench/peers/compare.sh runs the option workloads of both sides in one go and prints the
ratios.
"""
import argparse
import time

import numpy as np
import talib
from scipy.special import ndtr
from scipy.stats import norm

SQRT_2PI = np.sqrt(2.0 * np.pi)


def random_options(n, seed=7):
    """Same distribution as benches/pricing.rs: S 50-150, K within ±30% of S,
    σ 10-80%, T from 1 day to 2 years, r 0-6%, q 0-3%."""
    rng = np.random.default_rng(seed)
    s = rng.uniform(50.0, 150.0, n)
    return dict(
        s=s,
        k=s * rng.uniform(0.7, 1.3, n),
        r=rng.uniform(0.0, 0.06, n),
        q=rng.uniform(0.0, 0.03, n),
        sigma=rng.uniform(0.1, 0.8, n),
        t=rng.uniform(1.0, 730.0, n) / 365.0,
    )


def bsm_call_and_greeks(s, k, r, q, sigma, t):
    """Price, delta, gamma, vega, theta (per year), rho of calls, vectorised."""
    sqrt_t = np.sqrt(t)
    sig_sqrt_t = sigma * sqrt_t
    d1 = (np.log(s / k) + (r - q + 0.5 * sigma * sigma) * t) / sig_sqrt_t
    d2 = d1 - sig_sqrt_t
    df_q = np.exp(-q * t)
    df_r = np.exp(-r * t)
    nd1 = ndtr(d1)
    nd2 = ndtr(d2)
    pdf_d1 = np.exp(-0.5 * d1 * d1) / SQRT_2PI
    spot_df = s * df_q
    strike_df = k * df_r
    price = spot_df * nd1 - strike_df * nd2
    delta = df_q * nd1
    gamma = df_q * pdf_d1 / (s * sig_sqrt_t)
    vega = spot_df * pdf_d1 * sqrt_t
    theta = -spot_df * pdf_d1 * sigma / (2.0 * sqrt_t) - r * strike_df * nd2 + q * spot_df * nd1
    rho = k * t * df_r * nd2
    return price, delta, gamma, vega, theta, rho


def bsm_call_and_greeks_scipy_stats(s, k, r, q, sigma, t):
    """The same with scipy.stats.norm.cdf/pdf, as many tutorials write it (slower: the
    frozen-distribution machinery checks and broadcasts its arguments on every call)."""
    sqrt_t = np.sqrt(t)
    sig_sqrt_t = sigma * sqrt_t
    d1 = (np.log(s / k) + (r - q + 0.5 * sigma * sigma) * t) / sig_sqrt_t
    d2 = d1 - sig_sqrt_t
    df_q = np.exp(-q * t)
    df_r = np.exp(-r * t)
    nd1 = norm.cdf(d1)
    nd2 = norm.cdf(d2)
    pdf_d1 = norm.pdf(d1)
    price = s * df_q * nd1 - k * df_r * nd2
    delta = df_q * nd1
    gamma = df_q * pdf_d1 / (s * sig_sqrt_t)
    vega = s * df_q * pdf_d1 * sqrt_t
    theta = -s * df_q * pdf_d1 * sigma / (2.0 * sqrt_t) - r * k * df_r * nd2 + q * s * df_q * nd1
    rho = k * t * df_r * nd2
    return price, delta, gamma, vega, theta, rho


def call_price_and_vega(s, k, r, q, sigma, t):
    sqrt_t = np.sqrt(t)
    sig_sqrt_t = sigma * sqrt_t
    d1 = (np.log(s / k) + (r - q + 0.5 * sigma * sigma) * t) / sig_sqrt_t
    d2 = d1 - sig_sqrt_t
    spot_df = s * np.exp(-q * t)
    price = spot_df * ndtr(d1) - k * np.exp(-r * t) * ndtr(d2)
    vega = spot_df * np.exp(-0.5 * d1 * d1) / SQRT_2PI * sqrt_t
    return price, vega


def implied_vol_newton(price, s, k, r, q, t, tol=1e-12, max_iter=100):
    """Safeguarded Newton, vectorised: Newton steps kept inside a bracket [lo, hi] that
    always contains the root, bisection when a step leaves it; only the unconverged
    options are iterated (index compaction)."""
    n = price.size
    sigma = np.clip(np.sqrt(2.0 * np.pi / t) * price / s, 0.01, 3.0)  # Brenner–Subrahmanyam start
    lo = np.full(n, 1e-6)
    hi = np.full(n, 10.0)
    active = np.arange(n)
    for _ in range(max_iter):
        if active.size == 0:
            break
        sg = sigma[active]
        p, v = call_price_and_vega(s[active], k[active], r[active], q[active], sg, t[active])
        diff = p - price[active]
        l = np.where(diff < 0, sg, lo[active])
        h = np.where(diff > 0, sg, hi[active])
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            step = diff / v
        new = sg - step
        bad = ~np.isfinite(new) | (new <= l) | (new >= h)
        new = np.where(bad, 0.5 * (l + h), new)
        sigma[active] = new
        lo[active] = l
        hi[active] = h
        done = (np.abs(new - sg) <= tol * new) | (h - l <= tol * new)
        active = active[~done]
    return sigma


def best_time(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def market(symbols, bars, seed=11):
    rng = np.random.default_rng(seed)
    close = (20.0 + 200.0 * rng.random((symbols, 1))) * np.cumprod(1.0 + (rng.random((symbols, bars)) - 0.5) * 0.04, axis=1)
    open_ = close * (1.0 + (rng.random((symbols, bars)) - 0.5) * 0.01)
    high = np.maximum(open_, close) * (1.0 + rng.random((symbols, bars)) * 0.01)
    low = np.minimum(open_, close) * (1.0 - rng.random((symbols, bars)) * 0.01)
    return [(np.ascontiguousarray(high[i]), np.ascontiguousarray(low[i]), np.ascontiguousarray(close[i])) for i in range(symbols)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    parser.add_argument("--options-only", action="store_true", help="only the option workloads (no TA-Lib)")
    parser.add_argument("--pricing-n", type=int, help="options priced per call (default 1,000,000)")
    parser.add_argument("--iv-n", type=int, help="implied volatilities per call (default 200,000)")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7

    n = args.pricing_n or (200_000 if args.quick else 1_000_000)
    o = random_options(n)
    t = best_time(lambda: bsm_call_and_greeks(o["s"], o["k"], o["r"], o["q"], o["sigma"], o["t"]), repeats)
    print(f"numpy  price + 5 greeks      {n / t / 1e6:8.2f} M options/s  ({n} calls, scipy.special.ndtr, best of {repeats})")
    t = best_time(lambda: bsm_call_and_greeks_scipy_stats(o["s"], o["k"], o["r"], o["q"], o["sigma"], o["t"]), repeats)
    print(f"numpy  price + 5 greeks      {n / t / 1e6:8.2f} M options/s  (same, scipy.stats.norm)")

    n_iv = args.iv_n or (100_000 if args.quick else 200_000)
    o = random_options(n_iv)
    target, _ = call_price_and_vega(o["s"], o["k"], o["r"], o["q"], o["sigma"], o["t"])
    solved = implied_vol_newton(target, o["s"], o["k"], o["r"], o["q"], o["t"])
    ok = np.abs(solved - o["sigma"]) < 1e-8
    t = best_time(lambda: implied_vol_newton(target, o["s"], o["k"], o["r"], o["q"], o["t"]), repeats)
    print(f"numpy  implied vol (Newton)  {n_iv / t / 1e6:8.2f} M options/s  ({n_iv} calls, {ok.mean() * 100:.1f}% recovered to 1e-8)")
    if args.options_only:
        return

    symbols, bars = (200, 2520) if args.quick else (1000, 2520)
    data = market(symbols, bars)

    def all_five():
        for high, low, close in data:
            talib.RSI(close, 14)
            talib.EMA(close, 20)
            talib.BBANDS(close, 20, 2.0, 2.0, 0)
            talib.MACD(close, 12, 26, 9)
            talib.ATR(high, low, close, 14)

    t = best_time(all_five, max(2, repeats // 2))
    print(f"talib  rsi+ema+bbands+macd+atr {symbols * bars / t / 1e6:8.2f} M bars/s  ({symbols} symbols x {bars} bars)")
    for name, fn in [
        ("rsi", lambda h, l, c: talib.RSI(c, 14)),
        ("ema", lambda h, l, c: talib.EMA(c, 20)),
        ("bbands", lambda h, l, c: talib.BBANDS(c, 20, 2.0, 2.0, 0)),
        ("macd", lambda h, l, c: talib.MACD(c, 12, 26, 9)),
        ("atr", lambda h, l, c: talib.ATR(h, l, c, 14)),
    ]:
        t = best_time(lambda: [fn(*d) for d in data], max(2, repeats // 2))
        print(f"talib  {name:<22} {symbols * bars / t / 1e6:8.2f} M bars/s")


if __name__ == "__main__":
    main()
