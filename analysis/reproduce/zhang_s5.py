"""Zhang et al. (JSSPP 2004) §5: the checkpoint-overhead panels of Figs. 5(c)/6(c), perfect
prediction (Fig. 7), bucketed prediction (Figs. 8-10) and Least Failure First (Fig. 11).
Run through zhang.py:

    python3 analysis/reproduce/zhang.py s5-findings RESULTS_DIR [--noticeable 0.05]
    python3 analysis/reproduce/zhang.py s5-figures RESULTS_DIR --out DIR

RESULTS_DIR holds what jobs/zhang/*.toml write: baseline.h5 (no failures), fig5.h5, fig6.h5,
fig7.h5 (axis `how`: strategy none / none / predict_exact zipped with checkpoint none / periodic
4 h / none), fig8.h5 (zhang.buckets x strategy), fig9.h5 (strategy, 4-h buckets), fig10.h5
(failures.W/alpha zipped x strategy), fig11.h5 (failures.W/alpha zipped x allocator/strategy
zipped); all over workload.target_load. Missing files are skipped.

s5-findings prints ours (mean, 95 % CI over replicas; paired where points share failures: the
same replica index sees the same failures whatever the checkpointing or placement) beside the
paper's claims, each with a verdict:
  S1 Fig. 5: every 2 h, the checkpoint overhead (> 0.4 % in the paper) exceeds the work-loss
     saving (< 0.2 %): overhead ratio vs paired (work loss none - work loss 2 h);
  S2 Fig. 7: perfect prediction "almost completely eliminates" the loss: share of the
     failure-induced slowdown (none - no failures) removed >= 90 %, work loss cut >= 90 %;
  S3 Fig. 8: the heuristics improve slowdown "noticeably even with 8-hour buckets": every paired
     cut at 8 h is >= NOTICEABLE with a CI excluding 0, at some load;
  S4 Fig. 9: with 4-h buckets the heuristics are comparable (pairwise paired differences below
     NOTICEABLE of the none slowdown) and cut slowdown "by up to 70 %" (largest cut per heuristic);
  S5 Fig. 10: correlated failures benefit more: relative cut (4-h, Checkpoint All) for W = 64 and
     alpha = 0.99 vs i.i.d. (fig9), unpaired (different failure streams: CIs combined);
  S6 Fig. 11: LFF cuts the work loss of spatially skewed failures (alpha = 0.99) by nearly 50 %:
     paired relative change of the work-loss ratio, LFF vs first fit (verdict: a cut of >= 35 %).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from reproduce.zhang_data import (
    SLOWDOWN, WLR, Est, UsageError, axis_values, baseline_value, ckpt_cases, ckpt_label, estimate,
    loads, open_results, paired, relative_paired, values, w_alpha_pairs)
from reproduce.zhang_findings import Finding
from reproduce.zhang_plot import FigureWriter, _new_figure, _panel_pair, _series

OVERHEAD = "checkpoint_overhead_ratio"
S5_FILES = ("baseline", "fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "fig11")
HEURISTICS = ("bucket_all", "bucket_long", "bucket_big")
LABEL = {"none": "no checkpoints", "bucket_all": "Checkpoint All", "bucket_long": "Checkpoint Long",
         "bucket_big": "Checkpoint Big (k=1)", "predict_exact": "perfect prediction",
         "lff_migrate": "LFF + migration"}


def load(results_dir) -> dict:
    d = Path(results_dir)
    if not d.is_dir():
        raise UsageError(f"{d}: not a directory")
    out = {}
    for name in S5_FILES:
        p = d / f"{name}.h5"
        if p.exists():
            try:
                out[name] = open_results(p)
            except (OSError, ValueError) as e:
                raise UsageError(f"{p}: {e}") from e
    return out


def combined_diff(a: Est, b: Est) -> Est:
    """a - b for independent estimates: CI half-widths combined in quadrature."""
    ha, hb = (a.hi - a.lo) / 2, (b.hi - b.lo) / 2
    h = math.hypot(ha, hb)
    m = a.mean - b.mean
    return Est(m, m - h, m + h, min(a.n, b.n))


def _v(res, metric, L, **fixed):
    return values(res, metric, workload__target_load=L, **fixed)


# ------------------------------------------------------------------------------------ findings
def finding_overhead(res) -> Finding:
    shapes = [float(s) for s in axis_values(res, "failures.shape")]
    shape = 0.65 if any(math.isclose(s, 0.65) for s in shapes) else shapes[0]
    ok, lines = True, []
    for L in loads(res):
        fx = {"failures__shape": shape}
        none = _v(res, WLR, L, checkpoint="none", checkpoint_interval=86400.0, **fx)
        two = dict(checkpoint="periodic", checkpoint_interval=7200.0, **fx)
        over = estimate(_v(res, OVERHEAD, L, **two))
        wl = estimate(_v(res, WLR, L, **two))
        saving = paired(none, _v(res, WLR, L, **two))
        net = paired(_v(res, OVERHEAD, L, **two), none - _v(res, WLR, L, **two))
        holds = net.lo > 0
        ok &= holds
        lines.append(f"load {L:g}: 2-h overhead {over.fmt(100, 3)} %, work loss at 2 h "
                     f"{wl.fmt(100, 3)} %, saving vs none {saving.fmt(100, 3)} %, overhead - "
                     f"saving {net.fmt(100, 3)} %" + ("" if holds else "  [saving >= overhead]"))
    lines.append(f"(shape {shape:g}); paper: overhead > 0.4 %, work loss < 0.2 % at 2 h")
    return Finding("S1", "Fig. 5: a 2-h interval's checkpoint overhead outweighs its work-loss "
                     "saving", bool(ok), lines)


def finding_perfect(res, base) -> Finding:
    ok, lines = True, []
    for L in loads(res):
        none = _v(res, SLOWDOWN, L, strategy="none", checkpoint="none")
        exact = _v(res, SLOWDOWN, L, strategy="predict_exact")
        b = baseline_value(base, SLOWDOWN, L)
        cut = paired(none, exact)
        wl_none = _v(res, WLR, L, strategy="none", checkpoint="none")
        wl_cut = relative_paired(_v(res, WLR, L, strategy="predict_exact"), wl_none)
        line = f"load {L:g}: slowdown none {estimate(none).fmt()} -> exact {estimate(exact).fmt()}"
        if np.isfinite(b):
            share = cut.scaled(1 / (float(np.nanmean(none)) - b))
            holds = share.mean >= 0.9 and wl_cut.mean <= -0.9
            line += f" (no failures {b:.3g}): share of the failure slowdown removed {share.fmt(pct=True)}"
        else:
            holds = wl_cut.mean <= -0.9
        ok &= holds
        per = estimate(_v(res, SLOWDOWN, L, strategy="none", checkpoint="periodic"))
        lines.append(line + f"; work loss {wl_cut.fmt(pct=True)}; periodic 4 h {per.fmt()}"
                     + ("" if holds else "  [not almost complete]"))
    lines.append("paper: perfect prediction almost completely eliminates the loss due to failures")
    return Finding("S2", "Fig. 7: perfect prediction almost eliminates the failure loss",
                     bool(ok), lines)


def _cut(res, L, strategy, **fx):
    ref = _v(res, SLOWDOWN, L, strategy="none", **fx)
    return relative_paired(_v(res, SLOWDOWN, L, strategy=strategy, **fx), ref)


def finding_buckets(res, noticeable) -> Finding:
    nb = sorted(int(b) for b in axis_values(res, "zhang.buckets"))
    lines, ok8 = [], {h: False for h in HEURISTICS}
    for n in nb:
        for L in loads(res):
            parts = []
            for h in HEURISTICS:
                c = _cut(res, L, h, zhang__buckets=n)
                parts.append(f"{h[7:]} {c.fmt(pct=True)}")
                if 24 / n == 8 and c.mean <= -noticeable and c.hi < 0:
                    ok8[h] = True
            lines.append(f"{24 / n:g}-h buckets, load {L:g}: slowdown vs none (paired) " + "; ".join(parts))
    lines.append(f"8-h buckets: noticeable (>= {100 * noticeable:g} % cut, CI < 0) at some load: "
                 + ", ".join(f"{h[7:]} {'yes' if v else 'no'}" for h, v in ok8.items()))
    lines.append("paper: the heuristics improve performance noticeably even with 8-hour buckets")
    return Finding("S3", "Fig. 8: bucket heuristics help noticeably even with 8-h buckets",
                     all(ok8.values()), lines)


def finding_comparable(res, noticeable) -> Finding:
    lines, ok, best = [], True, {h: 0.0 for h in HEURISTICS}
    for L in loads(res):
        ref = _v(res, SLOWDOWN, L, strategy="none")
        cuts = {h: relative_paired(_v(res, SLOWDOWN, L, strategy=h), ref) for h in HEURISTICS}
        for h, c in cuts.items():
            best[h] = min(best[h], c.mean)
        spread = []
        for i, a in enumerate(HEURISTICS):
            for b in HEURISTICS[i + 1:]:
                d = paired(_v(res, SLOWDOWN, L, strategy=a), _v(res, SLOWDOWN, L, strategy=b))
                spread.append(abs(d.mean) / float(np.nanmean(ref)))
        ok &= max(spread) < noticeable
        lines.append(f"load {L:g}: " + "; ".join(f"{h[7:]} {c.fmt(pct=True)}" for h, c in cuts.items())
                     + f"; largest pairwise gap {100 * max(spread):.3g} % of none")
    lines.append("largest cut: " + ", ".join(f"{h[7:]} {100 * -v:.3g} %" for h, v in best.items())
                 + "; paper: comparable, up to 70 %")
    return Finding("S4", "Fig. 9: 4-h heuristics comparable (gaps < "
                     f"{100 * noticeable:g} % of none), cutting slowdown by up to 70 %", bool(ok), lines)


def finding_correlated(fig9, fig10) -> Finding:
    lines, ok = [], True
    combos = w_alpha_pairs(fig10)
    for L in loads(fig10):
        iid = _cut(fig9, L, "bucket_all")
        parts = [f"i.i.d. {iid.fmt(pct=True)}"]
        for w, a in combos:
            c = _cut(fig10, L, "bucket_all", failures__W=w, failures__alpha=a)
            d = combined_diff(c, iid)
            more = d.hi < 0
            ok &= more
            parts.append(f"W={w:g} α={a:g} {c.fmt(pct=True)} (minus i.i.d. {d.fmt(pct=True)})"
                         + ("" if more else " [not more]"))
        lines.append(f"load {L:g}, Checkpoint All, slowdown vs none: " + "; ".join(parts))
    lines.append("paper: failures with temporal correlation benefit more (burstier arrivals)")
    return Finding("S5", "Fig. 10: correlated failures benefit more from bucket checkpointing",
                     bool(ok), lines)


def finding_lff(res) -> Finding:
    lines, ok = [], True
    for w, a in w_alpha_pairs(res):
        fx = {"failures__W": w, "failures__alpha": a}
        for L in loads(res):
            ff = _v(res, WLR, L, allocator="first_fit", **fx)
            lf = _v(res, WLR, L, allocator="lff", **fx)
            rel = relative_paired(lf, ff)
            sd = relative_paired(_v(res, SLOWDOWN, L, allocator="lff", **fx),
                                   _v(res, SLOWDOWN, L, allocator="first_fit", **fx))
            mig = estimate(_v(res, "migrations", L, allocator="lff", **fx))
            spatial = a > 0.5
            if spatial:
                ok &= rel.mean <= -0.35 and rel.hi < 0
            lines.append(f"W={w:g} α={a:g} load {L:g}: work loss ff {estimate(ff).fmt(100, 3)} % -> "
                         f"LFF {estimate(lf).fmt(100, 3)} % ({rel.fmt(pct=True)}); slowdown "
                         f"{sd.fmt(pct=True)}; migrations {mig.fmt(digits=3)}")
    lines.append("paper: LFF cuts nearly 50 % of the work loss for spatially skewed failures")
    return Finding("S6", "Fig. 11: LFF cuts the work loss of spatial failures by nearly 50 % "
                     "(ours: a cut >= 35 %, CI < 0, at every load)", bool(ok), lines)


def all_findings(data: dict, noticeable: float = 0.05) -> list:
    out = []
    base = data.get("baseline")
    if "fig5" in data and OVERHEAD in data["fig5"].metrics:
        out.append(finding_overhead(data["fig5"]))
    if "fig7" in data:
        out.append(finding_perfect(data["fig7"], base))
    if "fig8" in data:
        out.append(finding_buckets(data["fig8"], noticeable))
    if "fig9" in data:
        out.append(finding_comparable(data["fig9"], noticeable))
    if "fig9" in data and "fig10" in data:
        out.append(finding_correlated(data["fig9"], data["fig10"]))
    if "fig11" in data:
        out.append(finding_lff(data["fig11"]))
    return out


def cmd_findings(args) -> int:
    data = load(args.results_dir)
    found = all_findings(data, args.noticeable)
    if not found:
        raise UsageError(f"{args.results_dir}: none of fig5 (with {OVERHEAD}), fig7..fig11")
    for f in found:
        print(f.render())
        print()
    return 0


# ------------------------------------------------------------------------------------- figures
def _overhead_panel(ax, res, lines, title):
    xs = loads(res)
    for label, fixed in lines:
        m, err = _series(res, OVERHEAD, xs, **fixed)
        ax.errorbar(xs, 100 * m, yerr=100 * err, marker="o", capsize=3, label=label)
    ax.set_xlabel("offered load (runtime-scaled CTC-SP2)")
    ax.set_ylabel("checkpoint overhead [%]")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def draw_figures(data: dict, out_dir) -> list:
    from matplotlib.figure import Figure

    figs = FigureWriter(out_dir)
    base = data.get("baseline")
    for name, groups in (("fig5", "failures.shape"), ("fig6", None)):
        res = data.get(name)
        if res is None or OVERHEAD not in res.metrics:
            continue
        if groups:
            rows = [({"failures__shape": float(s)}, f"β={float(s):g}") for s in axis_values(res, groups)]
        else:
            rows = [({"failures__W": w, "failures__alpha": a}, f"W={w:g} α={a:g}")
                    for w, a in w_alpha_pairs(res)]
        fig = Figure(figsize=(5.5 * len(rows), 3.9))
        axs = fig.subplots(1, len(rows), squeeze=False)[0]
        for ax, (fx, title) in zip(axs, rows):
            lines = [(ckpt_label(c), {"checkpoint": c[0], "checkpoint_interval": c[1], **fx})
                     for c in ckpt_cases(res)]
            _overhead_panel(ax, res, lines, title)
        figs.save(fig, f"{name}c.png", f"Zhang et al. Fig. {name[3]}(c): checkpoint overhead")
    if "fig7" in data:
        res = data["fig7"]
        fig, axs = _new_figure(1)
        lines = [("no checkpoints", {"strategy": "none", "checkpoint": "none"}),
                 ("periodic every 4 h", {"strategy": "none", "checkpoint": "periodic"}),
                 ("perfect prediction", {"strategy": "predict_exact"})]
        _panel_pair(axs[0], res, base, lines, "β=0.85, W=2, α=0.01, C = 5 min")
        figs.save(fig, "fig7.png", "Zhang et al. Fig. 7: exact prediction and exact checkpointing")
    if "fig8" in data:
        res = data["fig8"]
        nb = sorted(int(b) for b in axis_values(res, "zhang.buckets"))
        fig, axs = _new_figure(len(nb))
        for row, n in enumerate(nb):
            lines = [(LABEL[s], {"strategy": s, "zhang__buckets": n}) for s in ("none",) + HEURISTICS]
            _panel_pair(axs[row], res, base, lines, f"{24 / n:g}-hour buckets")
        figs.save(fig, "fig8.png", "Zhang et al. Fig. 8: bucket prediction, i.i.d. failures")
    if "fig9" in data:
        res = data["fig9"]
        fig, axs = _new_figure(1)
        lines = [(LABEL[str(s)], {"strategy": str(s)}) for s in axis_values(res, "strategy")]
        _panel_pair(axs[0], res, base, lines, "4-hour buckets, i.i.d.")
        figs.save(fig, "fig9.png", "Zhang et al. Fig. 9: heuristics with 4-hour buckets")
    for name, title in (("fig10", "Fig. 10: 4-h buckets, correlated failures"),
                        ("fig11", "Fig. 11: Least Failure First")):
        res = data.get(name)
        if res is None:
            continue
        combos = w_alpha_pairs(res)
        fig, axs = _new_figure(len(combos))
        for row, (w, a) in enumerate(combos):
            fx = {"failures__W": w, "failures__alpha": a}
            if name == "fig10":
                lines = [(LABEL[s], {"strategy": s, **fx}) for s in ("none",) + HEURISTICS]
            else:
                lines = [("first fit", {"allocator": "first_fit", **fx}),
                         ("LFF + migration", {"allocator": "lff", **fx})]
            _panel_pair(axs[row], res, base, lines, f"W={w:g}, α={a:g}")
        figs.save(fig, f"{name}.png", f"Zhang et al. {title}")
    return figs.written


def cmd_figures(args) -> int:
    data = load(args.results_dir)
    for p in draw_figures(data, args.out):
        print(f"wrote {p}")
    return 0


def add_commands(sub) -> dict:
    """Adds s5-findings and s5-figures to zhang.py's argument parser; returns their handlers."""
    f = sub.add_parser("s5-findings", help="numbers behind §5 (Figs. 5(c), 7-11) with verdicts")
    f.add_argument("results_dir")
    f.add_argument("--noticeable", type=float, default=0.05,
                   help="relative slowdown cut that counts as noticeable (0.05)")
    g = sub.add_parser("s5-figures", help="Figures 5(c), 6(c), 7-11 as PNG")
    g.add_argument("results_dir")
    g.add_argument("--out", required=True)
    return {"s5-findings": cmd_findings, "s5-figures": cmd_figures}
