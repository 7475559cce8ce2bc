"""Zhang, Squillante, Sivasubramaniam & Sahoo (JSSPP 2004): Table 1, the §4-§5.1 findings and
the §5.2 claims with paired 95 % CIs (zhang.py, zhang_s5.py), Figures 3-11, and for each finding
that differs the single assumptions that flip it (the sensitivity study, zhang_sensitivity.py)."""
from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np

from reproduce import zhang as zh
from reproduce import zhang_data as zd
from reproduce import zhang_findings as zf
from reproduce import zhang_s5 as s5
from reproduce import zhang_sensitivity as zs
from reproduce.zhang_sensitivity_table import flips
from reproduce.report.rows import Figure, Page, Part, Row, Table, Tol, fmt

NEGLIGIBLE = 0.10     # zhang.py's default: a checkpointing cut below 10 % is "little"
NOTICEABLE = 0.05     # zhang_s5.py's default
FIGURES = {  # file written by the renderers -> one line on the paper's figure
    "fig3.png": "Fig. 3: mean slowdown and work loss against load for failure shape, W and alpha",
    "fig4.png": "Fig. 4: the same against load for down times 2 min to 4 h",
    "fig5.png": "Fig. 5: periodic checkpointing under i.i.d. failures (slowdown, work loss)",
    "fig5c.png": "Fig. 5(c): checkpoint overhead of periodic checkpointing, i.i.d. failures",
    "fig6.png": "Fig. 6: periodic checkpointing under correlated failures",
    "fig6c.png": "Fig. 6(c): checkpoint overhead, correlated failures",
    "fig7.png": "Fig. 7: checkpointing on exact failure prediction",
    "fig8.png": "Fig. 8: bucket prediction heuristics, i.i.d. failures, bucket sizes",
    "fig9.png": "Fig. 9: Checkpoint All / Long / Big with 4-hour buckets",
    "fig10.png": "Fig. 10: the heuristics under correlated failures",
    "fig11.png": "Fig. 11: Least Failure First allocation with migration",
}
EVIDENCE = "#sensitivity"
# Several assumptions changed at once (jobs/zhang/combinations/), for F7, which no single one flips.
COMBINATIONS = [
    zs.Variant("split_conservative", "combination", "split_4h + conservative"),
    zs.Variant("synthetic_split", "combination", "synthetic + split_4h"),
    zs.Variant("synthetic_conservative", "combination", "synthetic + conservative"),
    zs.Variant("synthetic_split_conservative", "combination", "synthetic + split_4h + conservative"),
]


T1_TOL = Tol("the paper's count comes from one trace of a random process", band=True)
FINDING_TOL = Tol("a relation between paired 95 % intervals, no size")


def table1_rows(fig3a) -> list[Row]:
    rows = []
    for r in zh.table1_rows(fig3a):
        if "ours_per_day" not in r:
            continue
        rate, (m, lo, hi) = r["ours_per_day"], r["ours_per_day_boot"]
        (p5, p95) = r["ours_failures_p5_p95"]
        c, clo, chi = r["ours_failures_boot"]
        span, renewal = r["ours_span_d"], r["renewal_per_day"]
        why = ""
        fit = ("matches m(T)/T (inside our interval)" if lo <= renewal <= hi
               else "differs from m(T)/T (outside our interval)")
        if r["mean_gap_d"] > 1:
            why = (f"ours: the simulated failure stream starts at a failure at t = 0 (an ordinary "
                   f"renewal process); at shape {r['shape']:g} most gaps are short (median "
                   f"{zh.SCALE_S * math.log(2) ** (1 / r['shape']) / 60:.0f} min) but the mean gap "
                   f"is {r['mean_gap_d']:.3g} d, so the expected count in our {span:.0f}-day "
                   f"window is the renewal function m(T), {renewal * span:.3g} failures = "
                   f"{renewal:.3g}/day from the model alone ({renewal / r['exact_per_day']:.1f}x "
                   f"the long-run {r['exact_per_day']:.3g}/day, which m(T)/T reaches only far "
                   f"beyond the mean gap); ours {fit}. "
                   "The paper's: its count lies above "
                   "our 95th percentile of single runs, and no Weibull(0.2) stream with scale "
                   "18000 s gives 1.2/day on average over 65 days")
        elif not (p5 <= r["paper_failures"] <= p95):
            why = (f"the exact long-run rate at this shape and scale is {r['exact_per_day']:.3g}/day "
                   f"(m(T)/T over our window {renewal:.3g}/day), as ours; the paper's count comes "
                   "from one trace of its own")
        rows.append(Row(
            "Table 1", f"shape {r['shape']:g}: failures per day (failures in the window)",
            f"{r['paper_per_day']:g}/day ({r['paper_failures']} failures)",
            f"{m:.3g}/day [{lo:.3g}, {hi:.3g}] (bootstrap); {c:.0f} failures "
            f"[{clo:.0f}, {chi:.0f}], single runs 5-95 %: {p5:.0f}-{p95:.0f}", "value",
            [Part(r["paper_failures"], c, clo, chi, band=(p5, p95))], T1_TOL,
            explanation=why, source="fig3a", value=rate.mean))
    return rows


