"""FARS reproduction gap: how much each rebuilt Table-3 choice moves the composite
gains, and one table of ours beside every number Li, Lan, Gujrati and Sun (TPDS 2009) print.

    python3 analysis/reproduce/fars.py sensitivity RESULTS_DIR/sensitivity [--baseline B.h5]

Each file of jobs/fars/sensitivity/ varies one choice (its axes other than `strategy`) around
baseline_exp.toml's runtime-scaling case; every value of the choice is one group of the four
strategies on the same jobs and failures (paired gains, Student-t 95 % CIs over replicas). The
group whose FCFS/EASY parameters equal the baseline's (BASELINE.h5, default
RESULTS_DIR/../baseline_exp.h5) is marked `*`. The span of a choice is the largest minus the
smallest mean gain over its values, per strategy: the choices are listed by their largest span.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from reproduce import fars_data as fd

STRATEGIES = ("fsd_d", "sul_d", "jfr_d")
# Paper's composite gains (Figs. 4, 5 and 9 captions), the bar of the "must show".
PAPER_RANGE = (34.02, 37.34)


@dataclass
class Row:
    choice: str
    value: str
    baseline: bool
    gains: dict = field(default_factory=dict)  # strategy -> kiviat.Estimate (fraction)
    failed_jobs: float = float("nan")  # FCFS/EASY's, mean over replicas
    response_s: float = float("nan")


def format_value(x, unit):
    """An axis value for people: durations in s / min / h / d, numbers with %g, text as is."""
    if isinstance(x, str):
        return x
    x = float(x)
    if unit != "s":
        return f"{x:g}"
    for size, name in ((86400.0, "d"), (3600.0, "h"), (60.0, "min")):
        if x >= size:
            return f"{x / size:.3g} {name}"
    return f"{x:g} s"


def value_label(fixed, units):
    """'key=value, ...' of a group's axes, keys shortened to their last part unless two
    would then read the same (a zip of checkpoint_cost and fars.checkpoint_cost)."""
    short = [a.split(".")[-1] for a in fixed]
    names = [s if short.count(s) == 1 else a for s, a in zip(short, fixed)]
    return ", ".join(f"{n}={format_value(v, units(a))}" for n, (a, v) in zip(names, fixed.items()))


def params_key(text):
    """A point's canonical parameters without its strategy: equal keys = same jobs and
    failures per replica and the same FARS settings."""
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("strategy="))


def baseline_key(base):
    """params_key of the runtime-scaling FCFS/EASY point of a baseline file (None if absent)."""
    for p in range(len(base)):
        text = base.params[p]
        if str(base.points[fd.STRATEGY].iloc[p]) == "none" and 'workload.scale="runtimes"' in text:
            return params_key(text)
    return None


def sensitivity_rows(res, choice, base_key=None):
    """One Row per value of the file's choice (group of strategies), in file order."""
    rows = []
    for _, fixed, members in fd.groups(res):
        gains = fd.group_gains(res, members)
        none = dict(members)["none"]
        value = value_label(fixed, res.units)
        row = Row(choice, value, base_key is not None and params_key(res.params[none]) == base_key,
                  {s: gains[s][0] for s in STRATEGIES if s in gains})
        if "jobs" in res.metrics:
            row.failed_jobs = float(np.nanmean(res.results("jfr")[none] * res.results("jobs")[none]))
        row.response_s = float(np.nanmean(res.results("mean_response_s")[none]))
        rows.append(row)
    return rows


def spans(rows):
    """{choice: {strategy: largest - smallest mean gain (fraction) over the choice's values}}."""
    out = {}
    for r in rows:
        for s, e in r.gains.items():
            out.setdefault(r.choice, {}).setdefault(s, []).append(e.mean)
    return {c: {s: max(v) - min(v) for s, v in d.items()} for c, d in out.items()}


def best_rows(rows):
    """{strategy: the Row of largest mean gain}."""
    return {s: max((r for r in rows if s in r.gains), key=lambda r: r.gains[s].mean)
            for s in STRATEGIES if any(s in r.gains for r in rows)}


