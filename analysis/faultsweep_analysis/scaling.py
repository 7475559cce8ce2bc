"""Cost curves from bench_scaling's CSV: jobs per CPU second against machine size and failures.

The slope per doubling is the least-squares slope of log2(CPU seconds per job) against
log2(nodes) (failure-free cases) or log2(failures per job) (cases with failures, per machine
size, then averaged): 1.0 means the cost per job doubles when the nodes (failures) double, 0 that
it does not grow.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

COLUMNS = ["queue", "allocator", "nodes", "failures_per_job", "jobs", "failures", "cpu_s",
           "jobs_per_cpu_s", "peak_rss_mib"]


def read_scaling(path) -> pd.DataFrame:
    frame = pd.read_csv(path)
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: not a bench_scaling CSV (missing columns {', '.join(missing)})")
    return frame


def _slope(x, cost) -> float:
    x, cost = np.log2(np.asarray(x, float)), np.log2(np.asarray(cost, float))
    return float(np.polyfit(x, cost, 1)[0]) if len(np.unique(x)) >= 2 else float("nan")


def slopes(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (queue, allocator): growth of the CPU cost per job per doubling of nodes and of
    failures per job, and the peak memory at the largest machine."""
    rows = []
    for (queue, alloc), g in frame.groupby(["queue", "allocator"], sort=False):
        g = g[g.jobs_per_cpu_s > 0]
        free = g[g.failures_per_job == 0]
        per_size = [_slope(s.failures_per_job, 1 / s.jobs_per_cpu_s)
                    for _, s in g[g.failures_per_job > 0].groupby("nodes")]
        per_size = [v for v in per_size if np.isfinite(v)]
        big = g[g.nodes == g.nodes.max()]
        rows.append({
            "queue": queue, "allocator": alloc,
            "slope_per_node_doubling": _slope(free.nodes, 1 / free.jobs_per_cpu_s),
            "slope_per_failure_doubling": float(np.mean(per_size)) if per_size else float("nan"),
            "largest_nodes": int(g.nodes.max()),
            "peak_rss_mib_largest": float(big.peak_rss_mib.max()),
        })
    return pd.DataFrame(rows)


def _jobs_per_s(v: float) -> str:
    return f"{v / 1e6:.2f} M" if v >= 1e6 else f"{v / 1e3:.0f}k" if v >= 1e4 else f"{v:,.0f}"


def markdown_table(frame: pd.DataFrame) -> str:
    """One row per (queue, allocator): failure-free jobs per CPU second at each machine size,
    the slopes per doubling and the peak memory at the largest size, as a Markdown table."""
    sizes = sorted(frame.nodes.unique())
    s = slopes(frame).set_index(["queue", "allocator"])
    head = (["queue + allocator"] + [f"{n:,} nodes (jobs/s)" for n in sizes]
            + ["per doubling of nodes", "per doubling of failures", "peak memory (MiB)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (queue, alloc), g in frame.groupby(["queue", "allocator"], sort=False):
        free = g[(g.failures_per_job == 0) & (g.jobs_per_cpu_s > 0)].set_index("nodes")
        row = s.loc[(queue, alloc)]
        cells = [f"{queue} + {alloc}"]
        cells += [_jobs_per_s(free.jobs_per_cpu_s[n]) if n in free.index else "—" for n in sizes]
        cells += [f"{row[c]:.2f}" if np.isfinite(row[c]) else "—"
                  for c in ("slope_per_node_doubling", "slope_per_failure_doubling")]
        cells.append(f"{row.peak_rss_mib_largest:.0f} ({int(row.largest_nodes):,} nodes)")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot_scaling(frame: pd.DataFrame, out_png) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    for (queue, alloc), g in frame[frame.failures_per_job == 0].groupby(["queue", "allocator"],
                                                                        sort=False):
        g = g.sort_values("nodes")
        left.plot(g.nodes, g.jobs_per_cpu_s, marker="o", label=f"{queue} + {alloc}")
    left.set(xscale="log", yscale="log", xlabel="nodes", ylabel="jobs per CPU second",
             title="without failures")
    left.legend(fontsize=7)
    base = frame[(frame.queue == "easy") & (frame.allocator == "first_fit") &
                 (frame.failures_per_job > 0)]
    for nodes, g in base.groupby("nodes"):
        g = g.sort_values("failures_per_job")
        right.plot(g.failures_per_job, g.jobs_per_cpu_s, marker="o", label=f"{nodes} nodes")
    right.set(xscale="log", yscale="log", xlabel="failures per job (nominal)",
              ylabel="jobs per CPU second", title="EASY + first fit with failures")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)