# §5.2: what the reproduction found about a claim that differs (no sensitivity study covers §5.2).
WHY_S5 = {
    "S5": "unexplained: W = 64 does cut more, but the difference to i.i.d. failures has a CI "
          "that contains 0",
    "S6": "the cut falls with the load: fewer idle nodes for LFF to choose from (inferred, not "
          "measured)",
}


def _finding_rows(section, findings, flips, evidence) -> list[Row]:
    rows = []
    for f in findings:
        why = ""
        if not f.agree:
            vs = flips.get(f.key)
            if f.key in WHY_S5:
                why = WHY_S5[f.key]
            elif vs is None and section.startswith("§5.2"):
                why = "unexplained"
            elif vs is None:
                why = "unexplained (the sensitivity study was not run)"
            elif vs:
                why = ("flips to agreement when one assumption changes: " + ", ".join(vs)
                       + " (each a different workload, scheduling or load reading)")
            else:
                why = "unexplained: no single assumption of the sensitivity study flips it"
        ours = f.summary() if f.rows else (f"{'holds' if f.agree else 'does not hold'} "
                                           f"(numbers: table {f.key})")
        rows.append(Row(section, f.key, f.claim, ours, "direction", tol=FINDING_TOL,
                        holds=f.agree, explanation=why,
                        evidence=(evidence if not f.agree and flips.get(f.key) is not None
                                  else f"#{f.key}"),
                        source="zhang"))
    return rows


def finding_tables(findings) -> list[Table]:
    """Each finding's numbers as a small table (anchor = its key), the verdict as its title;
    a finding without a table of its own gets one line per case of its text."""
    out = []
    for f in findings:
        if f.rows:
            out.append(Table(f"{f.key}: {f.claim}: {f.summary()}", f.header, f.rows, f.key,
                             "paired 95 % CIs over replicas (Student t); yes/no: does the "
                             "claim hold there"))
            continue
        rows = [ln.strip().split(": ", 1) if ": " in ln else ["", ln.strip()] for ln in f.lines]
        out.append(Table(f"{f.key}: {f.claim}: {'holds' if f.agree else 'does not hold'}",
                         ["case", "ours (paired 95 % CIs over replicas)"], rows, f.key))
    return out


def sensitivity(results: Path):
    """(study table, flips) from results/zhang_sensitivity, or (None, {}) when not run."""
    d = results / "zhang_sensitivity"
    if not (d / "current.h5").exists() or not (d / "current_baseline.h5").exists():
        return None, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        variants = [v for v in zs.VARIANTS
                    if (d / f"{v.stem}.h5").exists() and (d / f"{v.stem}_baseline.h5").exists()]
        table = zs.study(d, NEGLIGIBLE, variants)
    return table, flips(table)


def combinations(results: Path) -> dict:
    """{combination: {finding: Cell}} for the combinations that were run."""
    d = results / "zhang_combinations"
    out = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for v in COMBINATIONS:
            if (d / f"{v.stem}.h5").exists() and (d / f"{v.stem}_baseline.h5").exists():
                out[v.name] = zs.evaluate(zs.load_variant(d, v), NEGLIGIBLE)
    return out


