"""Reproduce Zhang, Squillante, Sivasubramaniam, Sahoo, "Performance Implications of Failures in
Large-Scale Cluster Scheduling", JSSPP 2004: Table 1, Figures 3-6 and the findings of §4 / §5.1.

    python3 analysis/reproduce/zhang.py table1 [RESULTS_DIR] [--scale 18000]
    python3 analysis/reproduce/zhang.py figures RESULTS_DIR --out DIR
    python3 analysis/reproduce/zhang.py findings RESULTS_DIR [--negligible 0.10]
    python3 analysis/reproduce/zhang.py s5-findings RESULTS_DIR   # §5.2: see zhang_s5.py
    python3 analysis/reproduce/zhang.py s5-figures RESULTS_DIR --out DIR

RESULTS_DIR holds the files jobs/zhang/*.toml write: baseline.h5 (no failures), fig3a.h5 (axis
failures.shape), fig3b.h5 (failures.W), fig3c.h5 (failures.alpha), fig4.h5 (failures.downtime),
fig5.h5 (failures.shape x checkpoint/checkpoint_interval), fig6.h5 (failures.W/alpha zipped x
checkpoint/checkpoint_interval); all have the axis workload.target_load (offered load).

table1
    Failures per day for the four Weibull shapes at scale 18000 s: exact 86400 / (scale *
    Gamma(1 + 1/shape)) (the long-run rate of the renewal process), ours measured (per replica
    `failures` / (`makespan_s` / 86400 d), mean and 95 % CI over the replicas of the lowest load
    of fig3a.h5, where the run span is closest to the arrival span; plus the 5-95 % range of the
    count per run) beside the paper's 1.2 / 2.2 / 3.2 / 4.3 per day and 78 / 138 / 198 / 266
    failures. Without RESULTS_DIR only the exact and the paper's columns are printed.

figures
    fig3.png (rows: shape, W, alpha), fig4.png (down time), fig5.png (rows: shape 0.65, 0.2),
    fig6.png (rows: W = 64, alpha = 0.99): left mean slowdown, right work-loss ratio, against the
    offered load (top axis: the mean job execution time it implies on the CTC-SP2 window), one
    line per parameter value, 95 % CI error bars; the no-failure baseline dashed.

findings
    The numbers behind §4's and §5.1's claims, ours with 95 % CIs, relative to the no-failure
    baseline (deterministic: a fixed trace and no failures, so its value is a constant) and as
    paired differences where points share failures (same replica index, same failure stream:
    W, alpha, down time and checkpointing do not change the failure times), each with a
    one-line verdict agree / disagree:
      F1 slowdown grows with the failure rate (shape) at every load;
      F2 shape matters most: its effect exceeds those of W, alpha and down time at every load;
      F3 temporal correlation W matters less than shape;
      F4 spatial skew alpha matters less than shape;
      F5 down time barely matters: |4 h - 2 min| / slowdown(2 min) < NEGLIGIBLE at every load,
         or its CI contains 0;
      F6 periodic checkpointing helps little for i.i.d. failures: no interval cuts slowdown by
         more than NEGLIGIBLE (or the cut's CI contains 0) at any load;
      F7 ... nor for correlated failures (fig6).
    Relative paired effects are mean(d) / mean(reference) with the CI of d scaled the same way
    (the reference's own noise is ignored; with common random numbers it is mostly shared).

Exit status: 0 success, 2 bad arguments or unusable file.
"""
from __future__ import annotations

import argparse
import math
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import stats as st

try:
    from faultsweep_analysis import open_results
    from faultsweep_analysis.results import Results
except ImportError:  # run as a script from a checkout: analysis/ is the package root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from faultsweep_analysis import open_results
    from faultsweep_analysis.results import Results

DAY = 86400.0
SCALE_S = 18000.0
LOAD = "workload.target_load"
SLOWDOWN = "mean_slowdown"
WLR = "work_loss_ratio"

