"""Figures from a results file: a metric against one axis (one line per value of another,
95 % CI error bars) and a metric over two axes as a heat map.

Figures are drawn on matplotlib's Agg canvas directly (no pyplot), so importing this module
never changes the backend of an interactive session and works without a display. Durations
(units "s") are shown in the unit their size calls for (time_unit: s, min, h or days); an axis
whose values are log-spaced is drawn on a log scale.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .results import Results


def is_log_spaced(values) -> bool:
    """True when the distinct values are positive and more evenly spaced in log than in linear
    terms (e.g. 6 min .. 24 h in 40 log steps), which is how the sweep's `log` ranges look."""
    v = np.unique(np.asarray(values, dtype=float))
    v = v[np.isfinite(v)]
    if v.size < 3 or v[0] <= 0:
        return False
    lin, lg = np.diff(v), np.diff(np.log(v))
    cv_lin = lin.std() / lin.mean()
    cv_log = lg.std() / lg.mean()
    return cv_log < 0.5 * cv_lin or (cv_log < 0.05 and cv_lin > 0.05)


# (seconds per unit, label), smallest first; a unit is used until values reach 3 of the next.
_TIME_UNITS = [(1.0, "s"), (60.0, "min"), (3600.0, "h"), (86400.0, "days")]


def time_unit(span_s) -> tuple[float, str]:
    """The unit to show durations of size `span_s` seconds in, and its label: seconds below
    3 min, minutes below 3 h, hours below 3 days, days beyond (a 110 s run reads 0-110 s, not
    0.000-0.031 h)."""
    span = abs(float(span_s)) if np.isfinite(span_s) else 0.0
    chosen = _TIME_UNITS[0]
    for unit in _TIME_UNITS[1:]:
        if span >= 3 * unit[0]:
            chosen = unit
    return chosen


def _values_of(res: Results, name: str) -> np.ndarray:
    """Every value of an axis or every summary statistic of a metric in the file."""
    if name in res.axes:
        return np.asarray(res.points[name], dtype=float)
    cols = [(name, s) for s in ("mean", "ci95_lo", "ci95_hi") if (name, s) in res.summary]
    return np.asarray(res.summary[cols], dtype=float).ravel()


def _unit(res: Results, name: str) -> tuple[float, str]:
    """(divisor, label) of a quantity: durations by the size of their values in the file (one
    unit per quantity, so legends and axes agree), other units as stored."""
    units = (res.units(name) or "").strip()
    if units != "s":
        return 1.0, "" if units in ("1", "") else units
    v = _values_of(res, name)
    v = v[np.isfinite(v)]
    return time_unit(np.max(np.abs(v)) if v.size else 0.0)


def label(res: Results, name: str, words: Mapping[str, str] | None = None) -> str:
    """Axis label "name [units]" in display units (durations in the unit of time_unit);
    dimensionless quantities get no unit. `words` gives a name its words ("active processors a")."""
    unit = _unit(res, name)[1]
    text = (words or {}).get(name, name)
    return f"{text} [{unit}]" if unit else text


def format_duration(seconds: float) -> str:
    """A duration for a legend or a panel: "45 s", "8 min", "21.1 min", "1 h 30 min", "24 h"
    (hours and minutes, never decimal hours)."""
    if seconds < 60:
        return f"{seconds:.3g} s"
    if seconds < 3600:
        return f"{seconds / 60:.3g} min"
    minutes = int(round(seconds / 60))
    h, m = divmod(minutes, 60)
    return f"{h} h" if m == 0 else f"{h} h {m:02d} min"


def _display(res: Results, name: str, values):
    if name in res.axes and res.is_string_axis(name):
        return np.asarray(values, dtype=object)
    return np.asarray(values, dtype=float) / _unit(res, name)[0]


def _format_value(res: Results, axis: str, value) -> str:
    if res.is_string_axis(axis):
        return f"{axis} = {value}"
    if (res.units(axis) or "").strip() == "s":
        return f"{axis} = {format_duration(float(value))}"
    divisor, unit = _unit(res, axis)
    return f"{axis} = {float(value) / divisor:.4g}" + (f" {unit}" if unit else "")


def _subset(res: Results, free: list[str], fixed: Mapping[str, object] | None) -> np.ndarray:
    """Mask of the points to plot; every axis not free nor fixed must have a single value."""
    mask = res.select(fixed)
    for axis in res.axes:
        if axis in free or axis in (fixed or {}):
            continue
        n = res.points.loc[mask, axis].nunique()
        if n > 1:
            raise ValueError(
                f"axis {axis!r} has {n} values among the selected points: fix it "
                f"(fixed={{'{axis}': ...}}, --fix {axis}=VALUE) or plot against it"
            )
    return mask


