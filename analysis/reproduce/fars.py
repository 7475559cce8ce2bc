"""Reproduce Li, Lan, Gujrati, Sun, "Fault-Aware Runtime Strategies for HPC" (FARS), TPDS 2009:
Figs. 4-10 and a table of ours beside every number the paper prints.

    python3 analysis/reproduce/fars.py baseline FILE.h5 [--name exp|weibull|trace] [--out DIR]
    python3 analysis/reproduce/fars.py sweep FILE.h5 --axis AXIS [--out PNG]
    python3 analysis/reproduce/fars.py heatmap GRID.h5 BASELINE.h5 [--name ...] [--out PNG]
    python3 analysis/reproduce/fars.py table RESULTS_DIR
    python3 analysis/reproduce/fars.py sensitivity DIR [--baseline BASELINE.h5]   (fars_gap.py)

Files are what jobs/fars/*.toml write: every file has the string axis `strategy` (none = plain
FCFS/EASY, sul_d, jfr_d, fsd_d); any other axes (e.g. workload.target_load, failures.mean) make
groups, compared separately. Within a group and a replica all strategies saw the same jobs and
failures (common random numbers), so gains are paired per replica (kiviat.replica_gains) and
reported with Student-t 95 % CIs; "of means" is the paper's way (K of the mean metrics).

baseline   Figs. 4, 5, 9: bars of Resp, Util, Thru, SUL, JFR (labelled with failed jobs), FSD
           per strategy with 95 % CIs (<out>/<name>_bars[_g].png), Kiviat graphs
           (<name>_kiviat[_g].png), and the composite gains beside the paper's.
sweep      Figs. 6, 7: per-axis gains of every metric for each strategy (a, b) and composite
           gains (c) against AXIS (durations are shown in days).
heatmap    Figs. 8, 10: SUL-D's composite gain over FCFS/EASY on the predictor.precision x
           predictor.recall grid. The grid file holds only strategy = sul_d; the FCFS/EASY
           replicas come from BASELINE.h5, which must share the seed and every parameter except
           strategy and predictor.* (checked), so replica r of both saw the same jobs/failures.
table      Runs all of the above on RESULTS_DIR/{baseline_exp, baseline_weibull, load_exp,
           load_weibull, mtbf_exp, mtbf_weibull, precision_recall_exp, precision_recall_weibull,
           trace, trace_precision_recall}.h5 (those present) and prints ours beside the paper.

Exit status: 0 success, 2 bad arguments or unusable file.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

try:
    import reproduce  # noqa: F401  (the package holding this module's siblings)
except ImportError:  # run as a script from a checkout: analysis/ is the package root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from faultsweep_analysis import kiviat as kv
from reproduce import fars_gap
# Re-exported: the tests use them as fars.<name>.
from reproduce.fars_data import (  # noqa: F401
    BARS, LABEL, ORDER, PAPER_GAIN, STRATEGY, UsageError, group_gains, groups, heatmap_gains,
    kiviat_values, load, metric_estimate, sweep_table)


# ------------------------------------------------------------------------------------ baseline
def cmd_baseline(res, name, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paper = PAPER_GAIN.get(name, {})
    lines = []
    all_groups = groups(res)
    for g, (label, _, members) in enumerate(all_groups):
        suffix = f"_{g}" if len(all_groups) > 1 else ""
        gains = group_gains(res, members)
        lines.append(f"{name} {label or '(one group)'}: composite gain over FCFS/EASY")
        lines.append(f"  {'strategy':8} {'ours, paired [95 % CI]':34} {'of means':>9} {'paper':>8}")
        for s, (est, of_means) in gains.items():
            pp = f"{paper[s]:.2f} %" if s in paper else "-"
            lines.append(f"  {LABEL[s]:8} {est.pct():34} {100 * of_means:8.2f} % {pp:>8}")
        fig, axes = plt.subplots(2, 3, figsize=(11, 6))
        for ax, (metric, title) in zip(axes.flat, BARS):
            ests = [metric_estimate(res, metric, p) for _, p in members]
            means = [e.mean for e in ests]
            err = [[e.mean - e.lo if e.n > 1 else 0 for e in ests],
                   [e.hi - e.mean if e.n > 1 else 0 for e in ests]]
            bars = ax.bar([LABEL.get(s, s) for s, _ in members], means, yerr=err, capsize=3)
            if metric == "jfr" and "jobs" in res.metrics:
                failed = [np.nanmean(res.results("jfr")[p] * res.results("jobs")[p])
                          for _, p in members]
                ax.bar_label(bars, labels=[f"{f:.0f}" for f in failed], fontsize=7)
            ax.set_title(title, fontsize=9)
        printed = ", ".join(f"{LABEL[k]} {v:.2f} %" for k, v in paper.items())
        fig.suptitle(f"FARS, {name} failures{', ' + label if label else ''}: each metric per "
                     "strategy (mean, 95 % CI)\n" + (f"the paper prints only the composite gains "
                     f"over FCFS: {printed}" if printed else "the paper prints no values here"),
                     fontsize=9)
        fig.tight_layout()
        fig.savefig(out_dir / f"{name}_bars{suffix}.png", dpi=120)
        plt.close(fig)
        v = kv.scale_axes(np.nanmean(kiviat_values(res, members), axis=1), method_axis=0)
        fig = plt.figure(figsize=(5, 5))
        ax = fig.add_subplot(111, projection="polar")
        kv.plot_kiviat(ax, {LABEL.get(s, s): v[i] for i, (s, _) in enumerate(members)},
                       f"Kiviat ({name}) {label}")
        ax.legend(loc="lower right", fontsize=7, bbox_to_anchor=(1.25, -0.1))
        fig.savefig(out_dir / f"{name}_kiviat{suffix}.png", dpi=120, bbox_inches="tight")
        plt.close(fig)
        # The raw numbers the paper quotes for the baseline (§6.1.1).
        for s, p in members:
            resp = metric_estimate(res, "mean_response_s", p)
            sul = metric_estimate(res, "sul_node_hours", p)
            failed = (kv.estimate(res.results("jfr")[p] * res.results("jobs")[p])
                      if "jobs" in res.metrics else None)
            lines.append(f"  {LABEL.get(s, s):8} Resp {resp.mean:9.0f} s"
                         f"  SUL {sul.mean:9.0f} node-h"
                         + (f"  failed jobs {failed.mean:6.0f}" if failed else ""))
        lines.append("  paper: Resp 19,400+ s (FCFS) -> ~18,000 s; failed jobs 600+ -> ~400; "
                     "SUL cut by > 2,000 CPU-h; each strategy best on its own metric")
        best = {m: min(members, key=lambda sp: np.nanmean(res.results(m)[sp[1]]))[0]
                for m in ("sul_node_hours", "jfr", "fsd")}
        lines.append(f"  ours: lowest SUL {LABEL.get(best['sul_node_hours'])}, lowest JFR "
                     f"{LABEL.get(best['jfr'])}, lowest FSD {LABEL.get(best['fsd'])}")
    return lines


def claim_lines(kind, xs, rows, strategies):
    """Ours for the claims of §6.1.2 (load) and §6.1.3 (node MTBF, xs in days)."""
    out = []
    for s in strategies:
        g = {x: 100 * r[1][s].mean for x, r in zip(xs, rows)}
        if kind == "load":
            low = [v for x, v in g.items() if x <= 0.7 + 1e-9]
            out.append(f"  ours {LABEL[s]}: min over load <= 0.7 {min(low):.1f} %, at load "
                       f"{max(g):g} {g[max(g)]:.1f} %" if low else f"  ours {LABEL[s]}: -")
        else:
            above = [v for x, v in g.items() if x > 14 + 1e-9]
            near = min(g, key=lambda x: abs(x - 14))
            out.append(f"  ours {LABEL[s]}: min for MTBF > 14 d "
                       f"{min(above) if above else math.nan:.1f} %, at {near:g} d {g[near]:.1f} %, "
                       f"at {min(g):g} d {g[min(g)]:.1f} %")
    return out


AXIS_WORDS = {"workload.target_load": "offered load", "failures.mean": "node MTBF",
              "failures.node_mtbf": "node MTBF"}
# (x from, x to, gain %, legend): the lower bounds the paper's text prints for Figs. 6 and 7.
PAPER_BOUNDS = {"load": ((0.0, 0.7, 30.0, "paper: gain >= 30 % up to load 0.7"),
                         (0.85, 1.0, 15.0, "paper: >= 15 % at the highest load")),
                "mtbf": ((14.0, 1e9, 30.0, "paper: > 30 % above 14 d"),
                         (13.5, 14.5, 20.0, "paper: > 20 % at 14 d"))}


def cmd_sweep(res, axis, out, kind=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sweep_table(res, axis)
    seconds = res.units(axis) == "s"
    xs = np.array([r[0] / 86400.0 if seconds else r[0] for r in rows])
    strategies = [s for s in ORDER if s != "none" and s in rows[0][1]]
    fig, axes = plt.subplots(1, len(strategies) + 1, figsize=(4 * (len(strategies) + 1), 3.6))
    for ax, s in zip(axes, strategies):
        for a, name in enumerate(kv.AXES):
            m = [100 * r[2][s][a].mean for r in rows]
            ax.plot(xs, m, marker="o", ms=3, label=kv.AXIS_LABELS[name])
        ax.set_title(f"{LABEL[s]}: gain per metric (%)", fontsize=9)
    axes[0].legend(fontsize=6)
    ax = axes[-1]
    for s in strategies:
        e = [r[1][s] for r in rows]
        ax.errorbar(xs, [100 * x.mean for x in e],
                    yerr=[[100 * (x.mean - x.lo) for x in e], [100 * (x.hi - x.mean) for x in e]],
                    marker="o", ms=3, capsize=2, label=LABEL[s])
    # The paper prints bounds for this panel (§6.1.2-6.1.3's text), drawn where they apply.
    for x0, x1, y, text in PAPER_BOUNDS.get(kind, ()):
        ax.hlines(y, max(x0, xs.min()), min(x1, xs.max()), colors="r", linestyles="--", lw=1.2,
                  label=text)
    ax.set_title("composite (Kiviat) gain over FCFS/EASY (%)", fontsize=9)
    ax.legend(fontsize=7)
    words = AXIS_WORDS.get(axis, axis)
    for a in axes:
        a.set_xlabel(f"{words} ({'days' if seconds else res.units(axis) or 'fraction'})",
                     fontsize=8)
        a.axhline(0, color="k", lw=0.5)
        if seconds:
            a.set_xscale("log")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    lines = [f"{res.path.name}: composite gain over FCFS/EASY against {axis}"]
    for x, r in zip(xs, rows):
        lines.append(f"  {x:9.4g}  " + "  ".join(f"{LABEL[s]} {r[1][s].pct(1)}" for s in strategies))
    lines.append("  FCFS/EASY raw (Tables 4-5): " + ", ".join(t for _, t in BARS))
    for x, r in zip(xs, rows):
        lines.append(f"  {x:9.4g}  " + "  ".join(f"{r[3][m]:.4g}" for m, _ in BARS))
    if kind:
        lines += claim_lines(kind, list(xs), rows, strategies)
    return lines


def cmd_heatmap(grid, base, name, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    gains = heatmap_gains(grid, base)
    ps = sorted({k[0] for k in gains})
    rs = sorted({k[1] for k in gains})
    z = np.array([[100 * gains.get((p, r), kv.Estimate(math.nan, 0, 0, 0)).mean for r in rs]
                  for p in ps])
    fig, ax = plt.subplots(figsize=(6, 5))
    im = ax.imshow(z, origin="lower", cmap="RdYlGn", aspect="auto",
                   extent=(rs[0] - 0.05, rs[-1] + 0.05, ps[0] - 0.05, ps[-1] + 0.05))
    for i, p in enumerate(ps):
        for j, r in enumerate(rs):
            ax.text(r, p, f"{z[i, j]:.0f}", ha="center", va="center", fontsize=6)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_title(f"SUL-D composite gain over FCFS/EASY (%), {name}", fontsize=9)
    fig.colorbar(im)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    lines = [f"{name}: SUL-D composite gain on the precision x recall grid"]
    top = gains.get((ps[-1], rs[-1]))
    low = gains.get((ps[0], rs[0]))
    ok = [g.mean for (p, r), g in gains.items() if p >= 0.2 - 1e-9 and r >= 0.2 - 1e-9]
    lines.append(f"  perfect ({ps[-1]}, {rs[-1]}): {top.pct(1) if top else '-'}"
                 f"   paper: > 50 % (synthetic), 53 % (trace)")
    lines.append(f"  ({ps[0]}, {rs[0]}): {low.pct(1) if low else '-'}   paper: -4 % (trace)")
    lines.append(f"  smallest gain with precision, recall >= 0.2: "
                 f"{100 * min(ok):.1f} %   paper: > 0 (Fig. 8)" if ok else "  (no cell >= 0.2)")
    return lines


# ------------------------------------------------------------------------------------ table
SWEEP_CLAIMS = {
    "load": ("workload.target_load", "paper: >= 30 % up to load 0.7, >= 15 % at 0.95 (Fig. 6c)"),
    "mtbf": (None, "paper: > 30 % for node MTBF > 14 d, > 20 % near 14 d, falling fast below "
                   "7 d; SUL/JFR gains 50 % -> 20 % (Fig. 7)"),
}


def cmd_table(results_dir, out_dir=None):
    d = Path(results_dir)
    if not d.is_dir():
        raise UsageError(f"{d}: not a directory")
    out_dir = Path(out_dir) if out_dir else d / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    lines, found = [], 0
    for name in ("exp", "weibull", "trace"):
        f = d / (f"baseline_{name}.h5" if name != "trace" else "trace.h5")
        if f.exists():
            found += 1
            lines += cmd_baseline(load(f), name, out_dir)
    for kind, (axis, claim) in SWEEP_CLAIMS.items():
        for law in ("exp", "weibull"):
            f = d / f"{kind}_{law}.h5"
            if f.exists():
                found += 1
                res = load(f)
                ax = axis or next(a for a in res.axes if a != STRATEGY)
                lines += cmd_sweep(res, ax, out_dir / f"{kind}_{law}.png", kind) + [f"  {claim}"]
    for name, grid, base in (("exp", "precision_recall_exp", "baseline_exp"),
                             ("weibull", "precision_recall_weibull", "baseline_weibull"),
                             ("trace", "trace_precision_recall", "trace")):
        if (d / f"{grid}.h5").exists() and (d / f"{base}.h5").exists():
            found += 1
            lines += cmd_heatmap(load(d / f"{grid}.h5", False), load(d / f"{base}.h5"), name,
                                 out_dir / f"{grid}.png")
    if not found:
        raise UsageError(f"{d}: none of the jobs/fars result files found")
    return lines + fars_gap.paper_lines(d)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("baseline", help="Figs. 4, 5, 9: bars, Kiviat, composite gains")
    b.add_argument("file")
    b.add_argument("--name", default="exp", choices=sorted(PAPER_GAIN))
    b.add_argument("--out", default=".")
    s = sub.add_parser("sweep", help="Figs. 6, 7: gains against an axis")
    s.add_argument("file")
    s.add_argument("--axis", required=True)
    s.add_argument("--out", default="sweep.png")
    h = sub.add_parser("heatmap", help="Figs. 8, 10: SUL-D gain over precision x recall")
    h.add_argument("grid")
    h.add_argument("baseline")
    h.add_argument("--name", default="exp")
    h.add_argument("--out", default="heatmap.png")
    t = sub.add_parser("table", help="every number the paper prints, ours beside")
    t.add_argument("results_dir")
    t.add_argument("--out", default=None)
    g = sub.add_parser("sensitivity", help="gain per rebuilt Table-3 choice (fars_gap.py)")
    g.add_argument("directory")
    g.add_argument("--baseline", default=None)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "baseline":
            lines = cmd_baseline(load(args.file), args.name, args.out)
        elif args.cmd == "sweep":
            lines = cmd_sweep(load(args.file), args.axis, args.out)
        elif args.cmd == "heatmap":
            lines = cmd_heatmap(load(args.grid, False), load(args.baseline), args.name, args.out)
        elif args.cmd == "sensitivity":
            lines = fars_gap.cmd_sensitivity(args.directory, args.baseline)
        else:
            lines = cmd_table(args.results_dir, args.out)
    except (UsageError, KeyError) as e:
        print(f"fars.py: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
