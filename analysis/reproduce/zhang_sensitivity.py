"""Why do Zhang et al.'s findings F1-F7 (analysis/reproduce/zhang.py) disagree? A sensitivity
study: each variant changes ONE assumption of the reproduction (jobs/zhang), and every finding
is re-evaluated under it with zhang.py's own verdict rules and paired 95 % CIs.

    python3 analysis/reproduce/zhang_sensitivity.py table RESULTS_DIR [--negligible 0.10]
    python3 analysis/reproduce/zhang_sensitivity.py baselines RESULTS_DIR

RESULTS_DIR (results/zhang_sensitivity) holds, per run variant V of jobs/zhang/sensitivity/,
V.h5 (one sweep holding every point of Figs. 3-6, see CASES) and V_baseline.h5 (no failures).
Metric variants reuse the `current` files with mean_slowdown replaced by another metric.

table [--markdown]
    Per finding and variant AGREE / DISAGREE (zhang.py's verdicts, unchanged) with the
    finding's deciding effect and its 95 % CI (HEADLINES), then for every finding that
    disagrees under `current` the variants that turn it into agreement (or: none does).
baselines
    The no-failure value of each slowdown metric at each load, per variant.
Exit status: 0 success, 2 bad arguments or unusable file.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

try:
    import reproduce  # noqa: F401  (the package holding this module's siblings)
except ImportError:  # run as a script: analysis/ is the package root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from reproduce import zhang_data as zd
from reproduce.zhang_findings import all_findings
from reproduce.zhang_sensitivity_table import Cell, render, render_markdown

from faultsweep_analysis import open_results

Est = zd.Est
LOAD = zd.LOAD
SHAPE, W, ALPHA, DOWN = "failures.shape", "failures.W", "failures.alpha", "failures.downtime"
CKPT, IVAL = "checkpoint", "checkpoint_interval"

# (variant, group, what changes from `current`); run variants have their own job files, metric
# variants (metric is not None) reread the current files.
@dataclass(frozen=True)
class Variant:
    name: str
    group: str
    change: str
    metric: str | None = None  # replaces mean_slowdown
    files: str = ""            # stem of V.h5 / V_baseline.h5 (default: name)

    @property
    def stem(self) -> str:
        return self.files or self.name


VARIANTS = [
    Variant("current", "-", "CTC-SP2 window, mean slowdown, EASY, requeue at head, 338-node sizes, run times scaled"),
    Variant("bounded", "metric", "mean bounded slowdown (10 s)", "mean_bounded_slowdown", "current"),
    Variant("floor_1h", "metric", "slowdown of jobs running >= 1 h", "mean_slowdown_above_floor", "current"),
    Variant("synthetic", "workload", "hyper-Erlang source fitted to the window (zhang_workload_fit.py)"),
    Variant("split_4h", "workload", "jobs longer than 4 h split into <= 4 h pieces"),
    Variant("drop_12h", "workload", "jobs longer than 12 h dropped, load restored by arrivals"),
    Variant("requeue_original", "scheduling", "a failed job requeued at its original place"),
    Variant("conservative", "scheduling", "conservative instead of EASY backfilling"),
    Variant("sizes_320", "scheduling", "job sizes scaled by 320/338"),
    Variant("interarrivals", "load", "load set by scaling inter-arrival times"),
]

# The 24 (shape, W, alpha, down time [s], checkpoint, interval [s]) cases zipped in the `case`
# axis of every jobs/zhang/sensitivity/V.toml (a test checks the job files against this list):
# Fig. 3(a) shapes, 3(b) W at alpha 0.5, 3(c) alpha 0.99, Fig. 4 down times, Fig. 5 periodic
# checkpoints for shapes 0.65 and 0.2, Fig. 6 W = 64 and alpha = 0.99 with and without them.
H = 3600.0
CASES = (
    [(s, 2, 0.01, 120.0, "none", 24 * H) for s in (0.2, 0.55, 0.65, 0.85)]
    + [(0.85, w, 0.5, 120.0, "none", 24 * H) for w in (2, 8, 32, 64)]
    + [(0.85, 2, 0.99, 120.0, "none", 24 * H)]
    + [(0.85, 2, 0.01, d, "none", 24 * H) for d in (H, 4 * H)]
    + [(s, 2, 0.01, 120.0, "periodic", i * H) for s in (0.65, 0.2) for i in (2, 4, 24)]
    + [(0.85, 64, 0.01, 120.0, "none", 24 * H)]
    + [(0.85, 64, 0.01, 120.0, "periodic", i * H) for i in (2, 4, 24)]
    + [(0.85, 2, 0.99, 120.0, "periodic", i * H) for i in (2, 4, 24)]
)
CASE_AXES = (SHAPE, W, ALPHA, DOWN, CKPT, IVAL)

# The points of each figure inside a combined sweep (the axes of jobs/zhang/sensitivity/*.toml;
# every other axis at the reproduction's defaults: shape 0.85, W 2, alpha 0.01, down 2 min, no
# checkpoints). Each is a predicate on the points table.
def _is(col, v):
    return np.isclose(col.astype(float), v)


def _none(p):
    return np.array([str(c) == "none" for c in p[CKPT]])


FIGS = {
    "fig3a": lambda p: _is(p[W], 2) & _is(p[ALPHA], 0.01) & _is(p[DOWN], 120) & _none(p),
    "fig3b": lambda p: _is(p[SHAPE], 0.85) & _is(p[ALPHA], 0.5) & _is(p[DOWN], 120) & _none(p),
    "fig3c": lambda p: _is(p[SHAPE], 0.85) & _is(p[W], 2) & _is(p[DOWN], 120) & _none(p),
    "fig4": lambda p: _is(p[SHAPE], 0.85) & _is(p[W], 2) & _is(p[ALPHA], 0.01) & _none(p),
    "fig5": lambda p: (_is(p[SHAPE], 0.65) | _is(p[SHAPE], 0.2)) & _is(p[W], 2) & _is(p[ALPHA], 0.01)
    & _is(p[DOWN], 120),
    "fig6": lambda p: _is(p[SHAPE], 0.85) & _is(p[DOWN], 120)
    & ((_is(p[W], 64) & _is(p[ALPHA], 0.01)) | (_is(p[W], 2) & _is(p[ALPHA], 0.99))),
}


class View:
    """The points of `res` where mask holds, as a Results-like object for zhang.py (points,
    metrics, results, path); `alias` maps a metric name to the metric actually read."""

    def __init__(self, res, mask=None, alias: dict[str, str] | None = None):
        self._res = res
        self.path = getattr(res, "path", "view")
        n = len(res.points)
        self._idx = np.flatnonzero(np.ones(n, bool) if mask is None else np.asarray(mask, bool))
        self.points = res.points.iloc[self._idx].reset_index(drop=True)
        self._alias = alias or {}
        self.metrics = list(res.metrics) + [m for m in self._alias if m not in res.metrics]
        self._cache: dict[str, np.ndarray] = {}

    def results(self, metric: str) -> np.ndarray:
        name = self._alias.get(metric, metric)
        if name not in self._cache:
            self._cache[name] = self._res.results(name)
        return self._cache[name][self._idx]


def figure_views(study, baseline, metric: str | None = None) -> dict:
    """{"baseline": ..., "fig3a": ..., ...} as zhang_findings.all_findings expects them."""
    alias = {zd.SLOWDOWN: metric} if metric else None
    data = {"baseline": View(baseline, alias=alias)}
    for name, pred in FIGS.items():
        mask = pred(study.points)
        if mask.any():
            data[name] = View(study, mask, alias)
    return data


# ---------------------------------------------------------------------------- deciding effects
def _vals(res, L, **fixed):
    return zd.values(res, zd.SLOWDOWN, workload__target_load=L, **fixed)


def range_points(res, axis: str, L: float):
    """(values at the axis value of highest mean, at that of lowest mean) at load L."""
    k = axis.replace(".", "__")
    vs = [float(v) for v in zd.axis_values(res, axis)]
    rows = [_vals(res, L, **{k: v}) for v in vs]
    means = [np.nanmean(r) for r in rows]
    return rows[int(np.argmax(means))], rows[int(np.argmin(means))]


def range_margin(res_a, axis_a, res_b, axis_b, L, ref: float) -> Est:
    """(range of mean slowdown over axis_a) - (range over axis_b), relative to ref, with a CI
    from per-replica differences (replica i of every point shares its index; replicas are
    independent, so the differences are i.i.d.)."""
    ha, la = range_points(res_a, axis_a, L)
    hb, lb = range_points(res_b, axis_b, L)
    return zd.estimate((ha - la) - (hb - lb)).scaled(1.0 / ref)


def _ref(data, L) -> float:
    b = zd.baseline_value(data.get("baseline"), zd.SLOWDOWN, L)
    return b if np.isfinite(b) and b != 0 else 1.0


FACTOR = {"fig3b": W, "fig3c": ALPHA, "fig4": DOWN}


def headline(key: str, data) -> tuple[str, Est] | None:
    """The number that decides finding `key`, at its least favourable load: positive = agree
    for F1 and F2, negative = agree for F3 and F4 (within the CI), |x| small = agree for F5,
    F6 and F7 (a cut shows as a negative change)."""
    if "fig3a" not in data:
        return None
    f3a = data["fig3a"]
    loads = zd.loads(f3a)
    if key == "F1":
        lo, hi = min(zd.axis_values(f3a, SHAPE)), max(zd.axis_values(f3a, SHAPE))
        ests = [zd.estimate(_vals(f3a, L, failures__shape=float(hi)) - _vals(f3a, L, failures__shape=float(lo)))
                .scaled(1 / _ref(data, L)) for L in loads]
        i = int(np.argmin([e.mean for e in ests]))
        return f"shape {hi:g} - {lo:g} at load {loads[i]:g}", ests[i]
    if key == "F2":
        best = None
        for L in loads:
            for name in ("fig3b", "fig3c", "fig4"):
                if name in data:
                    e = range_margin(f3a, SHAPE, data[name], FACTOR[name], L, _ref(data, L))
                    if best is None or e.mean < best[1].mean:
                        best = (f"shape range - {FACTOR[name].split('.')[1]} range at load {L:g}", e)
        return best
    if key in ("F3", "F4"):
        name = "fig3b" if key == "F3" else "fig3c"
        if name not in data:
            return None
        ests = [range_margin(data[name], FACTOR[name], f3a, SHAPE, L, _ref(data, L)) for L in loads]
        i = int(np.argmax([e.mean for e in ests]))
        return f"{FACTOR[name].split('.')[1]} range - shape range at load {loads[i]:g}", ests[i]
    if key == "F5" and "fig4" in data:
        res = data["fig4"]
        dts = sorted(float(v) for v in zd.axis_values(res, DOWN))
        cands = [(f"down {d / 3600:g} h vs {dts[0] / 60:g} min at load {L:g}",
                  zd.relative_paired(_vals(res, L, failures__downtime=d), _vals(res, L, failures__downtime=dts[0])))
                 for L in zd.loads(res) for d in dts[1:]]
        return max(cands, key=lambda c: abs(c[1].mean))
    if key in ("F6", "F7"):
        name = "fig5" if key == "F6" else "fig6"
        if name not in data:
            return None
        return largest_cut(data[name])
    return None


def largest_cut(res) -> tuple[str, Est]:
    """The most negative relative paired change of slowdown, periodic vs none, over loads,
    failure settings and intervals."""
    cases = zd.ckpt_cases(res)
    none = [c for c in cases if c[0] == "none"][0]
    groups = {tuple((a, float(res.points[a].iloc[i])) for a in (SHAPE, W, ALPHA))
              for i in range(len(res.points))}
    best = None
    for g in sorted(groups):
        fixed = {a.replace(".", "__"): v for a, v in g}
        for L in zd.loads(res):
            ref = _vals(res, L, checkpoint="none", checkpoint_interval=none[1], **fixed)
            for c in cases:
                if c[0] == "none":
                    continue
                e = zd.relative_paired(_vals(res, L, checkpoint=c[0], checkpoint_interval=c[1], **fixed), ref)
                label = (f"{zd.ckpt_label(c)} at load {L:g}, β={g[0][1]:g} W={g[1][1]:g} α={g[2][1]:g}")
                if best is None or e.mean < best[1].mean:
                    best = (label, e)
    return best


# ------------------------------------------------------------------------------------- study
def evaluate(data, negligible: float) -> dict[str, Cell]:
    out = {}
    for f in all_findings(data, negligible):
        h = headline(f.key, data)
        out[f.key] = Cell(f.agree, h[0] if h else "", h[1] if h else None)
    return out


def load_variant(results_dir: Path, v: Variant):
    study_p, base_p = results_dir / f"{v.stem}.h5", results_dir / f"{v.stem}_baseline.h5"
    for p in (study_p, base_p):
        if not p.exists():
            raise zd.UsageError(f"{p}: missing (run scripts/zhang_sensitivity.sh)")
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        return figure_views(open_results(study_p), open_results(base_p), v.metric)


def study(results_dir, negligible: float, variants=VARIANTS) -> dict[str, dict[str, Cell]]:
    d = Path(results_dir)
    table = {}
    for v in variants:
        if (d / f"{v.stem}.h5").exists() or v.name == "current":
            table[v.name] = evaluate(load_variant(d, v), negligible)
        else:
            print(f"note: {v.name}: no results, skipped", file=sys.stderr)
    return table


def cmd_table(args) -> int:
    table = study(args.results_dir, args.negligible)
    for line in (render_markdown(table) if args.markdown else render(table, VARIANTS)):
        print(line)
    return 0


def cmd_baselines(args) -> int:
    d = Path(args.results_dir)
    metrics = [(zd.SLOWDOWN, "slowdown"), ("mean_bounded_slowdown", "bounded (10 s)"),
               ("mean_slowdown_above_floor", "runs >= floor")]
    print("No-failure baseline per variant and load: " + ", ".join(m[1] for m in metrics))
    for v in VARIANTS:
        if v.metric or not (d / f"{v.stem}_baseline.h5").exists():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            base = open_results(d / f"{v.stem}_baseline.h5")
        parts = []
        for L in zd.loads(base):
            vals = [zd.estimate(zd.values(base, m, workload__target_load=L)) for m, _ in metrics]
            parts.append(f"{L:g}: " + " / ".join(f"{e.mean:.3g}" for e in vals))
        print(f"   {v.name:<17} " + "; ".join(parts))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("results_dir")
    t.add_argument("--negligible", type=float, default=0.10)
    t.add_argument("--markdown", action="store_true", help="the summary as a Markdown table")
    b = sub.add_parser("baselines")
    b.add_argument("results_dir")
    args = ap.parse_args(argv)
    try:
        return {"table": cmd_table, "baselines": cmd_baselines}[args.cmd](args)
    except zd.UsageError as e:
        print(f"zhang_sensitivity.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
