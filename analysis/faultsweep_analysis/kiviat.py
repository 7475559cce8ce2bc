"""Kiviat graphs and composite gains of FARS (Li, Lan, Gujrati, Sun, "Fault-Aware Runtime
Strategies for HPC", §5.3 and Fig. 3).

Six axes, all "smaller is better"::

    1 - Util      non-utilization           1 - utilization
    MTBC          mean time between completions = 1 / Thru (hours here: 1 / throughput_per_h)
    Resp          mean response time        mean_response_s
    SUL           service unit loss         sul_node_hours
    JFR           job failure rate          jfr
    FSD           failure slowdown          fsd

Each axis is scaled by the largest value among the compared methods ("the range of each metric
is from zero to the largest value observed in the experiments"), so every scaled value is in
[0, 1]; an axis where every method scores 0 is 0 for all. K is the area of the hexagon whose
vertices are the scaled values on six equally spaced spokes:

    K = 1/2 sin(2 pi / 6) sum_i r_i r_{i+1}      (i cyclic)

and the gain of B over A is (K(A) - K(B)) / K(A) (Fig. 3's caption).

Paired gains: in a faultsweep sweep, points that differ only in the strategy see the same jobs
and failures in each replica (common random numbers). ``replica_gains`` computes K per replica
(scaling by the largest value among the methods in that replica), then the gain per replica,
and ``paired_gain`` its mean with a Student-t 95 % CI over replicas. ``gain_of_means`` is the
paper's own computation: K of the per-method mean metrics (one experiment per method).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .stats import mean_ci95

AXES = ("nonutil", "mtbc", "resp", "sul", "jfr", "fsd")
AXIS_LABELS = {
    "nonutil": "1 - Util",
    "mtbc": "MTBC (h)",
    "resp": "Resp (s)",
    "sul": "SUL (node-h)",
    "jfr": "JFR",
    "fsd": "FSD",
}
# The cluster model's metrics each axis is computed from.
METRICS = ("utilization", "throughput_per_h", "mean_response_s", "sul_node_hours", "jfr", "fsd")


def axis_values(metrics: Mapping[str, np.ndarray]) -> np.ndarray:
    """The six raw axis values from the cluster model's metrics (arrays of any common shape):
    an array of that shape plus a last dimension of 6, in the order of ``AXES``."""
    missing = [m for m in METRICS if m not in metrics]
    if missing:
        raise KeyError(f"Kiviat needs metrics {', '.join(missing)}")
    util = np.asarray(metrics["utilization"], dtype=float)
    thru = np.asarray(metrics["throughput_per_h"], dtype=float)
    with np.errstate(divide="ignore"):
        mtbc = np.where(thru > 0, 1.0 / thru, np.inf)
    cols = [
        1.0 - util,
        mtbc,
        np.asarray(metrics["mean_response_s"], dtype=float),
        np.asarray(metrics["sul_node_hours"], dtype=float),
        np.asarray(metrics["jfr"], dtype=float),
        np.asarray(metrics["fsd"], dtype=float),
    ]
    return np.stack(np.broadcast_arrays(*cols), axis=-1)


def scale_axes(values: np.ndarray, method_axis: int = 0) -> np.ndarray:
    """Each axis divided by its largest value over the methods (``method_axis`` of ``values``,
    whose last dimension is the 6 axes). Negative raw values (impossible for these metrics) are
    an error; an axis whose maximum is 0 stays 0."""
    v = np.asarray(values, dtype=float)
    if v.shape[-1] != len(AXES):
        raise ValueError(f"last dimension must be the {len(AXES)} Kiviat axes, got {v.shape}")
    if np.any(v < 0):
        raise ValueError("Kiviat axis values must be >= 0")
    top = np.max(v, axis=method_axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(top > 0, v / np.where(top > 0, top, 1.0), 0.0)


def kiviat_area(scaled: np.ndarray) -> np.ndarray:
    """K: area of the polygon of the (scaled) values on equally spaced spokes, over the last
    dimension: 1/2 sin(2 pi / n) sum_i r_i r_{i+1}."""
    r = np.asarray(scaled, dtype=float)
    n = r.shape[-1]
    return 0.5 * math.sin(2 * math.pi / n) * np.sum(r * np.roll(r, -1, axis=-1), axis=-1)


def gain(k_a, k_b):
    """Relative gain of B over A: (K(A) - K(B)) / K(A) (FARS Fig. 3)."""
    k_a = np.asarray(k_a, dtype=float)
    return (k_a - np.asarray(k_b, dtype=float)) / k_a


@dataclass
class Estimate:
    """A mean with its Student-t 95 % CI over n values (lo = hi = mean when n == 1)."""

    mean: float
    lo: float
    hi: float
    n: int

    def pct(self, digits: int = 2) -> str:
        if self.n < 2 or not math.isfinite(self.lo):
            return f"{100 * self.mean:.{digits}f} %"
        return f"{100 * self.mean:.{digits}f} % [{100 * self.lo:.{digits}f}, {100 * self.hi:.{digits}f}]"


def estimate(values) -> Estimate:
    v = np.asarray(values, dtype=float)
    m, half, n = mean_ci95(v[np.isfinite(v)])
    return Estimate(m, m - half, m + half, n)  # NaN bounds for n < 2


def replica_gains(values: np.ndarray, baseline: int = 0) -> np.ndarray:
    """values [M methods, R replicas, 6 axes] -> gains [M, R] of each method over method
    ``baseline``, scaling each replica by the largest value among the methods in it. Replicas
    where any method is missing (NaN) give NaN."""
    v = np.asarray(values, dtype=float)
    if v.ndim != 3:
        raise ValueError(f"expected [methods, replicas, 6], got shape {v.shape}")
    bad = np.any(~np.isfinite(v), axis=(0, 2))
    k = kiviat_area(scale_axes(np.where(np.isfinite(v), v, 0.0), method_axis=0))
    g = gain(k[baseline][None, :], k)
    g[:, bad] = np.nan
    return g


def paired_gain(values: np.ndarray, baseline: int = 0) -> list[Estimate]:
    """Per method, the mean per-replica gain over ``baseline`` with its paired 95 % CI."""
    return [estimate(row) for row in replica_gains(values, baseline)]


def gain_of_means(values: np.ndarray, baseline: int = 0) -> np.ndarray:
    """The paper's computation: K of each method's mean axis values (over replicas), scaled by
    the largest mean among the methods; gains [M] over ``baseline``."""
    v = np.asarray(values, dtype=float)
    means = np.nanmean(v, axis=1)  # [M, 6]
    k = kiviat_area(scale_axes(means, method_axis=0))
    return gain(k[baseline], k)


def metric_gains(values: np.ndarray, baseline: int = 0) -> list[list[Estimate]]:
    """Per method and axis, the paired relative reduction (A - B) / A of that one axis against
    ``baseline`` (FARS Figs. 6a-b, 7a-b), mean and CI over replicas: [M][6]."""
    v = np.asarray(values, dtype=float)
    base = v[baseline]
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = (base[None] - v) / base[None]
    return [[estimate(rel[m, :, a]) for a in range(len(AXES))] for m in range(v.shape[0])]


def plot_kiviat(ax, scaled_by_method: Mapping[str, Sequence[float]], title: str | None = None):
    """Draw scaled axis values (one hexagon per method) on a polar matplotlib axis."""
    angles = np.linspace(0, 2 * np.pi, len(AXES), endpoint=False)
    closed = np.append(angles, angles[0])
    for name, r in scaled_by_method.items():
        r = np.asarray(r, dtype=float)
        ax.plot(closed, np.append(r, r[0]), label=name)
        ax.fill(closed, np.append(r, r[0]), alpha=0.12)
    ax.set_xticks(angles)
    ax.set_xticklabels([AXIS_LABELS[a] for a in AXES], fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_yticklabels([])
    if title:
        ax.set_title(title, fontsize=9)