# Table 1 of the paper: shape -> (number of failures, failures per day), scale 18000 s.
PAPER_TABLE1: dict[float, tuple[int, float]] = {
    0.2: (78, 1.2),
    0.55: (138, 2.2),
    0.65: (198, 3.2),
    0.85: (266, 4.3),
}
# The CTC-SP2 window of jobs/zhang (first 14,000 jobs on 320 nodes): unscaled offered load and
# mean run time; runtime scaling to load L makes the mean execution time MEAN_RT_H * L / LOAD0.
CTC_LOAD0 = 0.8351
CTC_MEAN_RT_H = 2.872
FILES = ("baseline", "fig3a", "fig3b", "fig3c", "fig4", "fig5", "fig6")


class UsageError(Exception):
    pass


# ----------------------------------------------------------------------------------- statistics
@dataclass
class Est:
    """A mean with its 95 % CI (Student t over n values)."""

    mean: float
    lo: float
    hi: float
    n: int

    def fmt(self, scale: float = 1.0, digits: int = 3, pct: bool = False) -> str:
        if pct:
            return f"{100 * self.mean:+.{digits}g} % [{100 * self.lo:+.{digits}g}, {100 * self.hi:+.{digits}g}]"
        return f"{self.mean * scale:.{digits}g} [{self.lo * scale:.{digits}g}, {self.hi * scale:.{digits}g}]"

    def contains_zero(self) -> bool:
        return self.lo <= 0.0 <= self.hi

    def scaled(self, k: float, shift: float = 0.0) -> "Est":
        a, b = self.lo * k + shift, self.hi * k + shift
        return Est(self.mean * k + shift, min(a, b), max(a, b), self.n)


def estimate(values) -> Est:
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return Est(math.nan, math.nan, math.nan, 0)
    m = float(v.mean())
    if v.size < 2:
        return Est(m, m, m, 1)
    half = float(st.t.ppf(0.975, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size))
    return Est(m, m - half, m + half, int(v.size))


