"""Figures of one recorded replica (records.py): a Gantt chart (nodes x time, jobs as boxes,
failures and repairs marked, migrations drawn), busy nodes and queue length over time, and
each job's wait against its size. Drawn on matplotlib's Agg canvas (no pyplot); each writes the
file it is given (PNG, SVG or PDF by its suffix). Times are shown in hours.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .records import Records, busy_and_queue

H = 3600.0


def _save(fig: Figure, out) -> str:
    FigureCanvasAgg(fig)
    out = str(out)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    return out


def _job_boxes(ax, r: Records, colors):
    """One box per (attempt, run of consecutive nodes), labelled with the job's id."""
    att = r["attempts"].set_index(["job", "attempt"])
    ids = r["jobs"].set_index("index")["id"]
    for a in r["allocations"].itertuples(index=False):
        row = att.loc[(a.job, a.attempt)]
        start, end = row["start_s"] / H, row["end_s"] / H
        color = colors(a.job % 20)
        ax.add_patch(Rectangle((start, a.first_node - 0.4), end - start, a.count - 0.2,
                               facecolor=color, edgecolor="black", linewidth=0.6, alpha=0.85))
        if end - start > 0:
            ax.text((start + end) / 2, a.first_node + (a.count - 1) / 2, str(ids[a.job]),
                    ha="center", va="center", fontsize=8, clip_on=True)
        if row["end_name"] == "failure":  # the work of this attempt since its checkpoint is lost
            ax.add_patch(Rectangle((start, a.first_node - 0.4), end - start, a.count - 0.2,
                                   facecolor="none", edgecolor="red", hatch="//", linewidth=0))


def plot_gantt(r: Records, out, title: str | None = None) -> str:
    """Nodes (rows) over time: job boxes labelled with their id (hatched red where the attempt
    was cut by a failure), down periods in grey from failure to repair with a red cross at the
    failure, and arrows for migrations (from the old node to the new)."""
    nodes = int(r.attrs["nodes"])
    fig = Figure(figsize=(max(6.0, min(16.0, 4 + 0.002 * len(r["jobs"]))),
                          max(2.5, min(12.0, 0.45 * nodes + 1.2))))
    ax = fig.add_subplot(1, 1, 1)
    colors = colormaps["tab20"]
    if "attempts" in r:
        _job_boxes(ax, r, colors)
    if "nodes" in r:
        from .records import node_intervals

        down = node_intervals(r)
        for d in down[down["state"] == "down"].itertuples(index=False):
            ax.add_patch(Rectangle((d.start_s / H, d.node - 0.45), (d.end_s - d.start_s) / H, 0.9,
                                   facecolor="0.75", edgecolor="0.4", linewidth=0.5, zorder=0))
    if "failures" in r:
        f = r["failures"]
        ax.scatter(f["time_s"] / H, f["node"], marker="x", color="red", s=60, zorder=5)
        for row in f.itertuples(index=False):
            ax.plot([row.repair_s / H] * 2, [row.node - 0.45, row.node + 0.45], color="green",
                    linewidth=2, zorder=5)
    if "decisions" in r:
        moves = r["decisions"][r["decisions"]["kind_name"] == "move"]
        for m in moves.itertuples(index=False):
            ax.annotate("", xy=(m.time_s / H, m.node_to), xytext=(m.time_s / H, m.node_from),
                        arrowprops=dict(arrowstyle="->", color="blue", linewidth=1.2), zorder=6)
    ax.set_xlim(r.attrs["start_s"] / H, r.attrs["end_s"] / H)
    ax.set_ylim(-0.6, nodes - 0.4)
    ax.set_yticks(range(nodes) if nodes <= 32 else np.linspace(0, nodes - 1, 9).astype(int))
    ax.set_xlabel("time [h]")
    ax.set_ylabel("node")
    ax.set_title(title or "schedule")
    ax.legend(handles=[Patch(facecolor="0.75", edgecolor="0.4", label="down"),
                       Patch(facecolor="white", edgecolor="red", hatch="//",
                             label="cut by a failure"),
                       Line2D([], [], marker="x", color="red", linestyle="", label="failure"),
                       Line2D([], [], color="green", linewidth=2, label="repair"),
                       Line2D([], [], color="blue", marker=">", label="migration")],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return _save(fig, out)


def plot_timeline(r: Records, out, title: str | None = None) -> str:
    """Busy nodes (as a fraction of the machine) and the number of waiting jobs over time."""
    frame = busy_and_queue(r)
    fig = Figure(figsize=(8, 4.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    t = frame["time_s"] / H
    top.step(t, frame["busy"] / r.attrs["nodes"], where="post", color="tab:blue")
    top.set_ylabel("busy nodes [fraction]")
    top.set_ylim(0, 1.05)
    bottom.step(t, frame["waiting"], where="post", color="tab:orange")
    bottom.set_ylabel("waiting jobs")
    bottom.set_xlabel("time [h]")
    if "failures" in r:
        for x in r["failures"]["time_s"] / H:
            top.axvline(x, color="red", linewidth=0.5, alpha=0.5)
    top.set_title(title or "utilization and queue length")
    return _save(fig, out)


def plot_wait_vs_size(r: Records, out, title: str | None = None) -> str:
    """Each completed job's time in the queue (all waits) against its size."""
    jobs = r["jobs"][r["jobs"]["state_name"] == "done"]
    fig = Figure(figsize=(6, 4.5))
    ax = fig.add_subplot(1, 1, 1)
    hit = jobs["failures"] > 0
    ax.scatter(jobs.loc[~hit, "size"], jobs.loc[~hit, "wait_s"] / H, s=12, alpha=0.6,
               label="no failure")
    ax.scatter(jobs.loc[hit, "size"], jobs.loc[hit, "wait_s"] / H, s=18, alpha=0.8, color="red",
               label="hit by a failure")
    if len(jobs) and jobs["size"].max() / max(1, jobs["size"].min()) > 30:
        ax.set_xscale("log")
    ax.set_xlabel("size [nodes]")
    ax.set_ylabel("wait [h]")
    ax.legend(fontsize=8)
    ax.set_title(title or "wait against size")
    return _save(fig, out)
