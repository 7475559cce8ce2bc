"""Zhang et al. (JSSPP 2004) §4 / §5.1: the numbers behind the paper's claims, ours with 95 % CIs,
each with a one-line verdict agree / disagree. Run through zhang.py:

    python3 analysis/reproduce/zhang.py findings RESULTS_DIR [--negligible 0.10]

RESULTS_DIR holds baseline.h5 and fig3a..fig6.h5 (see zhang.py); missing files are skipped.
Effects are relative to the no-failure baseline (deterministic: a fixed trace and no failures,
so its value is a constant) and paired differences where points share failures (same replica
index, same failure stream: W, alpha, down time and checkpointing do not change the failure
times):
  F1 slowdown grows with the failure rate (shape) at every load;
  F2 shape matters most: its effect exceeds those of W, alpha and down time at every load;
  F3 temporal correlation W matters less than shape;
  F4 spatial skew alpha matters less than shape;
  F5 down time barely matters: |4 h - 2 min| / slowdown(2 min) < NEGLIGIBLE at every load,
     or its CI contains 0;
  F6 periodic checkpointing helps little for i.i.d. failures: no interval cuts slowdown by
     more than NEGLIGIBLE (or the cut's CI contains 0) at any load;
  F7 ... nor for correlated failures (fig6).
Relative paired effects are mean(d) / mean(reference) with the CI of d scaled the same way (the
reference's own noise is ignored; with common random numbers it is mostly shared).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from reproduce.zhang_data import (
    SLOWDOWN, WLR, Est, Results, UsageError, axis_values, baseline_value, ckpt_cases, ckpt_label,
    estimate, load_dir, loads, paired, relative_paired, values, w_alpha_pairs)


@dataclass
class Finding:
    key: str
    claim: str
    agree: bool
    lines: list[str]
    header: list[str] = field(default_factory=list)  # the same numbers as a small table
    rows: list[list[str]] = field(default_factory=list)  # last cell: does the claim hold here

    def summary(self) -> str:
        """The verdict in one line: where the claim holds."""
        held = sum(r[-1] == "yes" for r in self.rows)
        return (f"{'holds' if self.agree else 'does not hold'}: yes in {held} of "
                f"{len(self.rows)} cases (table {self.key})")

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
    ok, lines, rows = True, [], []
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
        rows.append([f"{L:g}", f"{b:.3g} (exact: one trace)", *(p.split(": ", 1)[1] for p in parts),
                     "yes" if mono else "no"])
        lines.append(f"load {L:g} (no failures {b:.3g}): " + "; ".join(parts)
                     + ("" if mono else "  [not monotone/significant]"))
        wl = [estimate(values(res, WLR, workload__target_load=L, failures__shape=s)) for s in shapes]
        lines.append(f"   work-loss ratio: " + "; ".join(f"β={s:g}: {e.fmt()}" for s, e in zip(shapes, wl)))
    lines.append("paper: 1.2/day -> up to +40 %, 4.3/day -> up to +300 % slowdown")
    return Finding("F1", "Slowdown grows with the failure rate (Weibull shape at fixed scale)",
                   bool(ok), lines, ["load", "slowdown, no failures",
                                     *(f"β={s:g}: slowdown (vs none)" for s in shapes),
                                     "rises, significantly?"], rows)


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
    ok, lines, rows, names = True, [], [], []
    for L in loads(data["fig3a"]):
        b = baseline_value(base, SLOWDOWN, L)
        if not np.isfinite(b):
            b = float(np.nanmean(values(data["fig3a"], SLOWDOWN, workload__target_load=L,
                                        failures__shape=min(axis_values(data["fig3a"], "failures.shape")))))
        eff = _factor_effects(data, L, b)
        top = max(eff, key=eff.get)
        ok &= top == "shape"
        names = list(eff)
        rows.append([f"{L:g}", *(f"{100 * v:.3g} %" for v in eff.values()), top,
                     "yes" if top == "shape" else "no"])
        lines.append(f"load {L:g}: range of mean slowdown / no-failure slowdown: "
                     + ", ".join(f"{k} {100 * v:.3g} %" for k, v in eff.items()) + f" (largest: {top})")
    return Finding("F2", "Shape (failure rate) matters most among shape, W, alpha, down time",
                   bool(ok), lines, ["load", *(f"range over {n} (% of no-failure slowdown)"
                                               for n in names), "largest", "shape largest?"], rows)


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
    ok, lines, rows = True, [], []
    for L in loads(res):
        rel, _ = _paired_vs(res, axis, hi, lo, L)
        relw, dw = _paired_vs(res, axis, hi, lo, L, metric=WLR)
        b = baseline_value(base, SLOWDOWN, L)
        eff = _factor_effects(data, L, b if np.isfinite(b) else 1.0)
        mine = eff[factor]
        less = mine < eff.get("shape", math.inf)
        ok &= less
        rows.append([f"{L:g}", rel.fmt(pct=True), relw.fmt(pct=True), f"{100 * mine:.3g} %",
                     f"{100 * eff.get('shape', math.nan):.3g} %", "yes" if less else "no"])
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
    return Finding(key, claim, bool(ok), lines,
                   ["load", f"slowdown, {factor} = {hi:g} vs {lo:g} (paired)", "work loss, same",
                    f"range over {factor} (% of no-failure slowdown)", "range over shape",
                    "smaller than shape's?"], rows)


def finding_downtime(data, base, negligible) -> Finding:
    res = data["fig4"]
    dts = sorted(float(v) for v in axis_values(res, "failures.downtime"))
    ok, lines, rows = True, [], []
    for L in loads(res):
        for hi in dts[1:]:
            rel, _ = _paired_vs(res, "failures.downtime", hi, dts[0], L)
            small = verdict_small(rel, negligible)
            ok &= small
            rows.append([f"{L:g}", f"{hi / 3600:g} h", rel.fmt(pct=True), "yes" if small else "no"])
            lines.append(f"load {L:g}: slowdown down {hi / 3600:g} h vs {dts[0] / 60:g} min (paired) "
                         f"{rel.fmt(pct=True)}" + ("" if small else "  [not negligible]"))
    return Finding("F5", f"Down time barely matters (|effect| < {100 * negligible:g} % or CI ∋ 0)",
                   bool(ok), lines, ["load", "down time", f"slowdown vs {dts[0] / 60:g} min "
                                     "(paired)", "negligible?"], rows)


def finding_checkpoint(res: Results, groups: list[tuple[str, dict]], negligible, key, claim) -> Finding:
    ok, lines, rows = True, [], []
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
                rows.append([label, f"{L:g}", ckpt_label(c), rel.fmt(pct=True),
                             "yes" if small else "no"])
                parts.append(f"{ckpt_label(c)} {rel.fmt(pct=True)}" + ("" if small else " [helps]"))
            lines.append(f"{label}, load {L:g}: slowdown vs none (paired): " + "; ".join(parts))
    lines.append("an interval longer than every job's run time never checkpoints, so it equals none "
                 "(the CTC-SP2 window's longest job runs 18.7 h unscaled: 24 h = none exactly)")
    return Finding(key, claim, bool(ok), lines, ["failures", "load", "checkpoint",
                                                 "slowdown vs none (paired)", "helps little?"], rows)


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
        groups = [(f"W={w:g} α={a:g}", {"failures__W": w, "failures__alpha": a})
                  for w, a in w_alpha_pairs(res)]
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
