"""The report's grades follow the rule table (docs/reproduce.md, grades.RULES): violations()
restates each rule as a check on a finished row, written apart from grades.grade(), and is run
over synthetic rows (one or more per rule) and over every row the report builds from a --tiny
run (results/tiny, or a fresh run when the binary and FAULTSWEEP_DATA are there)."""
from __future__ import annotations

import math
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from reproduce.report import grades as g
from reproduce.report.rows import Part, Row, Tol

REPO = Path(__file__).resolve().parents[2]
TOL = Tol("test", rel=0.1)


def _close(p: Part, tol: Tol) -> bool:
    if tol.band:
        return p.band[0] <= p.paper <= p.band[1]
    return abs(p.ours - p.paper) <= max(tol.rel * abs(p.paper), tol.absolute) * (1 + 1e-9)


def _meets(p: Part, op: str) -> bool:  # the interval's end on the bound's side, else ours
    end = (p.lo if op in (">", ">=") else p.hi)
    v = end if not math.isnan(end) else p.ours
    return {">": v > p.paper, ">=": v >= p.paper, "<": v < p.paper, "<=": v <= p.paper}[op]


def _significant(p: Part) -> bool:
    return p.lo > 0 if p.paper > 0 else p.hi < 0  # NaN bounds compare False: not significant


def violations(r: Row) -> list[str]:
    """What is wrong with a row's grade under the rule table; [] when it follows."""
    bad = []
    v, ps = r.verdict, r.parts
    if v not in g.GRADES or r.kind not in g.KINDS:
        return [f"unknown grade {v!r} or kind {r.kind!r}"]
    if (v == g.NOT_COMPARABLE) != (not r.same_data):
        return ["NOT-COMPARABLE exactly when the data are not the paper's"]
    if v == g.NOT_COMPARABLE:
        return []
    agree = bool({
        "value": lambda: ps and all(_close(p, r.tol) for p in ps),
        "bound": lambda: ps and all(_meets(p, r.op) and p.paper != 0 and
                                    1 / r.tol.factor <= p.ours / p.paper <= r.tol.factor
                                    for p in ps),
        "up to": lambda: ps and all(_significant(p) and _close(Part(p.paper, p.largest), r.tol)
                                    for p in ps),
        "direction": lambda: False, "test": lambda: r.holds is True,
        "label": lambda: r.holds is True}[r.kind]())
    consistent = not agree and bool({
        "value": lambda: ps and all(_close(p, r.tol) or p.lo <= p.paper <= p.hi for p in ps),
        "bound": lambda: ps and all(_meets(p, r.op) for p in ps),
        "up to": lambda: ps and all(_significant(p) for p in ps),
        "direction": lambda: r.holds is True, "test": lambda: False,
        "label": lambda: False}[r.kind]())
    if (v == g.AGREE) != agree:
        bad.append(f"AGREE needs the claim's size to match ({r.kind}): {agree}")
    if (v == g.CONSISTENT) != consistent:
        bad.append(f"CONSISTENT needs the claim to hold without its size ({r.kind}): {consistent}")
    if v.startswith("DIFFERS"):
        explained = bool(r.explanation) and not r.explanation.startswith("unexplained")
        if (v == g.DIFFERS_EXPLAINED) != explained:
            bad.append("DIFFERS-explained exactly when a reason is given")
    if r.kind == "value" and any(math.isfinite(p.lo) and p.lo > p.hi for p in ps):
        bad.append("an interval with lo > hi")
    return bad


def row(kind, parts, tol=TOL, **kw) -> Row:
    r = Row("T", "x", "p", "o", kind, parts, tol, **kw)
    r.graded()
    return r