def _title(res: Results, metric: str, fixed: Mapping[str, object] | None, mask) -> str:
    parts = [f"{metric} ({res.model})" if res.model else metric]
    for axis in res.axes:
        values = res.points.loc[mask, axis].unique()
        if axis in (fixed or {}) or (len(values) == 1 and len(res.points[axis].unique()) > 1):
            parts.append(_format_value(res, axis, values[0]))
    if not res.complete:
        parts.append("INCOMPLETE")
    return ", ".join(parts)


def _save(fig: Figure, out_png) -> Figure:
    if out_png is not None:
        out = Path(out_png)
        if out.parent and not out.parent.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
        FigureCanvasAgg(fig)
        fig.savefig(out, dpi=120)
    return fig


def _positions(res: Results, axis: str, values):
    """x positions for an axis: display values, or 0..k-1 with tick labels for strings."""
    if res.is_string_axis(axis):
        cats = list(dict.fromkeys(res.points[axis]))  # file order
        return np.array([cats.index(v) for v in values], dtype=float), cats
    return np.asarray(_display(res, axis, values), dtype=float), None


def plot_metric_vs_axis(
    res: Results,
    metric: str,
    x_axis: str,
    by: str | None = None,
    out_png=None,
    fixed: Mapping[str, object] | None = None,
    words: Mapping[str, str] | None = None,
    title: str | None = None,
    panels: bool | None = None,
) -> Figure:
    """Summary mean of `metric` against `x_axis`, one line per value of `by`, error bars the
    95 % CI. Axes other than x_axis and by must be single-valued after `fixed` is applied.
    `words` names axes and metrics in words (units are added), `title` replaces the generated
    title. More than four lines overlap: then (or with panels=True) each value of `by` gets its
    own panel, the other lines drawn faintly behind it for comparison.
    Saves to `out_png` when given; returns the Figure."""
    res._check_metric(metric)
    res._check_axis(x_axis)
    if by is not None:
        res._check_axis(by)
        if by == x_axis:
            raise ValueError("by must differ from the x axis")
    mask = _subset(res, [x_axis] + ([by] if by else []), fixed)

    pts = res.points[mask]
    summ = res.summary[mask]
    groups = [(None, np.ones(len(pts), dtype=bool))]
    if by is not None:
        groups = [(v, (pts[by] == v).to_numpy()) for v in pd_unique(pts[by])]
    if panels is None:
        panels = len(groups) > 4
    cats = None
    lines = []
    for value, g in groups:
        x, cats = _positions(res, x_axis, pts[x_axis][g].to_numpy())
        order = np.argsort(x, kind="stable")
        mean = _display(res, metric, summ[(metric, "mean")][g].to_numpy())[order]
        lo = _display(res, metric, summ[(metric, "ci95_lo")][g].to_numpy())[order]
        hi = _display(res, metric, summ[(metric, "ci95_hi")][g].to_numpy())[order]
        yerr = np.vstack([np.nan_to_num(mean - lo), np.nan_to_num(hi - mean)])
        lines.append((None if value is None else _format_value(res, by, value), x[order], mean, yerr))
    log_x = cats is None and is_log_spaced(res.points.loc[mask, x_axis])
    heading = title or _title(res, metric, fixed, mask)

    def style(ax):
        if cats is not None:
            ax.set_xticks(range(len(cats)), cats)
        elif log_x:
            ax.set_xscale("log")
        ax.grid(True, alpha=0.3)

    if panels:
        ncols = min(4, len(lines))
        nrows = -(-len(lines) // ncols)
        fig = Figure(figsize=(2.6 * ncols + 0.6, 2.2 * nrows + 0.9))
        axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
        for k, (name, x, mean, yerr) in enumerate(lines):
            ax = axes[k]
            for _, x2, mean2, _ in lines:  # every line faintly: where this one stands
                ax.plot(x2, mean2, color="0.82", linewidth=0.8)
            ax.errorbar(x, mean, yerr=yerr, marker="o", markersize=2.5, capsize=1.5,
                        linewidth=1.2, color="C0")
            ax.set_title(name or "", fontsize=9)
            style(ax)
        for ax in axes[len(lines):]:
            ax.set_visible(False)
        fig.supxlabel(label(res, x_axis, words), fontsize=10)
        fig.supylabel(label(res, metric, words), fontsize=10)
        fig.suptitle(heading, fontsize=10)
        fig.tight_layout()
        return _save(fig, out_png)

    fig = Figure(figsize=(7, 4.5))
    ax = fig.add_subplot()
    # More lines than the default colour cycle has colours: follow a sequential colormap,
    # which also shows the order of the `by` values.
    colours = colormaps["viridis"](np.linspace(0, 0.9, len(lines))) if len(lines) > 10 else [None] * len(lines)
    markers = "osD^vP*Xh<>"
    for k, ((name, x, mean, yerr), colour) in enumerate(zip(lines, colours)):
        ax.errorbar(x, mean, yerr=yerr, marker=markers[k % len(markers)], markersize=3, capsize=2,
                    linewidth=1, color=colour, label=name)
    style(ax)
    ax.set_xlabel(label(res, x_axis, words))
    ax.set_ylabel(label(res, metric, words))
    ax.set_title(heading, fontsize=9)
    if by is not None:
        ax.legend(fontsize=7, ncol=2 if len(lines) > 8 else 1)
    fig.tight_layout()
    return _save(fig, out_png)


def pd_unique(series):
    """Distinct values, sorted when they can be."""
    values = pd.unique(series)
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def _edges(centres: np.ndarray, log: bool) -> np.ndarray:
    """Cell edges around sorted distinct centres (geometric midpoints on a log axis)."""
    c = np.log(centres) if log else centres.astype(float)
    if c.size == 1:
        e = np.array([c[0] - 0.5, c[0] + 0.5])
    else:
        mid = (c[1:] + c[:-1]) / 2
        e = np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])
    return np.exp(e) if log else e


