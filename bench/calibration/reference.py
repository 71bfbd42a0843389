"""Writes crates/quant/tests/fixtures/calibration.json: scikit-learn's and numpy's calibration
figures over fixed data sets, which crates/quant/tests/it/calibration.rs checks
`strikeline_quant::calibration` against to 1e-12.

Rerun (from the repository root; any recent scikit-learn and numpy):

    python3 -m venv /tmp/calib-venv && /tmp/calib-venv/bin/pip install scikit-learn numpy
    /tmp/calib-venv/bin/python bench/calibration/reference.py

The data come from numpy's legacy RandomState (whose streams numpy keeps stable across
versions) with fixed seeds, so a rerun writes the same inputs. Forecasts are rounded to 6
decimals: such a number is parsed exactly by serde_json's default (fast-path) float parser,
so the Rust test bins exactly the doubles numpy binned. Every other float is written with
Python's repr (shortest round-trip form, i.e. full precision).

Figures and where they come from:
- brier: sklearn.metrics.brier_score_loss.
- per binning (uniform and quantile, 10 and 7 bins): prob_true and prob_pred from
  sklearn.calibration.calibration_curve (non-empty bins only), and, from the same rule
  sklearn uses (edges by np.linspace / np.percentile, bin = np.searchsorted(edges[1:-1], p),
  side="left"), the edges, counts and positives of every bin including empty ones, the
  expected calibration error, the Murphy terms with the two within-bin terms of Stephenson
  et al. (2008), and each bin's 95% Wilson interval.
- wilson: Wilson score intervals for given (successes, n, z), textbook centre ± half-width.
- rolling: Brier over the forecasts resolved in (d - window, d] for each distinct day d.
"""

import json
import os
import re
import sys

import numpy as np
import sklearn
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

Z95 = 1.959963984540054
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "quant", "tests", "fixtures", "calibration.json")


def datasets():
    # 1. 1,000 forecasts; the truth is p**1.6, so the forecaster is too high everywhere.
    rs = np.random.RandomState(20240611)
    p = np.round(rs.beta(2.0, 2.0, 1000), 6)
    y = (rs.random_sample(1000) < p**1.6).astype(int)
    days = 19700 + rs.randint(0, 90, 1000)
    yield "random_1000", p, y, days

    # 2. Twelve pairs small enough to check by hand, some on bin edges (0, 0.3, 0.5, 0.7, 1).
    p = np.array([0.0, 0.1, 0.15, 0.25, 0.3, 0.5, 0.55, 0.7, 0.85, 0.9, 0.95, 1.0])
    y = np.array([0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1])
    days = np.array([1, 1, 2, 3, 3, 3, 5, 8, 8, 9, 12, 12])
    yield "hand_12", p, y, days

    # 3. 300 forecasts, most of them equal (0.5, 0.2, 0.85): quantile edges collapse, so
    #    some equal-count bins are empty.
    rs = np.random.RandomState(7)
    p = np.concatenate([np.full(165, 0.5), np.full(45, 0.2), np.full(30, 0.85), np.round(rs.random_sample(60), 2)])
    rs.shuffle(p)
    y = (rs.random_sample(300) < 0.8 * p + 0.1).astype(int)
    days = 100 + rs.randint(0, 20, 300)
    yield "ties_300", p, y, days

    # 4. Every multiple of 0.05, three times each: exercises which bin a forecast on an
    #    edge falls in (sklearn: the lower one, edges being np.linspace's doubles).
    grid = np.array([float(f"{k / 20:.2f}") for k in range(21)])
    p = np.repeat(grid, 3)
    y = np.array([(i * 7) % 3 == 0 or (i % 5 == 1) for i in range(len(p))]).astype(int)
    days = np.arange(len(p)) // 4
    yield "edges_grid", p, y, days

    # 5. No event happened: the base rate is 0, so the skill score is undefined.
    p = np.array([0.05, 0.1, 0.1, 0.4, 0.05])
    y = np.zeros(5, dtype=int)
    days = np.array([0, 0, 1, 1, 4])
    yield "no_events", p, y, days


def wilson(k, n, z):
    """Textbook Wilson score interval: centre ± half-width."""
    phat = k / n
    denom = 1.0 + z * z / n
    centre = (phat + z * z / (2.0 * n)) / denom
    half = z / denom * np.sqrt(phat * (1.0 - phat) / n + z * z / (4.0 * n * n))
    return [float(centre - half), float(centre + half)]