def sensitivity_lines(rows):
    sp = spans(rows)
    order = sorted(sp, key=lambda c: -max(sp[c].values()))
    table = []
    for c in order:
        for r in (r for r in rows if r.choice == c):
            table.append([c, ("* " if r.baseline else "  ") + r.value,
                          *(r.gains[s].pct(1) if s in r.gains else "-" for s in STRATEGIES),
                          f"{r.failed_jobs:.0f}", f"{r.response_s:.0f}"])
        table.append(["", "span (points)",
                      *(f"{100 * sp[c].get(s, float('nan')):.1f}" for s in STRATEGIES), "", ""])
    frame = pd.DataFrame(table, columns=["choice", "value", *(fd.LABEL[s] for s in STRATEGIES),
                                         "FCFS failed", "Resp (s)"])
    lines = ["FARS sensitivity: composite gain over FCFS/EASY (%), paired [95 % CI]; "
             "* = baseline_exp runtime-scaling value",
             *frame.to_string(index=False, justify="left").splitlines()]
    lines.append("largest gain of any single value (paper: "
                 f"{PAPER_RANGE[0]:.2f}-{PAPER_RANGE[1]:.2f} %):")
    for s, r in best_rows(rows).items():
        e = r.gains[s]
        verdict = ("reaches" if e.hi * 100 >= PAPER_RANGE[0] else "stays below")
        lines.append(f"  {fd.LABEL[s]:6} {e.pct(1)} at {r.choice} {r.value}: {verdict} "
                     f"{PAPER_RANGE[0]:.2f} % (95 % CI upper end)")
    return lines


def cmd_sensitivity(directory, baseline=None):
    d = Path(directory)
    files = sorted(d.glob("*.h5")) if d.is_dir() else []
    if not files:
        raise fd.UsageError(f"{d}: no results files (run jobs/fars/sensitivity/*.toml)")
    base_path = Path(baseline) if baseline else d.parent / "baseline_exp.h5"
    base = fd.load(base_path) if base_path.exists() else None
    key = baseline_key(base) if base is not None else None
    rows = []
    if base is not None:  # the load reading: runtimes vs interarrivals (§6.1.2 vs Fig. 4)
        rows += sensitivity_rows(base, "load_reading", key)
    for f in files:
        rows += sensitivity_rows(fd.load(f), f.stem, key)
    return sensitivity_lines(rows)


# ------------------------------------------------------------------------ ours beside the paper
FIG = {"exp": "Fig. 4 (exp)", "weibull": "Fig. 5 (Weibull)", "trace": "Fig. 9 (trace)"}
BASELINES = (("exp", "baseline_exp"), ("weibull", "baseline_weibull"), ("trace", "trace"))
GRIDS = (("exp", "precision_recall_exp", "baseline_exp", "Fig. 8 (exp)"),
         ("weibull", "precision_recall_weibull", "baseline_weibull", "Fig. 8 (Weibull)"),
         ("trace", "trace_precision_recall", "trace", "Fig. 10 (trace)"))
HEAT_PAPER = {"exp": ("> 50 %", "> 0", "lowest cell"), "weibull": ("> 50 %", "> 0", "lowest cell"),
              "trace": ("53 %", "> 0", "-4 %")}


def _mean(res, metric, p):
    return float(np.nanmean(res.results(metric)[p]))


def _ci(e, digits=0):
    """'mean [lo, hi]' (Student t over replicas), or the mean alone when every replica gave
    the same value (a fixed trace) or there is one replica."""
    if e.n < 2 or not np.isfinite(e.lo) or e.hi - e.lo <= 1e-9 * max(1.0, abs(e.mean)):
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} [{e.lo:.{digits}f}, {e.hi:.{digits}f}]"


def _mean_ci(res, metric, p):
    return _ci(fd.kv.estimate(res.results(metric)[p]))


