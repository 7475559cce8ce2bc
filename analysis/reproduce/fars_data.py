"""Results access shared by the FARS reproduction (fars.py, fars_gap.py): the strategies, the
groups of a file (points that differ only in strategy), paired composite (Kiviat) gains over
FCFS/EASY per group, per sweep value and per precision x recall cell, and the paper's gains.
"""
from __future__ import annotations

import warnings

import numpy as np

from faultsweep_analysis import kiviat as kv
from faultsweep_analysis import open_results

STRATEGY = "strategy"
ORDER = ("none", "fsd_d", "sul_d", "jfr_d")
LABEL = {"none": "FCFS", "fsd_d": "FSD-D", "sul_d": "SUL-D", "jfr_d": "JFR-D"}
PRECISION, RECALL = "predictor.precision", "predictor.recall"
# Composite gains over FCFS/EASY the paper prints (Figs. 4, 5, 9 captions), percent.
PAPER_GAIN = {
    "exp": {"fsd_d": 34.02, "sul_d": 36.35, "jfr_d": 37.34},
    "weibull": {"fsd_d": 33.73, "sul_d": 36.62, "jfr_d": 33.84},
    "trace": {"fsd_d": 35.45, "sul_d": 38.47, "jfr_d": 35.21},
}
BARS = (("mean_response_s", "Resp (s)"), ("utilization", "Util"),
        ("throughput_per_h", "Thru (jobs/h)"), ("sul_node_hours", "SUL (node-h)"),
        ("jfr", "JFR"), ("fsd", "FSD"))


class UsageError(Exception):
    pass


def load(path, need_strategy=True):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            res = open_results(path)
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: {e}") from e
    if need_strategy and STRATEGY not in res.axes:
        raise UsageError(f"{path}: no axis {STRATEGY!r} (axes: {', '.join(res.axes)})")
    return res


def groups(res):
    """[(label, {axis: value}, [(strategy, point index)])] per combination of the other axes,
    strategies in ORDER."""
    others = [a for a in res.axes if a != STRATEGY]
    out = {}
    for p in range(len(res)):
        key = tuple(res.points[a].iloc[p] for a in others)
        out.setdefault(key, []).append((str(res.points[STRATEGY].iloc[p]), p))
    result = []
    for key, members in out.items():
        members.sort(key=lambda m: ORDER.index(m[0]) if m[0] in ORDER else len(ORDER))
        fixed = dict(zip(others, key))
        label = ", ".join(f"{a}={v}" for a, v in fixed.items())
        result.append((label, fixed, members))
    return result


def kiviat_values(res, members):
    """[M, R, 6] axis values of the members (points) of one group."""
    metric = {m: res.results(m) for m in kv.METRICS}
    idx = [p for _, p in members]
    return kv.axis_values({m: a[idx] for m, a in metric.items()})


def group_gains(res, members):
    """{strategy: (paired Estimate, gain of means)} over the 'none' member."""
    names = [s for s, _ in members]
    if "none" not in names:
        raise UsageError(f"{res.path}: a group without strategy = none (FCFS/EASY): {names}")
    v = kiviat_values(res, members)
    b = names.index("none")
    paired = kv.paired_gain(v, b)
    of_means = kv.gain_of_means(v, b)
    return {s: (paired[i], float(of_means[i])) for i, s in enumerate(names) if s != "none"}


def metric_estimate(res, metric, point, scale=1.0):
    return kv.estimate(res.results(metric)[point] * scale)


# ------------------------------------------------------------------------------------ sweeps
def sweep_table(res, axis):
    """[(x, {strategy: paired Estimate}, {strategy: [6 per-axis Estimates]}, {metric: FCFS/EASY
    mean})] sorted by x; the last are Tables 4-5's raw values."""
    if axis not in res.axes:
        raise UsageError(f"{res.path}: no axis {axis!r} (axes: {', '.join(res.axes)})")
    rows = []
    for _, fixed, members in groups(res):
        names = [s for s, _ in members]
        v = kiviat_values(res, members)
        b = names.index("none")
        per_axis = kv.metric_gains(v, b)
        comp = kv.paired_gain(v, b)
        raw = {m: float(np.nanmean(res.results(m)[members[b][1]])) for m, _ in BARS}
        rows.append((float(fixed[axis]), {s: comp[i] for i, s in enumerate(names) if s != "none"},
                     {s: per_axis[i] for i, s in enumerate(names) if s != "none"}, raw))
    rows.sort(key=lambda r: r[0])
    return rows


# ------------------------------------------------------------------------------------ heat map
def _params_without(text):
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("strategy=", "predictor.")))


def heatmap_gains(grid, base):
    """{(precision, recall): paired Estimate} of each grid (sul_d) point over the strategy = none
    point of `base` with the same parameters apart from strategy and predictor.*."""
    if grid.attrs.get("master_seed") != base.attrs.get("master_seed"):
        raise UsageError(f"{grid.path} and {base.path} have different seeds: replicas not paired")
    for p in (PRECISION, RECALL):
        if p not in grid.axes:
            raise UsageError(f"{grid.path}: no axis {p!r}")
    none = {_params_without(base.params[p]): p for p in range(len(base))
            if str(base.points[STRATEGY].iloc[p]) == "none"}
    out = {}
    for p in range(len(grid)):
        b = none.get(_params_without(grid.params[p]))
        if b is None:
            raise UsageError(f"{grid.path} point {p}: no strategy = none point in {base.path} "
                             "with the same parameters (apart from strategy and predictor.*): "
                             "replicas would not be paired")
        base_v = kiviat_values(base, [("none", b)])[0]
        v = kiviat_values(grid, [("x", p)])[0]
        r = min(v.shape[0], base_v.shape[0])
        g = kv.paired_gain(np.stack([base_v[:r], v[:r]]), 0)[1]
        out[(float(grid.points[PRECISION].iloc[p]), float(grid.points[RECALL].iloc[p]))] = g
    return out
