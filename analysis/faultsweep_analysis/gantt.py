"""Figures of one recorded replica (records.py): a Gantt chart (nodes x time, jobs as boxes,
failures and repairs marked, held and down nodes shaded, migrations drawn), busy nodes and queue
length over time, and each job's wait against its size. Drawn on matplotlib's Agg canvas (no
pyplot); each writes the file it is given (PNG, SVG or PDF by its suffix). Times are shown in
the unit their span calls for (plots.time_unit: s, min, h or days).

The Gantt draws each kind of box as one collection (not one patch per job), so a chart of
thousands of jobs takes seconds; labels go only where they fit.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from .plots import time_unit
from .records import Records, busy_and_queue, job_intervals, node_intervals

_DURATION = re.compile(r"^\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*(s|min|h|d|days?)?\s*$")
_SECONDS = {None: 1.0, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0, "day": 86400.0,
            "days": 86400.0}
MAX_LABELS = 400  # beyond this many the labels cost more than they tell
# tab20 without its two greys, which would read as "down".
_PALETTE = np.array([c for k, c in enumerate(colormaps["tab20"].colors) if k not in (14, 15)])


def _colors(jobs) -> np.ndarray:
    return _PALETTE[np.asarray(jobs, dtype=np.int64) % len(_PALETTE)]


def parse_time(text: str) -> float:
    """A time of the run typed by a user: seconds, or a number with s, min, h or d."""
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"time {text!r}: expected a number of seconds or one with a unit "
                         "(90s, 5min, 2h, 3d)")
    return float(m.group(1)) * _SECONDS[m.group(2)]


def parse_nodes(text: str) -> tuple[int, int]:
    """A node range typed by a user: "A-B" (both included) or one node "A"."""
    m = re.match(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$", text)
    if not m:
        raise ValueError(f"node range {text!r}: expected FIRST-LAST (e.g. 0-31) or one node")
    first, last = int(m.group(1)), int(m.group(2) or m.group(1))
    if last < first:
        raise ValueError(f"node range {text!r}: the last node is before the first")
    return first, last


def _save(fig: Figure, out) -> str:
    FigureCanvasAgg(fig)
    out = str(out)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    return out


def _boxes(start, end, first, last, scale, pad=0.4):
    """Rectangles (k, 4, 2) from time start..end over nodes first..last (included)."""
    x0, x1 = np.asarray(start, float) / scale, np.asarray(end, float) / scale
    y0, y1 = np.asarray(first, float) - pad, np.asarray(last, float) + pad
    return np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                     np.stack([x0, y1], 1)], 1)


def _clip(frame: pd.DataFrame, t0, t1, n0, n1, first="first_node", last="last_node"):
    """The rows that show in the window, their node runs cut to the node range."""
    keep = (frame["end_s"] > t0) & (frame["start_s"] < t1) & (frame[last] >= n0) & \
        (frame[first] <= n1)
    out = frame[keep].copy()
    out[first] = out[first].clip(lower=n0)
    out[last] = out[last].clip(upper=n1)
    out["start_s"] = out["start_s"].clip(lower=t0)
    out["end_s"] = out["end_s"].clip(upper=t1)
    return out


def _repairs(r: Records, down: pd.DataFrame | None) -> pd.DataFrame:
    """When each failed node is back: the end of each of its down periods (several failures of
    a node that is already down make one period, which ends at the latest repair). Periods the
    run's end cuts have no repair."""
    if down is not None:
        back = down[down["closed"]]
        return pd.DataFrame({"node": back["node"], "time_s": back["end_s"]})
    rows = []
    f = r["failures"].sort_values(["node", "time_s"], kind="stable")
    for node, g in f.groupby("node", sort=True):
        end = None
        for t, rep in zip(g["time_s"], g["repair_s"]):
            if end is not None and t > end:
                rows.append((node, end))
                end = rep
            else:
                end = rep if end is None else max(end, rep)
        rows.append((node, end))
    out = pd.DataFrame(rows, columns=["node", "time_s"])
    return out[out["time_s"] <= r.attrs["end_s"]]


def plot_gantt(r: Records, out, title: str | None = None, window=None, nodes=None) -> str:
    """gantt_figure(...) written to `out`; returns its path."""
    return _save(gantt_figure(r, title, window, nodes), out)


