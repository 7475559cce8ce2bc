"""95 % intervals. mean_ci95: of a mean over replicas (or over paired differences), from
scipy.stats: Student's t with n - 1 degrees of freedom times the standard error. One place for
the reproduction scripts and the Kiviat gains; each caller decides which values count (NaN,
infinities) before calling."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st


def mean_ci95(values) -> tuple[float, float, int]:
    """(mean, half-width of the 95 % CI, n) over `values`; the half-width is NaN for n < 2 and
    the mean NaN for n = 0."""
    v = np.asarray(values, dtype=float)
    n = int(v.size)
    if n == 0:
        return math.nan, math.nan, 0
    mean = float(v.mean())
    if n < 2:
        return mean, math.nan, 1
    return mean, float(st.t.ppf(0.975, n - 1) * st.sem(v)), n


def wilson95(k: int, n: int) -> tuple[float, float]:
    """Wilson score 95 % interval of a proportion k / n: stays inside [0, 1] (the normal
    approximation's p +- 1.96 SE does not near 0 or 1)."""
    if n <= 0:
        return math.nan, math.nan
    z = float(st.norm.ppf(0.975))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_mean95(values, resamples: int = 10000, seed: int = 1) -> tuple[float, float, float]:
    """(mean, lo, hi): percentile bootstrap 95 % interval of the mean over replicas, for values
    that cannot be negative (rates, counts): the interval stays inside the values' range, where
    the t interval of a skewed rate can go below 0. A fixed seed keeps a report reproducible."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return math.nan, math.nan, math.nan
    if v.size < 2:
        return float(v[0]), math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, v.size, size=(resamples, v.size))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(v.mean()), float(lo), float(hi)
