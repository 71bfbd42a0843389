"""American options beside QuantLib, on one core (bench/peers/american.sh runs it).

Generates issue 28's grid (S/K 0.5-2, T one day to three years, vol 5-150%, r and q 0-10%,
calls and puts), prices it with Strikeline's engine (the `american_speed` example, path in
argv[1]) and with QuantLib's engines, and prints each engine's throughput and its error
against QuantLib's QD+ fixed-point engine at its high-precision scheme (the reference).
QuantLib's figures include the Python call per option (recalculate + NPV), which is small
beside an American engine's work but not nothing; Strikeline's are of the engine alone.
"""

import random
import subprocess
import sys
import time

import QuantLib as ql


def cases(n, seed=28):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        out.append((
            "put" if i % 2 == 0 else "call",
            100.0 * (0.5 + 1.5 * rng.random()),
            100.0,
            0.1 * rng.random(),
            0.1 * rng.random(),
            0.05 + 1.45 * rng.random(),
            1.0 / 365.0 + (3.0 - 1.0 / 365.0) * rng.random(),
        ))
    return out


def quantlib_options(grid, make_engine):
    today = ql.Date(2, 1, 2026)
    ql.Settings.instance().evaluationDate = today
    dc = ql.Actual365Fixed()
    options = []
    for kind, s, k, r, q, vol, t in grid:
        days = max(1, round(t * 365))
        exercise = ql.AmericanExercise(today, today + days)
        payoff = ql.PlainVanillaPayoff(ql.Option.Call if kind == "call" else ql.Option.Put, k)
        process = ql.BlackScholesMertonProcess(
            ql.QuoteHandle(ql.SimpleQuote(s)),
            ql.YieldTermStructureHandle(ql.FlatForward(today, q, dc)),
            ql.YieldTermStructureHandle(ql.FlatForward(today, r, dc)),
            ql.BlackVolTermStructureHandle(ql.BlackConstantVol(today, ql.NullCalendar(), vol, dc)),
        )
        option = ql.VanillaOption(payoff, exercise)
        option.setPricingEngine(make_engine(process))
        options.append(option)
    return options


def timed(options, repeats=3):
    best = float("inf")
    prices = None
    for _ in range(repeats):
        started = time.perf_counter()
        out = []
        for o in options:
            o.recalculate()
            out.append(o.NPV())
        best = min(best, time.perf_counter() - started)
        prices = out
    return prices, len(options) / best


def errors(prices, reference):
    worst_abs = max(abs(p - r) for p, r in zip(prices, reference))
    score = max(min(abs(p - r), abs(p - r) / max(r, 1e-300)) for p, r in zip(prices, reference))
    misses = sum(1 for p, r in zip(prices, reference) if min(abs(p - r), abs(p - r) / max(r, 1e-300)) > 1e-4)
    return worst_abs, score, misses


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    grid = cases(n)
    # Day-rounded expiries, as QuantLib dates them, so both sides price the same contracts.
    grid = [(kind, s, k, r, q, vol, max(1, round(t * 365)) / 365.0) for kind, s, k, r, q, vol, t in grid]
    text = "\n".join(",".join(str(x) for x in case) for case in grid)
    run = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    ours = [float(x) for x in run.stdout.split()]
    our_rate = float(run.stderr.split()[1])

    reference, _ = timed(quantlib_options(grid, lambda p: ql.QdFpAmericanEngine(p, ql.QdFpAmericanEngine.highPrecisionScheme())), 1)
    engines = [
        ("QuantLib QdFp (fast scheme)", lambda p: ql.QdFpAmericanEngine(p, ql.QdFpAmericanEngine.fastScheme())),
        ("QuantLib QdFp (accurate scheme)", lambda p: ql.QdFpAmericanEngine(p, ql.QdFpAmericanEngine.accurateScheme())),
        ("QuantLib Barone-Adesi-Whaley", ql.BaroneAdesiWhaleyApproximationEngine),
        ("QuantLib Bjerksund-Stensland", ql.BjerksundStenslandApproximationEngine),
    ]
    print(f"{n} American options (issue 28's grid), errors against QuantLib QdFp high precision; one core")
    print(f"{'engine':<34} {'options/s':>12} {'max abs err':>12} {'max min(abs,rel)':>17} {'beyond 1e-4':>12}")
    a, s, m = errors(ours, reference)
    print(f"{'Strikeline (ALO fixed point)':<34} {our_rate:>12,.0f} {a:>12.2e} {s:>17.2e} {m:>12}")
    for name, make in engines:
        prices, rate = timed(quantlib_options(grid, make))
        a, s, m = errors(prices, reference)
        print(f"{name:<34} {rate:>12,.0f} {a:>12.2e} {s:>17.2e} {m:>12}")


if __name__ == "__main__":
    main()
