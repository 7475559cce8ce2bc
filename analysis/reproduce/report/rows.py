"""What a report page is made of: rows (one per number or claim the paper prints), figures,
extra tables; the grading rules are grades.py's. The paper's values come from the reproduction modules
(plank.py, zhang*.py, fars*.py, gottumukkala*.py hold them as printed); ours are read from the
results files when the page is built."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from reproduce.report.grades import (AGREE, CONSISTENT, DIFFERS_EXPLAINED,  # noqa: F401
                                     DIFFERS_UNEXPLAINED, EQUAL, GRADES, NOT_COMPARABLE, Part,
                                     Tol, grade, raw_grade)

DIFFERS = DIFFERS_UNEXPLAINED  # a difference until its reason is attached


@dataclass
class Row:
    """One printed number or claim beside ours. The page gives the kind of claim, the numbers
    (parts: the paper's and ours with its interval), the tolerance and whether the data are the
    paper's; the grade is computed from them (grades.grade) once the explanation is known."""
    section: str          # the paper's table, figure or section
    item: str             # what the number is
    paper: str            # as the paper prints it
    ours: str             # ours, with its 95 % interval or "exact"
    kind: str             # grades.KINDS: value, bound, up to, direction, test, label
    parts: list[Part] = field(default_factory=list)
    tol: Tol = EQUAL
    same_data: bool = True
    holds: bool | None = None  # direction / test / label: does the paper's statement hold on ours
    op: str = ""          # a bound's comparison (>, >=, <, <=)
    explanation: str = ""  # for a difference: why, or "unexplained"
    evidence: str = ""    # repository path (optionally #anchor) or "#section" of the page
    source: str = ""      # the results file it was read from (stem)
    value: float = math.nan  # our number (the test checks every row has one)

    @property
    def verdict(self) -> str:
        """The grade, always computed from the row as it is now (an explanation attached
        later turns DIFFERS-unexplained into DIFFERS-explained): never stored, never stale."""
        return grade(self.kind, self.parts, self.tol, self.same_data, self.holds,
                     self.explanation, self.op)

    def graded(self) -> str:
        return self.verdict

    @property
    def tolerance(self) -> str:
        """The rule applied, in words: the claim's kind and its tolerance (with why)."""
        if self.kind in ("direction", "test", "label"):
            rule = {"direction": "the stated direction holds (its size is not checked)",
                    "test": "the same decision at the paper's level",
                    "label": "the same label"}[self.kind]
        elif self.kind == "bound":
            rule = f"meets the bound; AGREE within {self.tol.factor:g}x of it"
        elif self.kind == "up to":
            rule = f"significant with its sign; AGREE if our largest within {self.tol.text()}"
        else:
            rule = self.tol.text()
        if not self.same_data:
            would = raw_grade(self.kind, self.parts, self.tol, self.holds, self.op) or "DIFFERS"
            rule += f" (other data; on it the claim would be {would})"
        return rule


@dataclass
class Figure:
    png: str              # file name inside the page's folder
    paper: str            # one line: what the paper's figure shows
    ours: str = ""        # one line: what ours shows


@dataclass
class Table:
    title: str
    header: list[str]
    rows: list[list[str]]
    anchor: str = ""
    note: str = ""


@dataclass
class Page:
    key: str
    title: str
    citation: str
    rows: list[Row] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # what was not run, and why
    sources: list[str] = field(default_factory=list)   # results files read (paths)

    def add_rows(self, folder, steps) -> None:
        """For each (stem, rows_of_file) in steps: the rows of folder/stem.h5, or a note that
        it was not run."""
        for stem, fn in steps:
            p = folder / f"{stem}.h5"
            if p.exists():
                self.rows += fn(p)
                self.sources.append(str(p))
            else:
                self.notes.append(f"{stem}: not run ({p} missing)")


def fmt(x: float, digits: int = 4) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


def fmt_ci(mean: float, lo: float, hi: float, digits: int = 4, unit: str = "") -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo == hi:
        return f"{fmt(mean, digits)}{unit}"
    return f"{fmt(mean, digits)}{unit} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


def exact(x: float, digits: int = 4) -> str:
    """A deterministic value (a Markov chain, a closed form, a fit of a fixed log): no interval."""
    return f"{fmt(x, digits)} (exact)"


_NUM = r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"
_EST = re.compile(rf"({_NUM})\s*%?\s*(?:\[\s*({_NUM})\s*,\s*({_NUM})\s*\])?")


def _num(t: str) -> float:
    return float(t.replace(",", "").replace("−", "-"))


def numbers(text: str) -> list[float]:
    """The numbers of a text, skipping those inside [...] (intervals)."""
    return [_num(t) for t in re.findall(_NUM, re.sub(r"\[[^\]]*\]", "", text))]


def estimates(text: str) -> list[tuple[float, float, float]]:
    """(value, lo, hi) for every number of a text written as 'v [lo, hi]' or 'v' (lo = hi = NaN)."""
    return [(_num(m.group(1)), _num(m.group(2)) if m.group(2) else math.nan,
             _num(m.group(3)) if m.group(3) else math.nan) for m in _EST.finditer(text)]


def has_value(row: Row) -> bool:
    """A row has a value when ours was read (a number, or text that is not a placeholder)."""
    if math.isfinite(row.value):
        return True
    text = row.ours.strip()
    return bool(text) and text not in ("-", "n/a", "nan") and "nan" not in text.split()
