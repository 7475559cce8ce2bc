"""Plank & Thomason (JPDC 2001): Table 4 (54 numbers), §8's text readings, the §9 simulation
check and Figure 4, from results/plank/{table4,million_day,figure4}.h5."""
from __future__ import annotations

from pathlib import Path

from faultsweep_analysis import open_results

from reproduce import plank as pk
from reproduce.report import plank_figure
from reproduce.report.rows import EQUAL, Figure, Page, Part, Row, Tol, exact, fmt_ci

REL_TOL = 0.02
TOL = Tol("Table 4 prints 2-3 significant digits (rounding up to 0.5-2 % of the value at 3)",
          rel=REL_TOL)
SIM_TOL = Tol("§9 itself calls the simulation and the chain equal within 2.7 %", absolute=2.7)
EVIDENCE = "inputs/plank/README.md"
NAMES = {"a_opt": "a_opt", "I_opt_h": "I_opt (h)", "availability": "A(a_opt, I_opt)",
         "runtime_h": "RT_a (h)", "expected_runtime_h": "RT_a / A (h)", "overhead_pct": "overhead (%)"}
# Why a Table 4 cell differs, found while reproducing (details and arithmetic in EVIDENCE).
WHY = {
    ("EP", None): "Table 4's EP running times cannot come from Table 2's coefficients (Eq. 6 with "
                  "r = 512 gives about twice the printed RT); with Table 2 as printed the optimal a "
                  "shifts by one",
    ("BT", "HIGH", "I_opt_h"): "the printed I_opt would need a checkpoint overhead 2.3 x Table 3's; "
                               "ours agrees with Young's sqrt(2 C MTTF / a)",
    ("BT", "HIGH", "availability"): "follows from the shorter I_opt (row above): fewer lost hours per "
                                    "failure",
    ("BT", "HIGH", "overhead_pct"): "follows from I_opt and A (rows above)",
    ("BT", "LOW", "availability"): "with this A the chain gives §8's text value of RT_a / A; Table 4's "
                                   "A and RT_a / A do not fit its own text",
    ("LU", "LOW", "availability"): "with this A the chain gives §8's text value of RT_a / A; Table 4's "
                                   "A and RT_a / A do not fit its own text",
    ("BT", "LOW", "expected_runtime_h"): "the chain reproduces §8's text value instead (row §8 below)",
    ("LU", "LOW", "expected_runtime_h"): "the chain reproduces §8's text value instead (row §8 below)",
    ("BT", "LOW", "overhead_pct"): "follows from RT_a / A, which matches §8's text, not the table",
    ("LU", "LOW", "overhead_pct"): "follows from RT_a / A, which matches §8's text, not the table",
}


def _why(app, env, q) -> str:
    return WHY.get((app, env, q)) or WHY.get((app, None)) or "unexplained"


def _row(section, item, paper, ours, q, why, stem) -> Row:
    """A value of the Markov chain (deterministic: exact) beside the printed one."""
    tol = EQUAL if q == "a_opt" else TOL
    return Row(section, item, f"{paper:g}", exact(ours), "value", [Part(paper, ours, ours, ours)],
               tol, explanation=why, evidence=EVIDENCE, source=stem, value=ours)


def table4_rows(path: Path) -> list[Row]:
    res = open_results(path)
    frame = pk.table4_frame(res)
    rows = []
    for (app, env), r in frame.iterrows():
        if (app, env) not in pk.PAPER_TABLE4:
            continue
        for q in pk.QUANTITIES:
            ours, paper = float(r[q]), float(r[f"{q}_paper"])
            rows.append(_row("Table 4", f"{app} {env}: {NAMES[q]}", paper, ours, q,
                             _why(app, env, q), path.stem))
    for app, env, q, value, where in pk.PAPER_TEXT:
        ours = float(frame.loc[(app, env), q])
        rows.append(_row("§8 text", f"{app} {env}: {NAMES[q]} ({where.split(':')[0]})", value,
                         ours, q, _why(app, None if app == "EP" else env, q), path.stem))
    return rows


def million_day_rows(path: Path) -> list[Row]:
    res = open_results(path)
    frame = pk.million_day_frame(res)
    rows = []
    for _, r in frame.iterrows():
        rel = 100 * float(r["rel_diff"])
        ci = fmt_ci(rel, 100 * float(r["rel_ci95_lo"]), 100 * float(r["rel_ci95_hi"]), 3, " %")
        lo, hi = 100 * float(r["rel_ci95_lo"]), 100 * float(r["rel_ci95_hi"])
        part = Part(0.0, rel, lo, hi)
        why = (f"the chain's value is inside our 95 % CI at A = {float(r['chain']):.2g}: too few "
               "replicas to pin the simulation within 2.7 % there" if lo <= 0 <= hi
               else "unexplained")
        rows.append(Row(
            "§9 simulation", f"{r['app']} {r['env']}: simulated A vs the chain's, difference in "
            f"% ({int(r['n'])} replicas)", "within 2.7 %", ci, "value", [part], SIM_TOL,
            explanation=why, source=path.stem, value=rel))
    return rows


def build(results: Path, out: Path) -> Page:
    page = Page("plank", "Plank & Thomason (JPDC 2001)",
                "J. S. Plank, M. G. Thomason, Processor allocation and checkpoint interval "
                "selection in cluster computing systems, JPDC 61 (2001)")
    d = results / "plank"
    page.add_rows(d, (("table4", table4_rows), ("million_day", million_day_rows)))
    fig4 = d / "figure4.h5"
    if fig4.exists():
        res = open_results(fig4)
        page.sources.append(str(fig4))
        for env in ("HIGH", "MEDIUM", "LOW"):
            png = f"plank_figure4_{env.lower()}.png"
            ours = plank_figure.draw(res, env, out / png)
            page.figures.append(Figure(
                png, f"Figure 4 ({env}): optimal expected running time RT_a / A(a, I_opt) against "
                     "the processors used a, one line per application; its printed points are "
                     "Table 4's optima (and §8's text values)", ours))
    else:
        page.notes.append(f"figure4: not run ({fig4} missing)")
    return page
