"""What a report page is made of: rows (one per number or claim the paper prints), figures,
extra tables, and the verdict rules. The paper's values come from the reproduction modules
(plank.py, zhang*.py, fars*.py, gottumukkala*.py hold them as printed); ours are read from the
results files when the page is built."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

AGREE, DIFFERS = "AGREE", "DIFFERS"


@dataclass
class Row:
    section: str          # the paper's table, figure or section
    item: str             # what the number is
    paper: str            # as the paper prints it
    ours: str             # ours, with its 95 % CI where there are replicas
    verdict: str          # AGREE or DIFFERS
    tolerance: str        # the rule the verdict used
    explanation: str = ""  # for DIFFERS: why, or "unexplained"
    evidence: str = ""    # repository path (optionally #anchor) or "#section" of the page
    source: str = ""      # the results file it was read from (stem)
    value: float = math.nan  # our number (the test checks every row has one)


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


def within(ours: float, paper: float, rel: float = 0.0, absolute: float = 0.0,
           lo: float = math.nan, hi: float = math.nan) -> bool:
    """Ours agrees with the paper's value if it is within rel (relative) or absolute of it, or
    the paper's value lies inside our 95 % CI [lo, hi]."""
    if not (math.isfinite(ours) and math.isfinite(paper)):
        return False
    if abs(ours - paper) <= max(rel * abs(paper), absolute) * (1 + 1e-9):
        return True
    return math.isfinite(lo) and math.isfinite(hi) and lo <= paper <= hi


def verdict(ok: bool) -> str:
    return AGREE if ok else DIFFERS


_NUM = r"[-+−]?\d[\d,]*(?:\.\d+)?"
_OP = re.compile(rf"^\s*(>=|<=|≥|≤|>|<)\s*({_NUM})")


def _numbers(text: str) -> list[float]:
    return [float(t.replace(",", "").replace("−", "-")) for t in re.findall(_NUM, text)]


def claim_verdict(paper: str, ours: str) -> tuple[str, str] | None:
    """The verdict of a printed claim against ours written as text, when the claim is a bound
    ("> 30", ">= 15 %": every number of ours before any '[' must meet it), a trend ("falls":
    every "a->b" of ours has b < a) or a label (equal text). None if the claim has no such form.
    Returns (verdict, the rule used)."""
    m = _OP.match(paper)
    if m:
        op, bound = m.group(1), float(m.group(2).replace(",", "").replace("−", "-"))
        head = re.sub(r"\[[^\]]*\]", "", ours)
        nums = _numbers(head)
        if not nums:
            return None
        test = {">": lambda v: v > bound, "<": lambda v: v < bound, ">=": lambda v: v >= bound,
                "≥": lambda v: v >= bound, "<=": lambda v: v <= bound, "≤": lambda v: v <= bound}[op]
        return verdict(all(test(v) for v in nums)), f"every value {op} {m.group(2)}"
    if paper.strip().startswith("falls") or paper.strip() == "rises":
        pairs = re.findall(rf"({_NUM})\s*->\s*({_NUM})", ours)
        if not pairs:
            return None
        sign = -1 if paper.strip().startswith("falls") else 1
        ok = all(sign * (float(b) - float(a)) > 0 for a, b in pairs)
        return verdict(ok), "every a->b moves that way"
    if re.fullmatch(r"[A-Za-z/\- ]+", paper.strip()):
        return verdict(paper.strip() == ours.strip()), "the same label"
    return None


def has_value(row: Row) -> bool:
    """A row has a value when ours was read (a number, or text that is not a placeholder)."""
    if math.isfinite(row.value):
        return True
    text = row.ours.strip()
    return bool(text) and text not in ("-", "n/a", "nan") and "nan" not in text.split()