def binning(p, y, strategy, n_bins):
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    # The same edges and assignment as sklearn's calibration_curve (checked just below).
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(ids, minlength=n_bins)
    positives = np.bincount(ids, weights=y, minlength=n_bins)
    sums = np.bincount(ids, weights=p, minlength=n_bins)
    nz = counts > 0
    assert np.array_equal(positives[nz] / counts[nz], prob_true)
    assert np.array_equal(sums[nz] / counts[nz], prob_pred)

    n = len(p)
    obar = y.mean()
    rel = res = wbv = wbc = ece = 0.0
    for k in range(n_bins):
        m = ids == k
        if not m.any():
            continue
        pk, yk = p[m], y[m]
        pbar, ok = pk.mean(), yk.mean()
        rel += m.sum() * (pbar - ok) ** 2
        res += m.sum() * (ok - obar) ** 2
        wbv += np.sum((pk - pbar) ** 2)
        wbc += np.sum((pk - pbar) * (yk - ok))
        ece += m.sum() / n * abs(ok - pbar)
    murphy = {
        "reliability": rel / n,
        "resolution": res / n,
        "uncertainty": obar * (1.0 - obar),
        "within_bin_variance": wbv / n,
        "within_bin_covariance": wbc / n,
    }
    murphy = {k: float(v) for k, v in murphy.items()}
    brier = float(np.mean((p - y) ** 2))
    identity = murphy["reliability"] - murphy["resolution"] + murphy["uncertainty"] + murphy["within_bin_variance"] - 2 * murphy["within_bin_covariance"]
    assert abs(identity - brier) < 1e-14, (identity, brier)
    return {
        "strategy": strategy,
        "n_bins": n_bins,
        "edges": [float(e) for e in edges],
        "counts": [int(c) for c in counts],
        "positives": [int(round(c)) for c in positives],
        "prob_true": [float(v) for v in prob_true],
        "prob_pred": [float(v) for v in prob_pred],
        "ece": float(ece),
        "murphy": murphy,
        "wilson": [wilson(int(round(positives[k])), int(counts[k]), Z95) if counts[k] > 0 else None for k in range(n_bins)],
    }


def rolling(p, y, days, window):
    se = (p - y) ** 2
    points = []
    for d in np.unique(days):
        m = (days > d - window) & (days <= d)
        points.append({"day": int(d), "n": int(m.sum()), "brier": float(se[m].mean())})
    return {"window": window, "points": points}


def main():
    out = {
        "generator": "bench/calibration/reference.py",
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "z": Z95,
        "datasets": [],
        "wilson": [],
    }
    for name, p, y, days in datasets():
        obar = float(y.mean())
        brier = float(brier_score_loss(y, p))
        unc = obar * (1.0 - obar)
        out["datasets"].append(
            {
                "name": name,
                "forecasts": [float(v) for v in p],
                "outcomes": [int(v) for v in y],
                "days": [int(d) for d in days],
                "brier": brier,
                "base_rate": obar,
                "brier_skill_score": float(1.0 - np.mean((p - y) ** 2) / unc) if unc > 0 else None,
                "binnings": [binning(p, y, s, b) for b in (10, 7) for s in ("uniform", "quantile")],
                "rolling": [rolling(p, y, days, w) for w in (1, 7, 30)],
            }
        )
    for k, n, z in [(8, 10, 1.96), (8, 10, Z95), (0, 10, Z95), (10, 10, Z95), (1, 1, Z95), (0, 1, Z95), (37, 250, Z95), (5, 7, 2.5758293035489004), (500, 1000, Z95), (3, 9, 0.0), (123456, 1000000, Z95)]:
        lo, hi = wilson(k, n, z)
        out["wilson"].append({"successes": k, "n": n, "z": z, "lo": lo, "hi": hi})
    text = json.dumps(out, indent=1)
    # One line per list of numbers (or of [lo, hi] pairs and nulls), to keep the file short.
    text = re.sub(r"\[[-\d.e,\s\[\]nul]*\]", lambda m: re.sub(r"\s+", "", m.group(0)).replace(",", ", "), text)
    with open(OUT, "w") as f:
        f.write(text + "\n")
    print(f"wrote {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