def gantt_figure(r: Records, title: str | None = None, window=None, nodes=None) -> Figure:
    """Nodes (rows) over time: job boxes labelled with their id where the label fits (hatched
    red where the attempt was cut by a failure), nodes held by a suspended job in its colour,
    hatched, down periods in grey with a red cross at each failure and a green bar when the
    node is back, and arrows for migrations (from the old node to the new). `window` is
    (start_s, end_s) of simulated time, `nodes` (first, last): the part to draw."""
    n_all = int(r.attrs["nodes"])
    t0, t1 = window if window is not None else (r.attrs["start_s"], r.attrs["end_s"])
    n0, n1 = nodes if nodes is not None else (0, n_all - 1)
    if not t1 > t0:
        raise ValueError(f"time window {t0:g} s .. {t1:g} s: the end must be after the start")
    if n0 < 0 or n1 >= n_all:
        raise ValueError(f"node range {n0}-{n1}: the machine has nodes 0-{n_all - 1}")
    scale, unit = time_unit(t1 - t0)
    shown = n1 - n0 + 1
    fig = Figure(figsize=(8.0 if len(r["jobs"]) <= 40 else 12.0,
                          max(2.5, min(10.0, 0.3 * shown + 1.5))))
    ax = fig.add_subplot(1, 1, 1)
    ids = r["jobs"].set_index("index")["id"] if "jobs" in r else None
    if "attempts" in r:
        spans = job_intervals(r)
        spans["last_node"] = spans["first_node"] + spans["count"] - 1
        spans = _clip(spans, t0, t1, n0, n1)
        verts = _boxes(spans["start_s"], spans["end_s"], spans["first_node"], spans["last_node"],
                       scale)
        dense = len(spans) > 300
        ax.add_collection(PolyCollection(
            verts, facecolors=_colors(spans["job"]), alpha=0.9,
            edgecolors="black" if not dense else "face", linewidths=0.5 if not dense else 0.0))
        cut = (spans["end_name"] == "failure").to_numpy()
        if cut.any():
            ax.add_collection(PolyCollection(verts[cut], facecolors="none", edgecolors="red",
                                             hatch="//", linewidths=0.0))
        _labels(fig, ax, spans, verts, ids, (t1 - t0) / scale, shown)
    down = None
    if "nodes" in r:
        iv = node_intervals(r)
        iv["first"] = iv["last"] = iv["node"]
        down = iv[iv["state"] == "down"]
        for state, face, hatch in (("down", "0.75", None), ("held", None, ".."),
                                   ("spare", "lightcyan", None)):
            part = _clip(iv[iv["state"] == state], t0, t1, n0, n1, "first", "last")
            if part.empty:
                continue
            verts = _boxes(part["start_s"], part["end_s"], part["node"], part["node"], scale, 0.45)
            fc = _colors(part["job"]) if face is None else face
            ax.add_collection(PolyCollection(verts, facecolors=fc, alpha=0.45 if hatch else 1.0,
                                             edgecolors="0.4", linewidths=0.4, hatch=hatch,
                                             zorder=0.5))
    if "failures" in r:
        f = r["failures"]
        f = f[(f["time_s"] >= t0) & (f["time_s"] <= t1) & f["node"].between(n0, n1)]
        ax.scatter(f["time_s"] / scale, f["node"], marker="x", color="red",
                   s=60 if shown <= 64 else 12, zorder=5)
        back = _repairs(r, down)
        back = back[(back["time_s"] >= t0) & (back["time_s"] <= t1) & back["node"].between(n0, n1)]
        ax.add_collection(LineCollection(
            [[(t / scale, n - 0.45), (t / scale, n + 0.45)] for t, n in
             zip(back["time_s"], back["node"])], colors="green", linewidths=2, zorder=5))
    if "decisions" in r:
        m = r["decisions"][r["decisions"]["kind_name"] == "move"]
        m = m[(m["time_s"] >= t0) & (m["time_s"] <= t1)]
        m = m[m["node_from"].between(n0, n1) | m["node_to"].between(n0, n1)]
        if len(m):
            ax.quiver(m["time_s"] / scale, m["node_from"], np.zeros(len(m)),
                      m["node_to"] - m["node_from"], angles="xy", scale_units="xy", scale=1,
                      color="blue", width=0.002, zorder=6)
    ax.set_xlim(t0 / scale, t1 / scale)
    ax.set_ylim(n0 - 0.6, n1 + 0.6)
    if shown <= 32:
        ax.set_yticks(range(n0, n1 + 1))
    else:
        ax.yaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.set_xlabel(f"time [{unit}]")
    ax.set_ylabel("node")
    ax.set_title(title or "schedule")
    ax.legend(handles=[Patch(facecolor="0.75", edgecolor="0.4", label="down"),
                       Patch(facecolor="tab:blue", alpha=0.45, edgecolor="0.4", hatch="..",
                             label="held by a suspended job"),
                       Patch(facecolor="white", edgecolor="red", hatch="//",
                             label="cut by a failure"),
                       Line2D([], [], marker="x", color="red", linestyle="", label="failure"),
                       Line2D([], [], color="green", linewidth=2, label="node back (repair)"),
                       Line2D([], [], color="blue", marker=">", label="migration")],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return fig


def _labels(fig, ax, spans, verts, ids, width_units, shown):
    """Job ids on the boxes wide and tall enough to hold them (the largest first, at most
    MAX_LABELS): a dense chart stays readable instead of a mass of overlapping digits."""
    if ids is None or spans.empty:
        return
    w_in, h_in = fig.get_figwidth() * 0.8, fig.get_figheight() * 0.8
    px_w = (verts[:, 1, 0] - verts[:, 0, 0]) / width_units * w_in * 72  # in points
    px_h = (verts[:, 2, 1] - verts[:, 1, 1]) / (shown + 0.2) * h_in * 72
    text = ids.reindex(spans["job"]).astype(str).to_numpy()
    fits = (px_w >= 5.0 * np.char.str_len(text.astype(str)) + 4) & (px_h >= 8)
    order = np.argsort(-(px_w * px_h) * fits, kind="stable")[:MAX_LABELS]
    for k in order[fits[order]]:
        ax.text((verts[k, 0, 0] + verts[k, 1, 0]) / 2, (verts[k, 1, 1] + verts[k, 2, 1]) / 2,
                text[k], ha="center", va="center", fontsize=7, clip_on=True)


def plot_timeline(r: Records, out, title: str | None = None) -> str:
    """Busy nodes (as a fraction of the machine) and the number of waiting jobs over time."""
    frame = busy_and_queue(r)
    fig = Figure(figsize=(8, 4.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    scale, unit = time_unit(r.attrs["end_s"] - r.attrs["start_s"])
    t = frame["time_s"] / scale
    top.step(t, frame["busy"] / r.attrs["nodes"], where="post", color="tab:blue")
    top.set_ylabel("busy nodes [fraction]")
    top.set_ylim(0, 1.05)
    bottom.step(t, frame["waiting"], where="post", color="tab:orange")
    bottom.set_ylabel("waiting jobs")
    bottom.set_xlabel(f"time [{unit}]")
    if "failures" in r:
        for x in r["failures"]["time_s"] / scale:
            top.axvline(x, color="red", linewidth=0.5, alpha=0.5)
    top.set_title(title or "utilization and queue length")
    return _save(fig, out)


def plot_wait_vs_size(r: Records, out, title: str | None = None) -> str:
    """Each completed job's time in the queue (all waits) against its size."""
    jobs = r["jobs"][r["jobs"]["state_name"] == "done"]
    fig = Figure(figsize=(6, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    scale, unit = time_unit(jobs["wait_s"].max() if len(jobs) else 0.0)
    hit = jobs["failures"] > 0
    ax.scatter(jobs.loc[~hit, "size"], jobs.loc[~hit, "wait_s"] / scale, s=12, alpha=0.6,
               label="no failure")
    ax.scatter(jobs.loc[hit, "size"], jobs.loc[hit, "wait_s"] / scale, s=18, alpha=0.8,
               color="red", label="hit by a failure")
    if len(jobs) and jobs["size"].max() / max(1, jobs["size"].min()) > 30:
        ax.set_xscale("log")
    ax.set_xlabel("size [nodes]")
    ax.set_ylabel(f"wait [{unit}]")
    ax.legend(fontsize=8)
    ax.set_title(title or "wait against size")
    return _save(fig, out)