def paired(a, b) -> Est:
    """Mean of a - b over replicas that ran in both (common random numbers)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ok = ~np.isnan(a) & ~np.isnan(b)
    return estimate(a[ok] - b[ok])


def relative_paired(a, b) -> Est:
    """(a - b) / mean(b): the paired difference relative to the reference b."""
    d = paired(a, b)
    ref = float(np.nanmean(np.asarray(b, dtype=float)))
    return d.scaled(1.0 / ref)


def exact_rate_per_day(shape: float, scale_s: float = SCALE_S) -> float:
    """Long-run failures per day of a Weibull(shape, scale) renewal process."""
    return DAY / (scale_s * math.gamma(1.0 + 1.0 / shape))


# --------------------------------------------------------------------------------- file access
def load_dir(results_dir, required=FILES) -> dict[str, Results]:
    d = Path(results_dir)
    if not d.is_dir():
        raise UsageError(f"{d}: not a directory")
    out = {}
    for name in FILES:
        p = d / f"{name}.h5"
        if not p.exists():
            if name in required:
                raise UsageError(f"{p}: missing (run jobs/zhang/{name}.toml)")
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                out[name] = open_results(p)
        except (OSError, ValueError) as e:
            raise UsageError(f"{p}: {e}") from e
    return out


def _col(res: Results, axis: str) -> np.ndarray:
    if axis not in res.points.columns:
        raise UsageError(f"{res.path if hasattr(res, 'path') else 'file'}: no axis {axis!r}")
    return res.points[axis].to_numpy()


def find_point(res: Results, **fixed) -> int:
    """Index of the single point whose axes equal `fixed` (axis names with '.' given as '__');
    floats compare with a relative tolerance, strings exactly."""
    mask = np.ones(len(res.points), dtype=bool)
    for key, want in fixed.items():
        axis = key.replace("__", ".")
        col = _col(res, axis)
        if isinstance(want, str):
            mask &= np.array([str(c) == want for c in col])
        else:
            mask &= np.isclose(col.astype(float), float(want), rtol=1e-9, atol=1e-12)
    idx = np.flatnonzero(mask)
    if idx.size != 1:
        raise UsageError(f"{idx.size} points match {fixed} (axes {list(res.points.columns)})")
    return int(idx[0])


def values(res: Results, metric: str, **fixed) -> np.ndarray:
    if metric not in res.metrics:
        raise UsageError(f"no metric {metric!r} (has {', '.join(res.metrics)})")
    return res.results(metric)[find_point(res, **fixed)]


def axis_values(res: Results, axis: str) -> list:
    col = _col(res, axis)
    seen = []
    for c in col:
        if c not in seen:
            seen.append(c)
    return seen


def loads(res: Results) -> list[float]:
    return sorted(float(x) for x in axis_values(res, LOAD))


def baseline_value(base: Results | None, metric: str, load: float) -> float:
    if base is None:
        return math.nan
    return float(np.nanmean(values(base, metric, workload__target_load=load)))


def ckpt_cases(res: Results) -> list[tuple[str, float]]:
    """(checkpoint, interval) pairs present, 'none' first."""
    pairs = []
    for c, i in zip(_col(res, "checkpoint"), _col(res, "checkpoint_interval")):
        key = (str(c), float(i))
        if key not in pairs:
            pairs.append(key)
    return sorted(pairs, key=lambda p: (p[0] != "none", p[1]))


def ckpt_label(case: tuple[str, float]) -> str:
    return "none" if case[0] == "none" else f"every {case[1] / 3600:g} h"


# ------------------------------------------------------------------------------------- table 1
def table1_rows(fig3a: Results | None, scale_s: float = SCALE_S) -> list[dict]:
    rows = []
    for shape, (count, per_day) in PAPER_TABLE1.items():
        row = {
            "shape": shape,
            "exact_per_day": exact_rate_per_day(shape, scale_s),
            "mean_gap_d": scale_s * math.gamma(1 + 1 / shape) / DAY,
            "paper_per_day": per_day,
            "paper_failures": count,
            "paper_span_d": count / per_day,
        }
        if fig3a is not None:
            shapes = [float(s) for s in axis_values(fig3a, "failures.shape")]
            if any(math.isclose(shape, s) for s in shapes):
                lo_load = loads(fig3a)[0]
                f = values(fig3a, "failures", workload__target_load=lo_load, failures__shape=shape)
                span = values(fig3a, "makespan_s", workload__target_load=lo_load,
                              failures__shape=shape) / DAY
                row["ours_per_day"] = estimate(f / span)
                row["ours_failures"] = estimate(f)
                ok = ~np.isnan(f)
                row["ours_failures_p5_p95"] = tuple(np.percentile(f[ok], [5, 95]))
                row["ours_span_d"] = float(np.nanmean(span))
                row["load"] = lo_load
        rows.append(row)
    return rows


def cmd_table1(args) -> int:
    fig3a = None
    if args.results_dir:
        fig3a = load_dir(args.results_dir, required=("fig3a",))["fig3a"]
    rows = table1_rows(fig3a, args.scale)
    print(f"Table 1: failures per day, Weibull inter-failure times, scale {args.scale:g} s")
    hdr = f"{'shape':>5} {'mean gap':>9} {'exact/day':>9} {'paper/day':>9} {'paper n':>7} {'paper span':>10}"
    if fig3a is not None:
        hdr += f"  {'ours/day [95% CI]':>24} {'ours n [CI]':>22} {'n 5-95%':>11} {'span':>6}"
    print(hdr)
    for r in rows:
        line = (f"{r['shape']:>5g} {r['mean_gap_d']:>7.3g} d {r['exact_per_day']:>9.3g} "
                f"{r['paper_per_day']:>9g} {r['paper_failures']:>7d} {r['paper_span_d']:>8.1f} d")
        if "ours_per_day" in r:
            p5, p95 = r["ours_failures_p5_p95"]
            line += (f"  {r['ours_per_day'].fmt():>24} {r['ours_failures'].fmt(digits=4):>22} "
                     f"{p5:>4.0f}-{p95:<5.0f} {r['ours_span_d']:>4.1f}d")
        print(line)
    print()
    print("exact = 86400 / (scale * Gamma(1 + 1/shape)), the renewal process's long-run rate.")
    print("The paper's counts / rates imply one span of ~62 days (266/4.3, 198/3.2, 138/2.2) and")
    print("look like single generated traces: shapes 0.55-0.85 are within a single trace's spread")
    print("of the exact rate, but shape 0.2 cannot give 1.2/day at scale 18000 s: its mean gap is")
    print(f"{rows[0]['mean_gap_d']:.1f} days (Gamma(6) = 120), i.e. {rows[0]['exact_per_day']:.3f}/day.")
    print("A window that starts at a failure counts more than span/mean for so heavy a tail")
    print("(many tiny gaps, rare huge ones), which is why ours exceeds the exact rate for 0.2, but")
    print("not by 30x. The paper's 0.2 row would need a scale of about "
          f"{DAY / (1.2 * math.gamma(6)):.0f} s for 1.2/day.")
    return 0


# ------------------------------------------------------------------------------------- figures
def _series(res: Results, metric: str, xs: list[float], **fixed):
    m, lo, hi = [], [], []
    for x in xs:
        e = estimate(values(res, metric, workload__target_load=x, **fixed))
        m.append(e.mean)
        lo.append(e.mean - e.lo)
        hi.append(e.hi - e.mean)
    return np.array(m), np.array([lo, hi])


def _panel_pair(axs, res: Results, base: Results | None, lines: list[tuple[str, dict]], title: str):
    from matplotlib.ticker import FuncFormatter  # noqa: F401  (imported lazily: headless)

    xs = loads(res)
    for ax, metric, ylabel in ((axs[0], SLOWDOWN, "average slowdown"),
                               (axs[1], WLR, "average work-loss ratio")):
        for label, fixed in lines:
            m, err = _series(res, metric, xs, **fixed)
            ax.errorbar(xs, m, yerr=err, marker="o", capsize=3, label=label)
        if base is not None and metric == SLOWDOWN:
            ax.plot(xs, [baseline_value(base, metric, x) for x in xs], "k--", label="no failures")
        ax.set_xlabel("offered load (runtime-scaled CTC-SP2)")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
        sec = ax.secondary_xaxis(
            "top", functions=(lambda L: CTC_MEAN_RT_H * L / CTC_LOAD0,
                              lambda h: h * CTC_LOAD0 / CTC_MEAN_RT_H))
        sec.set_xlabel("mean job execution time [h]", fontsize=8)
        ax.legend(fontsize=7)


def _new_figure(rows: int):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 3.9 * rows))
    axs = fig.subplots(rows, 2, squeeze=False)
    return fig, axs


def draw_figures(data: dict[str, Results], out_dir) -> list[Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    base = data.get("baseline")
    written = []

    def save(fig, name, suptitle):
        fig.suptitle(suptitle, fontsize=10)
        fig.tight_layout()
        p = out / name
        fig.savefig(p, dpi=110)
        written.append(p)

    specs3 = [("fig3a", "failures.shape", "shape β", "(a) W=2, α=0.01, r=2 min"),
              ("fig3b", "failures.W", "W", "(b) β=0.85, α=0.5, r=2 min"),
              ("fig3c", "failures.alpha", "α", "(c) β=0.85, W=2, r=2 min")]
    present = [s for s in specs3 if s[0] in data]
    if present:
        fig, axs = _new_figure(len(present))
        for row, (name, axis, sym, title) in enumerate(present):
            res = data[name]
            lines = [(f"{sym} = {v:g}", {axis.replace('.', '__'): float(v)})
                     for v in axis_values(res, axis)]
            _panel_pair(axs[row], res, base, lines, title)
        save(fig, "fig3.png", "Zhang et al. Fig. 3: impact of failure arrival characteristics "
             "(CTC-SP2 window, 320 nodes, EASY)")
    if "fig4" in data:
        res = data["fig4"]
        fig, axs = _new_figure(1)
        lines = [(f"down time {float(v) / 3600:g} h", {"failures__downtime": float(v)})
                 for v in axis_values(res, "failures.downtime")]
        _panel_pair(axs[0], res, base, lines, "β=0.85, W=2, α=0.01")
        save(fig, "fig4.png", "Zhang et al. Fig. 4: impact of failure down times")
    if "fig5" in data:
        res = data["fig5"]
        shapes = [float(s) for s in axis_values(res, "failures.shape")]
        fig, axs = _new_figure(len(shapes))
        for row, shape in enumerate(shapes):
            lines = [(ckpt_label(c), {"failures__shape": shape, "checkpoint": c[0],
                                      "checkpoint_interval": c[1]}) for c in ckpt_cases(res)]
            _panel_pair(axs[row], res, base, lines,
                        f"i.i.d. β={shape:g} ({exact_rate_per_day(shape):.2g}/day), 5 min checkpoints")
        save(fig, "fig5.png", "Zhang et al. Fig. 5: failure-oblivious checkpointing, i.i.d. failures")
    if "fig6" in data:
        res = data["fig6"]
        combos = []
        for w, a in zip(_col(res, "failures.W"), _col(res, "failures.alpha")):
            if (float(w), float(a)) not in combos:
                combos.append((float(w), float(a)))
        fig, axs = _new_figure(len(combos))
        for row, (w, a) in enumerate(combos):
            lines = [(ckpt_label(c), {"failures__W": w, "failures__alpha": a, "checkpoint": c[0],
                                      "checkpoint_interval": c[1]}) for c in ckpt_cases(res)]
            kind = "temporal" if w > 2 else "spatial"
            _panel_pair(axs[row], res, base, lines, f"{kind}: β=0.85, W={w:g}, α={a:g}")
        save(fig, "fig6.png", "Zhang et al. Fig. 6: failure-oblivious checkpointing, correlated failures")
    return written


def cmd_figures(args) -> int:
    data = load_dir(args.results_dir, required=())
    if not any(k in data for k in ("fig3a", "fig3b", "fig3c", "fig4", "fig5", "fig6")):
        raise UsageError(f"{args.results_dir}: none of fig3a..fig6 .h5 found")
    for p in draw_figures(data, args.out):
        print(f"wrote {p}")
    return 0


# ------------------------------------------------------------------------------------ findings
@dataclass
class Finding:
    key: str
    claim: str
    agree: bool
    lines: list[str]

    def render(self) -> str:
        verdict = "AGREE" if self.agree else "DISAGREE"
        return "\n".join([f"{self.key}. {self.claim}", *("   " + s for s in self.lines),
                          f"   -> {verdict}"])


def increase_over_baseline(res: Results, base: Results | None, load: float, **fixed) -> Est | None:
    b = baseline_value(base, SLOWDOWN, load)
    if not np.isfinite(b) or b == 0:
        return None
    return estimate(values(res, SLOWDOWN, workload__target_load=load, **fixed)).scaled(1 / b, -1.0)


def effect_range(res: Results, axis: str, load: float, base_s: float, **fixed) -> float:
    """(max - min) over the axis values of mean slowdown, relative to base_s."""
    means = [np.nanmean(values(res, SLOWDOWN, workload__target_load=load,
                               **{axis.replace(".", "__"): float(v)}, **fixed))
             for v in axis_values(res, axis)]
    return (max(means) - min(means)) / base_s


def verdict_monotone(ests: list[Est]) -> bool:
    """Means increase along the list and the last exceeds the first beyond both CIs."""
    means = [e.mean for e in ests]
    return all(b > a for a, b in zip(means, means[1:])) and ests[-1].lo > ests[0].hi


def verdict_small(rel: Est, threshold: float) -> bool:
    """A relative effect is negligible if |mean| < threshold or its CI contains 0."""
    return abs(rel.mean) < threshold or rel.contains_zero()


def finding_rate(data, base) -> Finding:
    res = data["fig3a"]
    shapes = sorted(float(s) for s in axis_values(res, "failures.shape"))
    ok, lines = True, []
    for L in loads(res):
        ests = [estimate(values(res, SLOWDOWN, workload__target_load=L, failures__shape=s))
                for s in shapes]
        mono = verdict_monotone(ests)
        ok &= mono
        parts = []
        for s, e in zip(shapes, ests):
            inc = increase_over_baseline(res, base, L, failures__shape=s)
            parts.append(f"β={s:g}: {e.fmt()}" + (f" ({inc.fmt(pct=True)} vs none)" if inc else ""))
        b = baseline_value(base, SLOWDOWN, L)
        lines.append(f"load {L:g} (no failures {b:.3g}): " + "; ".join(parts)
                     + ("" if mono else "  [not monotone/significant]"))
        wl = [estimate(values(res, WLR, workload__target_load=L, failures__shape=s)) for s in shapes]
        lines.append(f"   work-loss ratio: " + "; ".join(f"β={s:g}: {e.fmt()}" for s, e in zip(shapes, wl)))
    lines.append("paper: 1.2/day -> up to +40 %, 4.3/day -> up to +300 % slowdown")
    return Finding("F1", "Slowdown grows with the failure rate (Weibull shape at fixed scale)",
                   bool(ok), lines)


def _factor_effects(data, L, b):
    """{factor: relative effect range at load L} for shape, W, alpha, down time."""
    eff = {}
    if "fig3a" in data:
        eff["shape"] = effect_range(data["fig3a"], "failures.shape", L, b)
    if "fig3b" in data:
        eff["W"] = effect_range(data["fig3b"], "failures.W", L, b)
    if "fig3c" in data:
        eff["alpha"] = effect_range(data["fig3c"], "failures.alpha", L, b)
    if "fig4" in data:
        eff["downtime"] = effect_range(data["fig4"], "failures.downtime", L, b)
    return eff


def finding_shape_most(data, base) -> Finding:
    ok, lines = True, []
    for L in loads(data["fig3a"]):
        b = baseline_value(base, SLOWDOWN, L)
        if not np.isfinite(b):
            b = float(np.nanmean(values(data["fig3a"], SLOWDOWN, workload__target_load=L,
                                        failures__shape=min(axis_values(data["fig3a"], "failures.shape")))))
        eff = _factor_effects(data, L, b)
        top = max(eff, key=eff.get)
        ok &= top == "shape"
        lines.append(f"load {L:g}: range of mean slowdown / no-failure slowdown: "
                     + ", ".join(f"{k} {100 * v:.3g} %" for k, v in eff.items()) + f" (largest: {top})")
    return Finding("F2", "Shape (failure rate) matters most among shape, W, alpha, down time",
                   bool(ok), lines)


def _paired_vs(res, axis, hi, lo, L, metric=SLOWDOWN, **fixed):
    k = axis.replace(".", "__")
    a = values(res, metric, workload__target_load=L, **{k: hi}, **fixed)
    b = values(res, metric, workload__target_load=L, **{k: lo}, **fixed)
    return relative_paired(a, b), paired(a, b)


def finding_less_than_shape(data, base, name, axis, hi, lo, key, claim) -> Finding:
    """The factor's effect (range of mean slowdown over its values, relative to the no-failure
    slowdown) is smaller than the shape's at every load; paired hi-vs-lo numbers for detail."""
    res = data[name]
    factor = {"failures.W": "W", "failures.alpha": "alpha"}[axis]
    ok, lines = True, []
    for L in loads(res):
        rel, _ = _paired_vs(res, axis, hi, lo, L)
        relw, dw = _paired_vs(res, axis, hi, lo, L, metric=WLR)
        b = baseline_value(base, SLOWDOWN, L)
        eff = _factor_effects(data, L, b if np.isfinite(b) else 1.0)
        mine = eff[factor]
        less = mine < eff.get("shape", math.inf)
        ok &= less
        lines.append(f"load {L:g}: slowdown {axis}={hi:g} vs {lo:g} (paired) {rel.fmt(pct=True)}; "
                     f"work loss {relw.fmt(pct=True)}; range over {factor} {100 * mine:.3g} % vs "
                     f"over shape {100 * eff.get('shape', math.nan):.3g} % of no-failure slowdown"
                     + ("" if less else "  [not smaller]"))
    if name == "fig3c":
        ls = loads(res)
        rels = [_paired_vs(res, axis, hi, lo, L, metric=WLR)[0] for L in ls]
        sub = rels[0].lo > 0 and all(b.mean < a.mean for a, b in zip(rels, rels[1:]))
        lines.append("paper's side claim 'alpha=0.99 has more work loss at low load, less so as load "
                     f"grows' (node-0 artefact): {'agree' if sub else 'disagree'}")
    return Finding(key, claim, bool(ok), lines)


