"""FARS's spare pool on the trace, measured (jobs/fars/sensitivity/load_trace.toml): per load and
strategy the mean pool per invocation, how often a tick with suspicious jobs found it empty, the
suspicious jobs left where they were, and the composite gain. The trace claims' explanation is
written from these numbers, not typed."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from reproduce import fars_data as fd
from reproduce.report.rows import Table, fmt

LOAD = "workload.target_load"
METRICS = ("fars_pool_nodes", "fars_pool_empty", "fars_unmoved_jobs")


def pool_rows(path: Path) -> list[dict]:
    """One dict per (load, strategy != none): load, strategy, pool, empty, unmoved, gain."""
    res = fd.load(path)
    if LOAD not in res.axes or any(m not in res.metrics for m in METRICS):
        return []
    out = []
    for _, fixed, members in fd.groups(res):
        gains = fd.group_gains(res, members)
        for s, p in members:
            if s == "none":
                continue
            out.append({"load": float(fixed[LOAD]), "strategy": s,
                        "pool": fd.metric_estimate(res, "fars_pool_nodes", p).mean,
                        "empty": fd.metric_estimate(res, "fars_pool_empty", p).mean,
                        "unmoved": fd.metric_estimate(res, "fars_unmoved_jobs", p).mean,
                        "gain": gains[s][0]})
    out.sort(key=lambda r: (r["load"], fd.ORDER.index(r["strategy"])))
    return out


def pool_table(rows: list[dict]) -> Table:
    body = [[fmt(r["load"], 2), fd.LABEL[r["strategy"]], fmt(r["pool"], 3),
             f"{100 * r['empty']:.0f} %", fmt(r["unmoved"], 3), r["gain"].pct(1)] for r in rows]
    return Table("The spare pool on the trace by load (jobs/fars/sensitivity/load_trace.toml)",
                 ["failure-free load", "strategy", "spare pool (nodes, mean per tick)",
                  "ticks with suspicious jobs and no spare", "suspicious jobs not moved (per replica)",
                  "composite gain over FCFS/EASY"],
                 body, "spare-pool",
                 "replica means; the gain with its paired 95 % CI")


def trace_explanation(rows: list[dict]) -> str | None:
    """Why FARS gains little on the trace, from the highest load measured (the trace's own)."""
    if not rows:
        return None
    top = max(r["load"] for r in rows)
    at = [r for r in rows if r["load"] == top]
    pool = np.mean([r["pool"] for r in at])
    lo, hi = (round(100 * f(r["empty"] for r in at)) for f in (min, max))
    empty = f"{lo}" if lo == hi else f"{lo}-{hi}"
    unmoved = np.mean([r["unmoved"] for r in at])
    low = min(r["load"] for r in rows)
    at_low = [r for r in rows if r["load"] == low]
    low_pool = np.mean([r["pool"] for r in at_low])
    low_gain = next((r["gain"] for r in at_low if r["strategy"] == "sul_d"), at_low[0]["gain"])
    return (f"measured on the trace at load {top:g}: FARS's spare pool averages {pool:.0f} nodes "
            f"per tick and is empty at {empty} % of the ticks with suspicious jobs, so about "
            f"{unmoved:.0f} suspicious jobs per replica stay where they are; at load {low:g} the "
            f"pool averages {low_pool:.0f} nodes and the composite gain is {low_gain.pct(1)} "
            f"(SUL-D), so a large pool alone does not make FARS gain on this trace (see the "
            f"spare-pool table)")

__all__ = ["pool_rows", "pool_table", "trace_explanation"]
