"""The 95 % confidence interval of a mean over replicas (or over paired differences), from
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