SYNTHETIC = [  # (row, the grade the rule table gives)
    (row("value", [Part(10, 10.5, 10.5, 10.5)]), g.AGREE),                   # within 10 %
    (row("value", [Part(10, 13, 5, 21)]), g.CONSISTENT),                     # paper in a wide CI
    (row("value", [Part(10, 13, 12, 14)], explanation="why"), g.DIFFERS_EXPLAINED),
    (row("value", [Part(10, 13, 12, 14)]), g.DIFFERS_UNEXPLAINED),
    (row("value", [Part(10, 13, 12, 14)], explanation="unexplained: no"), g.DIFFERS_UNEXPLAINED),
    (row("value", [Part(78, 14, 12, 16, band=(1, 37))], Tol("one run", band=True)),
     g.DIFFERS_UNEXPLAINED),
    (row("value", [Part(30, 14, 12, 16, band=(1, 37))], Tol("one run", band=True)), g.AGREE),
    (row("value", [Part(10, 10.5)], same_data=False), g.NOT_COMPARABLE),
    (row("bound", [Part(2000, 3000), Part(2000, 2500)], op=">"), g.AGREE),     # within 2x
    (row("bound", [Part(2000, 76025)], op=">"), g.CONSISTENT),                # holds, 38x
    (row("bound", [Part(30, 20)], op=">="), g.DIFFERS_UNEXPLAINED),
    (row("bound", [Part(0, 5)], op=">"), g.CONSISTENT),                       # '> 0': no size
    (row("bound", [Part(2000, 5192, -11998, 22382)], op=">"), g.DIFFERS_UNEXPLAINED),  # CI below
    (row("up to", [Part(33.8, 6.9, -5.6, 19.4, largest=30)]), g.DIFFERS_UNEXPLAINED),
    (row("up to", [Part(33.8, 10, 5, 15, largest=32)]), g.AGREE),
    (row("up to", [Part(33.8, 10, 5, 15, largest=20)]), g.CONSISTENT),
    (row("direction", [], holds=True), g.CONSISTENT),
    (row("direction", [], holds=False, explanation="a reason"), g.DIFFERS_EXPLAINED),
    (row("test", [Part(0.86, 0.12)], holds=True), g.AGREE),
    (row("test", [Part(0.86, 0.12)], holds=True, same_data=False), g.NOT_COMPARABLE),
    (row("label", [], holds=False), g.DIFFERS_UNEXPLAINED),
    (row("label", [], holds=True), g.AGREE),
]


@pytest.mark.parametrize("r, expected", SYNTHETIC)
def test_synthetic_rows_get_the_rule_tables_grade(r, expected):
    assert r.verdict == expected
    assert violations(r) == []


def test_violations_catches_a_wrong_grade():
    def forced(r, grade):  # the row's inputs with another grade than the rules give
        return SimpleNamespace(**{k: getattr(r, k) for k in vars(r)}, verdict=grade)

    assert violations(forced(row("bound", [Part(2000, 76025)], op=">"), g.AGREE))  # 38x
    assert violations(forced(row("test", [Part(0.86, 0.12)], holds=True, same_data=False),
                             g.AGREE))  # a K-S decision on another machine's log
    assert violations(forced(row("value", [Part(10, 13, 12, 14)], explanation="why"),
                             g.DIFFERS_UNEXPLAINED))


def test_every_rule_of_the_table_has_a_synthetic_row():
    seen = {(r.kind, e) for r, e in SYNTHETIC}
    for kind, _, grade in g.RULES:
        assert any((k == kind or kind == "any") and e == grade for k, e in seen), (kind, grade)


@pytest.fixture(scope="module")
def tiny_pages(tmp_path_factory):
    from reproduce.report.__main__ import BUILDERS, build

    results = REPO / "results" / "tiny"
    if not results.is_dir():
        fs = os.environ.get("FAULTSWEEP_BIN", str(REPO / "build" / "faultsweep"))
        if not (Path(fs).is_file() and os.environ.get("FAULTSWEEP_DATA")):
            pytest.skip("no results/tiny and no binary + FAULTSWEEP_DATA to make one")
        results = tmp_path_factory.mktemp("tiny")
        subprocess.run(["bash", "scripts/reproduce.sh", "--tiny", "--results", str(results),
                        "--out", str(results / "report")], check=True, cwd=REPO,
                       env={**os.environ, "FAULTSWEEP_BIN": fs}, capture_output=True)
    return build(results, tmp_path_factory.mktemp("report"), "tiny", list(BUILDERS))


def test_every_row_of_a_tiny_report_follows_the_rules(tiny_pages):
    rows = [r for p in tiny_pages for r in p.rows]
    assert rows
    bad = [(r.section, r.item, r.verdict, v) for r in rows for v in violations(r)]
    assert bad == []


def test_docs_print_the_rule_table_the_code_applies():
    text = (REPO / "docs" / "reproduce.md").read_text()
    for kind, when, grade in g.RULES:
        assert f"| {kind} | {when} | {grade} |" in text, (kind, grade)