def plot_heatmap(
    res: Results,
    metric: str,
    x_axis: str,
    y_axis: str,
    out_png=None,
    fixed: Mapping[str, object] | None = None,
    cmap: str = "viridis",
    mark: str | None = "max",
) -> Figure:
    """Summary mean of `metric` over the `x_axis` × `y_axis` grid (e.g. availability over
    a × I). Log-spaced axes are drawn on a log scale, durations in the unit time_unit picks, the colour bar carries
    the metric's units; the point with the largest value is marked (`mark="min"` for metrics
    where less is better, None for no mark). Cells without a point are
    blank. Saves to `out_png` when given; returns the Figure."""
    res._check_metric(metric)
    res._check_axis(x_axis)
    res._check_axis(y_axis)
    if x_axis == y_axis:
        raise ValueError("x and y axes must differ")
    mask = _subset(res, [x_axis, y_axis], fixed)
    pts = res.points[mask]
    z_all = _display(res, metric, res.summary.loc[mask, (metric, "mean")].to_numpy())

    def axis_grid(axis):
        if res.is_string_axis(axis):
            cats = list(dict.fromkeys(pts[axis]))
            return np.arange(len(cats), dtype=float), [cats.index(v) for v in pts[axis]], cats, False
        shown = np.asarray(_display(res, axis, pts[axis].to_numpy()), dtype=float)
        centres = np.unique(shown)
        idx = np.searchsorted(centres, shown)
        return centres, idx, None, is_log_spaced(centres)

    xc, xi, xcats, xlog = axis_grid(x_axis)
    yc, yi, ycats, ylog = axis_grid(y_axis)
    z = np.full((len(yc), len(xc)), np.nan)
    z[np.asarray(yi), np.asarray(xi)] = z_all

    fig = Figure(figsize=(7, 5))
    ax = fig.add_subplot()
    mesh = ax.pcolormesh(_edges(xc, xlog), _edges(yc, ylog), np.ma.masked_invalid(z),
                         cmap=cmap, shading="flat")
    if xlog:
        ax.set_xscale("log")
    if ylog:
        ax.set_yscale("log")
    if xcats is not None:
        ax.set_xticks(xc, xcats)
    if ycats is not None:
        ax.set_yticks(yc, ycats)
    if mark not in (None, "max", "min"):
        raise ValueError(f"mark must be 'max', 'min' or None, not {mark!r}")
    if mark is not None and np.isfinite(z).any():
        best = np.nanargmax(z) if mark == "max" else np.nanargmin(z)
        iy, ix = np.unravel_index(best, z.shape)
        ax.plot([xc[ix]], [yc[iy]], marker="*", color="white", markeredgecolor="black",
                markersize=12, linestyle="none", label=f"{mark} {z[iy, ix]:.4g}")
        ax.legend(fontsize=7, loc="best")
    cbar = fig.colorbar(mesh, ax=ax)
    cbar.set_label(label(res, metric))
    ax.set_xlabel(label(res, x_axis))
    ax.set_ylabel(label(res, y_axis))
    ax.set_title(_title(res, metric, fixed, mask), fontsize=9)
    fig.tight_layout()
    return _save(fig, out_png)