def finding_downtime(data, base, negligible) -> Finding:
    res = data["fig4"]
    dts = sorted(float(v) for v in axis_values(res, "failures.downtime"))
    ok, lines = True, []
    for L in loads(res):
        for hi in dts[1:]:
            rel, _ = _paired_vs(res, "failures.downtime", hi, dts[0], L)
            small = verdict_small(rel, negligible)
            ok &= small
            lines.append(f"load {L:g}: slowdown down {hi / 3600:g} h vs {dts[0] / 60:g} min (paired) "
                         f"{rel.fmt(pct=True)}" + ("" if small else "  [not negligible]"))
    return Finding("F5", f"Down time barely matters (|effect| < {100 * negligible:g} % or CI ∋ 0)",
                   bool(ok), lines)


def finding_checkpoint(res: Results, groups: list[tuple[str, dict]], negligible, key, claim) -> Finding:
    ok, lines = True, []
    cases = ckpt_cases(res)
    none = [c for c in cases if c[0] == "none"]
    if not none:
        raise UsageError("checkpoint results have no checkpoint = none points")
    none = none[0]
    for label, fixed in groups:
        for L in loads(res):
            ref = values(res, SLOWDOWN, workload__target_load=L, checkpoint="none",
                         checkpoint_interval=none[1], **fixed)
            parts = []
            for c in cases:
                if c[0] == "none":
                    continue
                a = values(res, SLOWDOWN, workload__target_load=L, checkpoint=c[0],
                           checkpoint_interval=c[1], **fixed)
                rel = relative_paired(a, ref)
                small = verdict_small(rel, negligible) or rel.mean > 0
                ok &= small
                parts.append(f"{ckpt_label(c)} {rel.fmt(pct=True)}" + ("" if small else " [helps]"))
            lines.append(f"{label}, load {L:g}: slowdown vs none (paired): " + "; ".join(parts))
    lines.append("an interval longer than every job's run time never checkpoints, so it equals none "
                 "(the CTC-SP2 window's longest job runs 18.7 h unscaled: 24 h = none exactly)")
    return Finding(key, claim, bool(ok), lines)