def combination_table(combos: dict) -> Table:
    keys = list(next(iter(combos.values())))
    by = {v.name: v.change for v in COMBINATIONS}
    rows = [[f"{name} ({by[name]})", *(("A" if cells[k].agree else "D") if k in cells else "-"
                                       for k in keys),
             (f"{cells['F7'].what} {cells['F7'].effect.fmt(pct=True)}"
              if "F7" in cells and cells["F7"].effect else "-")] for name, cells in combos.items()]
    return Table("F7 under several changed assumptions at once (A agree, D differ)",
                 ["combination", *keys, "F7: the largest checkpointing cut (95 % CI)"], rows,
                 "combinations", "jobs/zhang/combinations/: the changes of the sensitivity study "
                 "that move F5/F6 or F2/F3, together")


def explain_f7(rows: list[Row], combos: dict) -> None:
    """F7's explanation from the combinations, when they were run."""
    if not combos:
        return
    flipped = [n for n, cells in combos.items() if "F7" in cells and cells["F7"].agree]
    for r in rows:
        if r.item == "F7" and r.holds is False:
            r.explanation = (f"agrees under the combination(s) {', '.join(flipped)}" if flipped
                             else "unexplained: no single assumption and none of the "
                             f"{len(combos)} combinations tried flips it")
            r.evidence = "#combinations"


def sensitivity_table(table) -> Table:
    names = list(table)
    keys = list(table["current"])
    rows = []
    for k in keys:
        cells = [("A" if table[v][k].agree else "D") if k in table[v] else "-" for v in names]
        cur = table["current"][k]
        rows.append([k, *cells, f"{cur.what} {cur.effect.fmt(pct=True) if cur.effect else ''}"])
    by = {v.name: v for v in zs.VARIANTS}
    note = "; ".join(f"{v}: {by[v].change}" for v in names if v in by)
    return Table("Which single assumption flips each finding (A agree, D differ)",
                 ["finding", *names, "deciding effect under current (95 % CI)"], rows,
                 "sensitivity", note)


def build(results: Path, out: Path) -> Page:
    page = Page("zhang", "Zhang et al. (JSSPP 2004)",
                "Y. Zhang, M. S. Squillante, A. Sivasubramaniam, R. K. Sahoo, Performance "
                "implications of failures in large-scale cluster scheduling, JSSPP 2004")
    d = results / "zhang"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = zd.load_dir(d, required=()) if d.is_dir() else {}
        s5data = s5.load(d) if d.is_dir() else {}
    page.sources += [str(d / f"{n}.h5") for n in sorted(set(data) | set(s5data))]
    if not data:
        page.notes.append(f"no results in {d}: not run")
        return page
    table, flips = sensitivity(results)
    if table is None:
        page.notes.append("the sensitivity study (jobs/zhang/sensitivity/) was not run: "
                          "differences are not explained")
    else:
        page.tables.append(sensitivity_table(table))
        page.sources.append(str(results / "zhang_sensitivity"))
    if "fig3a" in data:
        page.rows += table1_rows(data["fig3a"])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        findings = zf.all_findings(data, NEGLIGIBLE)
        page.rows += _finding_rows("§4-§5.1 findings", findings, flips, EVIDENCE)
        page.tables += finding_tables(findings)
        if s5data:
            s5_findings = s5.all_findings(s5data, NOTICEABLE)
            page.rows += _finding_rows("§5.2 claims", s5_findings, {}, "")
            page.tables += finding_tables(s5_findings)
        figdir = out / "zhang"
        written = zh.draw_figures(data, figdir) + (s5.draw_figures(s5data, figdir) if s5data else [])
    for p in written:
        page.figures.append(Figure(f"zhang/{p.name}", FIGURES.get(p.name, p.stem),
                                   "ours: CTC-SP2 window, 320 nodes, EASY, mean and 95 % CI. "
                                   "The paper prints no values for its figures (only curves), "
                                   "so none are overlaid or read off"))
    combos = combinations(results)
    if combos:
        page.tables.append(combination_table(combos))
        page.sources.append(str(results / "zhang_combinations"))
        explain_f7(page.rows, combos)
    missing = [n for n in zd.FILES + s5.S5_FILES if n not in data and n not in s5data]
    if missing:
        page.notes.append("not run: " + ", ".join(sorted(set(missing))))
    return page


__all__ = ["build", "fmt"]
