"""Data access and statistics shared by the Zhang et al. (JSSPP 2004) reproduction (zhang.py,
zhang_findings.py, zhang_s5.py, zhang_sensitivity.py): a mean with its 95 % CI, paired
differences over replicas that share failures (common random numbers), the results files of
jobs/zhang and a sweep's points, axis values and per-replica metric values.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import stats as st

from faultsweep_analysis import open_results
from faultsweep_analysis.stats import mean_ci95
from faultsweep_analysis.results import Results

LOAD = "workload.target_load"
SLOWDOWN = "mean_slowdown"
WLR = "work_loss_ratio"
FILES = ("baseline", "fig3a", "fig3b", "fig3c", "fig4", "fig5", "fig6")


class UsageError(Exception):
    pass


# ----------------------------------------------------------------------------------- statistics
@dataclass
class Est:
    """A mean with its 95 % CI (Student t over n values)."""

    mean: float
    lo: float
    hi: float
    n: int

    def fmt(self, scale: float = 1.0, digits: int = 3, pct: bool = False) -> str:
        if pct:
            return f"{100 * self.mean:+.{digits}g} % [{100 * self.lo:+.{digits}g}, {100 * self.hi:+.{digits}g}]"
        return f"{self.mean * scale:.{digits}g} [{self.lo * scale:.{digits}g}, {self.hi * scale:.{digits}g}]"

    def contains_zero(self) -> bool:
        return self.lo <= 0.0 <= self.hi

    def scaled(self, k: float, shift: float = 0.0) -> "Est":
        a, b = self.lo * k + shift, self.hi * k + shift
        return Est(self.mean * k + shift, min(a, b), max(a, b), self.n)


def estimate(values) -> Est:
    v = np.asarray(values, dtype=float)
    m, half, n = mean_ci95(v[~np.isnan(v)])
    if n < 2:
        return Est(m, m, m, n)
    return Est(m, m - half, m + half, n)


def paired(a, b) -> Est:
    """Mean of a - b over replicas that ran in both (common random numbers)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ok = ~np.isnan(a) & ~np.isnan(b)
    return estimate(a[ok] - b[ok])


def relative_paired(a, b) -> Est:
    """(a - b) / mean(b): the paired difference relative to the reference b."""
    d = paired(a, b)
    ref = float(np.nanmean(np.asarray(b, dtype=float)))
    return d.scaled(1.0 / ref)


# --------------------------------------------------------------------------------- file access
def load_dir(results_dir, required=FILES) -> dict[str, Results]:
    d = Path(results_dir)
    if not d.is_dir():
        raise UsageError(f"{d}: not a directory")
    out = {}
    for name in FILES:
        p = d / f"{name}.h5"
        if not p.exists():
            if name in required:
                raise UsageError(f"{p}: missing (run jobs/zhang/{name}.toml)")
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                out[name] = open_results(p)
        except (OSError, ValueError) as e:
            raise UsageError(f"{p}: {e}") from e
    return out


def _col(res: Results, axis: str) -> np.ndarray:
    if axis not in res.points.columns:
        raise UsageError(f"{res.path if hasattr(res, 'path') else 'file'}: no axis {axis!r}")
    return res.points[axis].to_numpy()


def find_point(res: Results, **fixed) -> int:
    """Index of the single point whose axes equal `fixed` (axis names with '.' given as '__');
    floats compare with a relative tolerance, strings exactly."""
    mask = np.ones(len(res.points), dtype=bool)
    for key, want in fixed.items():
        axis = key.replace("__", ".")
        col = _col(res, axis)
        if isinstance(want, str):
            mask &= np.array([str(c) == want for c in col])
        else:
            mask &= np.isclose(col.astype(float), float(want), rtol=1e-9, atol=1e-12)
    idx = np.flatnonzero(mask)
    if idx.size != 1:
        raise UsageError(f"{idx.size} points match {fixed} (axes {list(res.points.columns)})")
    return int(idx[0])


def values(res: Results, metric: str, **fixed) -> np.ndarray:
    if metric not in res.metrics:
        raise UsageError(f"no metric {metric!r} (has {', '.join(res.metrics)})")
    return res.results(metric)[find_point(res, **fixed)]


def axis_values(res: Results, axis: str) -> list:
    col = _col(res, axis)
    seen = []
    for c in col:
        if c not in seen:
            seen.append(c)
    return seen


def loads(res: Results) -> list[float]:
    return sorted(float(x) for x in axis_values(res, LOAD))


def baseline_value(base: Results | None, metric: str, load: float) -> float:
    if base is None:
        return math.nan
    return float(np.nanmean(values(base, metric, workload__target_load=load)))


def w_alpha_pairs(res: Results) -> list[tuple[float, float]]:
    """The (W, alpha) pairs of the zipped failures.W / failures.alpha axes, in file order."""
    pairs = []
    for w, a in zip(_col(res, "failures.W"), _col(res, "failures.alpha")):
        if (float(w), float(a)) not in pairs:
            pairs.append((float(w), float(a)))
    return pairs


def ckpt_cases(res: Results) -> list[tuple[str, float]]:
    """(checkpoint, interval) pairs present, 'none' first."""
    pairs = []
    for c, i in zip(_col(res, "checkpoint"), _col(res, "checkpoint_interval")):
        key = (str(c), float(i))
        if key not in pairs:
            pairs.append(key)
    return sorted(pairs, key=lambda p: (p[0] != "none", p[1]))


def ckpt_label(case: tuple[str, float]) -> str:
    return "none" if case[0] == "none" else f"every {case[1] / 3600:g} h"