def all_findings(data: dict[str, Results], negligible: float = 0.10) -> list[Finding]:
    base = data.get("baseline")
    out = []
    if "fig3a" in data:
        out.append(finding_rate(data, base))
        out.append(finding_shape_most(data, base))
    if "fig3b" in data:
        ws = sorted(float(v) for v in axis_values(data["fig3b"], "failures.W"))
        out.append(finding_less_than_shape(
            data, base, "fig3b", "failures.W", ws[-1], ws[0], "F3",
            "Temporal correlation W matters less than shape (paper: slightly more loss/slowdown)"))
    if "fig3c" in data:
        al = sorted(float(v) for v in axis_values(data["fig3c"], "failures.alpha"))
        out.append(finding_less_than_shape(
            data, base, "fig3c", "failures.alpha", al[-1], al[0], "F4",
            "Spatial skew alpha matters less than shape (paper: more work loss at low load)"))
    if "fig4" in data:
        out.append(finding_downtime(data, base, negligible))
    if "fig5" in data:
        res = data["fig5"]
        groups = [(f"β={float(s):g}", {"failures__shape": float(s)})
                  for s in axis_values(res, "failures.shape")]
        out.append(finding_checkpoint(
            res, groups, negligible, "F6",
            f"Periodic checkpointing helps little for i.i.d. failures (no cut > {100 * negligible:g} %)"))
    if "fig6" in data:
        res = data["fig6"]
        groups = []
        for w, a in zip(_col(res, "failures.W"), _col(res, "failures.alpha")):
            g = (f"W={float(w):g} α={float(a):g}", {"failures__W": float(w), "failures__alpha": float(a)})
            if g not in groups:
                groups.append(g)
        out.append(finding_checkpoint(
            res, groups, negligible, "F7",
            f"... nor for correlated failures (no cut > {100 * negligible:g} %)"))
    return out