def _failed(res, p):
    return _ci(fd.kv.estimate(res.results("jfr")[p] * res.results("jobs")[p]))


def _cut(res, metric, base, p):
    """Paired (per replica) cut of metric from point base to point p."""
    a, b = res.results(metric)[base], res.results(metric)[p]
    r = min(a.size, b.size)
    return fd.kv.estimate(a[:r] - b[:r])


def _per_strategy(fmt, values):
    return " / ".join(fmt(values[s]) for s in STRATEGIES if s in values)


def baseline_claims(res, name):
    """[(claim, paper, ours)] of Figs. 4, 5, 9 and §6.1.1 for one baseline file."""
    out = []
    for _, fixed, members in fd.groups(res):
        tag = ("" if fixed.get("workload.scale", "runtimes") == "runtimes"
               else f", {fixed['workload.scale']} reading")
        where = f"{FIG[name]}{tag}"
        gains = fd.group_gains(res, members)
        out.append((f"{where}: gain FSD-D / SUL-D / JFR-D",
                    _per_strategy(lambda v: f"{v:.2f}", fd.PAPER_GAIN[name]) + " %",
                    _per_strategy(lambda e: e[0].pct(1), gains)))
        paper = fd.PAPER_GAIN[name]
        out.append((f"{where}: lowest gain", fd.LABEL[min(paper, key=paper.get)],
                    fd.LABEL[min(gains, key=lambda s: gains[s][0].mean)]))
        pts = dict(members)
        if "jobs" in res.metrics:
            out.append((f"{where}: failed jobs FCFS -> FARS", "600+ -> ~400",
                        f"{_failed(res, pts['none'])} -> "
                        + _per_strategy(lambda p: _failed(res, p),
                                        {s: pts[s] for s in STRATEGIES if s in pts})))
        out.append((f"{where}: Resp FCFS -> FARS (s)",
                    "19,400+ -> ~18,000" if name == "exp" else "(bars only)",
                    f"{_mean_ci(res, 'mean_response_s', pts['none'])} -> "
                    + _per_strategy(lambda p: _mean_ci(res, 'mean_response_s', p),
                                    {s: pts[s] for s in STRATEGIES if s in pts})))
        cut = {s: _cut(res, "sul_node_hours", pts["none"], p) for s, p in pts.items() if s != "none"}
        out.append((f"{where}: SUL cut (node-h)", "> 2,000", _per_strategy(_ci, cut)))
        best = [fd.LABEL[min(members, key=lambda sp: _mean(res, m, sp[1]))[0]]
                for m in ("sul_node_hours", "jfr", "fsd")]
        out.append((f"{where}: lowest SUL / JFR / FSD", "SUL-D / JFR-D / FSD-D", " / ".join(best)))
    return out


