"""The reproduction report (analysis/reproduce/report): the verdict rules, and the Markdown tables
of docs/papers/tables/ rebuilt from results files: they parse (every row as many cells as its
header, a value of ours in every row), and the committed tables' deterministic rows (Plank's
Table 4, Gottumukkala's §4.4 and Table 6.1: no replicas, so every run gives the same digits) are
exactly what the results give today, so no number there was typed by hand or went stale."""
import math
import os
import re
import subprocess
from pathlib import Path

import pytest

from reproduce.report.render_md import page_md
from reproduce.report.grades import AGREE, CONSISTENT, DIFFERS_EXPLAINED, GRADES
from reproduce.report.rows import Row, has_value

REPO = Path(__file__).resolve().parents[2]
TABLES = REPO / "docs" / "papers" / "tables"
DETERMINISTIC = {"plank": ("Table 4", "§8 text"), "gottumukkala": ("§4.4", "Table 6.1")}


def parse_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Markdown tables as (header, rows); raises ValueError on a row of the wrong width."""
    def cells(line):
        return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]

    tables, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.fullmatch(r"\|(-+\|)+", lines[i + 1]):
            header, rows = cells(lines[i]), []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                row = cells(lines[i])
                if len(row) != len(header):
                    raise ValueError(f"line {i + 1}: {len(row)} cells, header has {len(header)}")
                rows.append(row)
                i += 1
            tables.append((header, rows))
        else:
            i += 1
    return tables


def check_page_text(text: str) -> int:
    tables = parse_tables(text)
    main = [t for t in tables if t[0][:5] == ["where", "what", "claim", "paper",
                                              "ours (95 % interval, or exact)"]]
    assert len(main) == 1
    for row in main[0][1]:
        assert row[4] and row[4] not in ("n/a", "-"), row
        assert row[5] in GRADES, row
    return len(main[0][1])


def test_row_without_value_is_caught():
    row = Row("T", "x", "1", "n/a", "value")
    assert not has_value(row)
    row.value = 1.0
    assert has_value(row)


def test_parse_rejects_ragged_table():
    with pytest.raises(ValueError):
        parse_tables("| a | b |\n|---|---|\n| 1 |\n")


@pytest.mark.parametrize("paper", ["plank", "zhang", "fars", "gottumukkala"])
def test_committed_tables_parse(paper):
    path = TABLES / f"{paper}.md"
    if not path.exists():
        pytest.skip(f"{path} not generated")
    assert check_page_text(path.read_text()) > 0


@pytest.fixture(scope="module")
def deterministic_results(tmp_path_factory):
    fs = os.environ.get("FAULTSWEEP_BIN", str(REPO / "build" / "faultsweep"))
    if not Path(fs).is_file():
        pytest.skip("no faultsweep binary (FAULTSWEEP_BIN)")
    root = tmp_path_factory.mktemp("results")
    for job in ("plank/table4", "gottumukkala/section4_4", "gottumukkala/table6_1"):
        out = root / f"{job}.h5"
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([fs, "run", str(REPO / "jobs" / f"{job}.toml"), "--out", str(out), "-q"],
                       check=True, cwd=REPO)
    return root


@pytest.mark.parametrize("paper", sorted(DETERMINISTIC))
def test_rebuilt_tables_parse_and_match_the_committed_ones(paper, deterministic_results, tmp_path):
    from reproduce.report.__main__ import BUILDERS

    page = BUILDERS[paper](deterministic_results, tmp_path)
    text = page_md(page, [], "quick")
    assert check_page_text(text) == len(page.rows) > 0
    committed = TABLES / f"{paper}.md"
    if not committed.exists():
        pytest.skip(f"{committed} not generated")
    sections = DETERMINISTIC[paper]
    ours = [ln for ln in text.splitlines() if any(ln.startswith(f"| {s} |") for s in sections)]
    theirs = [ln for ln in committed.read_text().splitlines()
              if any(ln.startswith(f"| {s} |") for s in sections)]
    assert ours and ours == theirs


def _fars_grade(paper, ours, claim="", why=""):
    from reproduce.report.fars_page import judge

    r = Row("T", claim, paper, ours, explanation=why, **judge(paper, ours, claim))
    return r.graded()


def test_fars_claims_compare_each_side_the_bounds_and_the_peak_place():
    from reproduce.report.fars_page import judge

    assert _fars_grade("600+ -> ~400", "612 -> 410 / 395 / 420") == AGREE
    assert _fars_grade("600+ -> ~400", "512 -> 526 / 521 / 515", why="w").startswith("DIFFERS")
    assert _fars_grade("50 -> 20", "52->21 / 48->18") == AGREE
    assert _fars_grade("0.9", "15.2 at 0.8", "peaks") == AGREE
    assert _fars_grade("~40 at 3.5", "35.8 at 7", "peaks", "w") == DIFFERS_EXPLAINED
    assert _fars_grade("> 2,000", "76025 [70000, 80000] / 3000") == CONSISTENT  # 38x the bound
    assert _fars_grade("> 2,000", "3500 [3000, 4000] / 3000") == AGREE
    assert _fars_grade(">= 30", "31.0 / 35.2 / 40") == AGREE
    assert _fars_grade(">= 15", "14.9 [12, 18] / 16").startswith("DIFFERS")
    assert _fars_grade("falls", "34.3->8.2 / 35->9") == CONSISTENT  # a direction has no size
    assert _fars_grade("falls", "34.3->38.2").startswith("DIFFERS")
    assert _fars_grade("SUL-D / JFR-D", "SUL-D / JFR-D") == AGREE
    assert _fars_grade("34.02 / 36.35 / 37.34 %", "20.3 % [17.4, 23.3] / 35 % / 36 %",
                       why="w") == DIFFERS_EXPLAINED
    assert judge("(bars only)", "1 -> 2") is None