def cmd_findings(args) -> int:
    data = load_dir(args.results_dir, required=())
    if not data:
        raise UsageError(f"{args.results_dir}: no results files")
    if "baseline" not in data:
        print("note: no baseline.h5: increases over the no-failure case are not shown")
    for f in all_findings(data, args.negligible):
        print(f.render())
        print()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table1", help="failures per day: exact, ours, paper")
    t.add_argument("results_dir", nargs="?")
    t.add_argument("--scale", type=float, default=SCALE_S, help="Weibull scale in seconds")
    f = sub.add_parser("figures", help="Figures 3-6 as PNG")
    f.add_argument("results_dir")
    f.add_argument("--out", required=True)
    g = sub.add_parser("findings", help="numbers behind §4 / §5.1 with verdicts")
    g.add_argument("results_dir")
    g.add_argument("--negligible", type=float, default=0.10,
                   help="relative effect below which an effect counts as negligible (0.10)")
    handlers = {"table1": cmd_table1, "figures": cmd_figures, "findings": cmd_findings}
    usage_errors: tuple = (UsageError,)
    try:  # §5.2 (Figs. 5(c), 6(c), 7-11) lives in zhang_s5.py, which imports this module
        from reproduce import zhang_s5
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from reproduce import zhang_s5
    handlers.update(zhang_s5.add_commands(sub))
    # The sensitivity study (issue 13: which assumption flips each finding) lives in
    # zhang_sensitivity.py, which imports this module; its table is printed here too.
    s = sub.add_parser("sensitivity", help="findings x assumptions of the sensitivity study "
                       "(scripts/zhang_sensitivity.sh's results)")
    s.add_argument("results_dir")
    s.add_argument("--negligible", type=float, default=0.10)
    s.add_argument("--markdown", action="store_true", help="the summary as a Markdown table")

    def cmd_sensitivity(args):
        from reproduce import zhang_sensitivity
        return zhang_sensitivity.cmd_table(args)
    handlers["sensitivity"] = cmd_sensitivity
    usage_errors += (zhang_s5.z.UsageError,)
    args = ap.parse_args(argv)
    try:
        return handlers[args.cmd](args)
    except usage_errors as e:
        print(f"zhang.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