def sweep_claims(res, kind, law):
    """[(claim, paper, ours)] of Fig. 6 (kind load) or Fig. 7 (kind mtbf)."""
    axis = "workload.target_load" if kind == "load" else next(
        a for a in res.axes if a != fd.STRATEGY)
    rows = fd.sweep_table(res, axis)
    days = res.units(axis) == "s"
    xs = [r[0] / 86400.0 if days else r[0] for r in rows]
    g = {s: [100 * r[1][s].mean for r in rows] for s in STRATEGIES if s in rows[0][1]}
    est = {s: [r[1][s] for r in rows] for s in g}
    fig = f"Fig. {6 if kind == 'load' else 7} ({law})"

    def lowest(es, pred):  # the smallest gain (with its CI) over the points pred keeps
        kept = [e for x, e in zip(xs, es) if pred(x)]
        if not kept:
            return "nan"
        e = min(kept, key=lambda e: e.mean)
        return _ci(fd.kv.Estimate(100 * e.mean, 100 * e.lo, 100 * e.hi, e.n), 1)

    pick = lambda pred: _per_strategy(lambda es: lowest(es, pred), est)  # noqa: E731
    ends = _per_strategy(lambda v: f"{v[0]:.1f}->{v[-1]:.1f}", g)
    # Per-metric gains of panels (a, b), SUL-D's: kiviat.AXES order (resp 2, sul 3, jfr 4).
    metric = {a: [100 * r[2]["sul_d"][i].mean for r in rows] for i, a in enumerate(fd.kv.AXES)
              if "sul_d" in rows[0][2]}
    peak = (lambda a: f"{max(metric[a]):.1f} at {xs[int(np.argmax(metric[a]))]:g}"  # noqa: E731
            if metric else "-")
    if kind == "load":
        return [(f"{fig}: min gain, load <= 0.7 (%)", ">= 30", pick(lambda x: x <= 0.7 + 1e-9)),
                (f"{fig}: gain at load {xs[-1]:g} (%)", ">= 15", pick(lambda x: x == xs[-1])),
                (f"{fig}: gain load {xs[0]:g} -> {xs[-1]:g} (%)", "falls", ends),
                (f"{fig}a: SUL-D's Resp gain peaks at load (%)", "0.9", peak("resp"))]
    ends_of = (lambda a: f"{metric[a][-1]:.1f}->{metric[a][0]:.1f}"  # noqa: E731
               if metric else "-")
    return [(f"{fig}: min gain, node MTBF > 14 d (%)", "> 30", pick(lambda x: x > 14 + 1e-9)),
            (f"{fig}: gain at 14 d (%)", "> 20", pick(lambda x: abs(x - 14) < 1e-6)),
            (f"{fig}: gain {xs[-1]:g} d -> {xs[0]:g} d (%)", "falls, fast below 7 d",
             _per_strategy(lambda v: f"{v[-1]:.1f}->{v[0]:.1f}", g)),
            (f"{fig}a: SUL-D's SUL / JFR gains {xs[-1]:g} d -> {xs[0]:g} d (%)", "50 -> 20",
             f"{ends_of('sul')} / {ends_of('jfr')}"),
            (f"{fig}a: SUL-D's Resp gain peaks at d (%)", "~40 at 3.5", peak("resp"))]


def heat_claims(grid, base, name, fig):
    gains = fd.heatmap_gains(grid, base)
    top, ok, low = HEAT_PAPER[name]
    ge = [g for (p, r), g in gains.items() if p >= 0.2 - 1e-9 and r >= 0.2 - 1e-9]
    least = min(ge, key=lambda g: g.mean) if ge else None
    lo = min(gains)
    return [(f"{fig}: SUL-D at (1, 1)", top, gains[max(gains)].pct(1)),
            (f"{fig}: SUL-D min over p, r >= 0.2", ok, least.pct(1) if least else "-"),
            (f"{fig}: SUL-D at {lo}", low, gains[lo].pct(1))]


def paper_claims(d):
    """Every claim the results in directory d cover: [(claim, paper, ours)]."""
    d = Path(d)
    out = []
    for name, stem in BASELINES:
        if (d / f"{stem}.h5").exists():
            out += baseline_claims(fd.load(d / f"{stem}.h5"), name)
    for kind in ("load", "mtbf"):
        for law in ("exp", "weibull"):
            if (d / f"{kind}_{law}.h5").exists():
                out += sweep_claims(fd.load(d / f"{kind}_{law}.h5"), kind, law)
    for name, grid, base, fig in GRIDS:
        if (d / f"{grid}.h5").exists() and (d / f"{base}.h5").exists():
            out += heat_claims(fd.load(d / f"{grid}.h5", False), fd.load(d / f"{base}.h5"),
                               name, fig)
    return out


def paper_lines(d):
    claims = paper_claims(d)
    if not claims:
        return []
    w = max(len(c) for c, _, _ in claims)
    p = max(len(x) for _, x, _ in claims)
    lines = ["", "Ours beside the paper (paired 95 % CIs; runtime reading unless said)",
             f"{'claim':{w}} | {'paper':{p}} | ours"]
    lines += [f"{c:{w}} | {x:{p}} | {o}" for c, x, o in claims]
    return lines
