"""Why Gottumukkala §6.4's RA-Opt result does not reproduce here: the Ch. 6 comparison under the
assumptions the thesis leaves open, one at a time (jobs/gottumukkala/ch6_sensitivity.toml).

    python3 analysis/reproduce/gottumukkala.py ch6_study results/gottumukkala/ch6_sensitivity.h5

Variants are the points' non-policy parameters with the trace seed taken out (a trace file
"..._x<F>_<seed>.csv" or "..._<seed>.csv" is node-reliability factor F, default 1): serial
fraction and speedup law of the moldable jobs, job count, node scale factor. For each variant:
the RPD of RA-Opt (100 (T_i - T_o) / T_o; positive = RA-Opt better) in MCT and MWT per unit run
length against ALL, RR and RA, mean over pairs with a paired 95 % CI, beside the thesis; and what
explains it: the mean size each technique runs a job on, the interrupted executions, and the
completion time of the > 1 day jobs (category F).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

try:
    from reproduce.gottumukkala_alloc import THESIS_6, long_frame, paired_ci
except ImportError:  # run from gottumukkala.py as a script (its folder is on sys.path)
    from gottumukkala_alloc import THESIS_6, long_frame, paired_ci

TECHNIQUES = ["ALL", "RR", "RA"]
EXPLAIN = ["mean_job_size", "job_failures", "act_s_F"]
# Short names of the workload keys in the variant labels ("" = the value alone).
SHORT = {"serial_fraction": "f", "speedup": "", "inject_long_jobs": "long", "jobs": "jobs"}


def trace_variant(path: str) -> str:
    """The node set of a trace file, its seed dropped: "..._<seed>.csv" -> "x1" (the fitted nodes),
    "..._x<F>_<seed>.csv" -> "x<F>" (scales times F), "..._<tag>_<seed>.csv" -> "<tag>"."""
    name = Path(str(path)).name
    m = re.search(r"^ch6_trace_(.+)_\d+\.csv$", name)
    return m.group(1) if m else "x1"


def variant_frame(r):
    """long_frame of the RPD and explanation metrics plus a readable variant label (pair minus
    replica and trace seed)."""
    metrics = ["mct_unit", "mwt_unit"] + EXPLAIN
    df = long_frame(r, metrics)
    pair_axes = [a for a in r.axes if a not in ("allocator", "reliability_law", "moldable_size")]

    def label(pair) -> str:
        parts = []
        for a, v in zip(pair_axes, pair[:-1]):
            if a == "failures.file":
                parts.append(f"nodes {trace_variant(v)}")
            elif a.startswith("workload."):
                key = SHORT.get(a[len("workload."):], a[len("workload."):])
                v = f"{v:g}" if isinstance(v, float) else v
                parts.append(f"{key}={v}" if key else str(v))
            else:
                parts.append(f"{a}={v}")
        return ", ".join(parts)

    df["variant"] = [label(p) for p in df["pair"]]
    return df


def summarise(df) -> list[dict]:
    """One dict per variant (in order of first appearance): RPDs with CIs and the explanations."""
    out = []
    for variant in dict.fromkeys(df["variant"]):
        d = df[df["variant"] == variant]
        row = {"variant": variant}
        for m in ("mct_unit", "mwt_unit"):
            wide = d.pivot_table(index="pair", columns="technique", values=m)
            row["pairs"] = len(wide)
            for t in TECHNIQUES:
                if t in wide and "RA-Opt" in wide:
                    rpd = 100 * (wide[t] - wide["RA-Opt"]) / wide["RA-Opt"]
                    row[(m, t)] = paired_ci(rpd.to_numpy())
                    # RPD of the means over pairs: stable where RA-Opt's value nears 0 in a pair
                    row[(m, t, "pooled")] = 100 * (wide[t].mean() / wide["RA-Opt"].mean() - 1)
        g = d.groupby("technique")[EXPLAIN].mean()
        row["explain"] = g
        out.append(row)
    return out


def _ci(est) -> str:
    mu, h, _ = est
    if not np.isfinite(h):
        return f"{mu:+.0f} %"
    return f"{mu:+.0f} % [{mu - h:+.0f}, {mu + h:+.0f}]"


def print_study(rows) -> None:
    print("Ch. 6 study: RPD of RA-Opt = 100 (T_i - T_o) / T_o, positive = RA-Opt better; mean over "
          "pairs [paired 95 % CI] (RPD of the means over pairs)")
    for m, name in (("mct_unit", "MCT"), ("mwt_unit", "MWT")):
        print(f"\n{name} (thesis: " + ", ".join(f"vs {t} {THESIS_6[m][t]:+.0f} %" for t in TECHNIQUES)
              + ")")
        print(f"{'variant':44s} {'pairs':>5s}  " + "  ".join(f"{'vs ' + t:>32s}" for t in TECHNIQUES))
        for row in rows:
            cells = [f"{_ci(row[(m, t)])} ({row[(m, t, 'pooled')]:+.0f} %)" if (m, t) in row else "-"
                     for t in TECHNIQUES]
            print(f"{row['variant']:44s} {row['pairs']:5d}  " + "  ".join(f"{c:>32s}" for c in cells))
    print("\nWhy: mean size a job ran on (nodes) | interrupted executions | ACT of > 1 day jobs (h)")
    order = ["ALL", "RR", "RA", "RA-Opt"]
    print(f"{'variant':44s} " + " ".join(f"{t:>7s}" for t in order) + " | " +
          " ".join(f"{t:>7s}" for t in order) + " | " + " ".join(f"{t:>7s}" for t in order))
    for row in rows:
        g = row["explain"]

        def cells(col, scale=1.0, fmt="{:7.0f}"):
            return " ".join(fmt.format(g.loc[t, col] / scale) if t in g.index else f"{'-':>7s}"
                            for t in order)
        print(f"{row['variant']:44s} {cells('mean_job_size')} | {cells('job_failures')} | "
              f"{cells('act_s_F', 3600.0)}")


def ch6_study(path, out: Path, open_results) -> int:
    r = open_results(path)
    df = variant_frame(r)
    rows = summarise(df)
    print_study(rows)
    return 0
