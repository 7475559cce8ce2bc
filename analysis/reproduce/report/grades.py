"""The grading rules of the report, in one place: every row states the kind of claim the paper
makes, and grade() turns (kind, the paper's numbers, ours with their intervals, the tolerance,
same data or not, whether a direction/test/label holds, the explanation) into one of the five
grades. The pages supply those inputs and never a grade; RULES is the table docs/reproduce.md
prints, and analysis/tests/test_grades.py checks every row of a built report against it."""
from __future__ import annotations

import math
from dataclasses import dataclass

AGREE, CONSISTENT = "AGREE", "CONSISTENT"
DIFFERS_EXPLAINED, DIFFERS_UNEXPLAINED = "DIFFERS-explained", "DIFFERS-unexplained"
NOT_COMPARABLE = "NOT-COMPARABLE"
GRADES = (AGREE, CONSISTENT, DIFFERS_EXPLAINED, DIFFERS_UNEXPLAINED, NOT_COMPARABLE)

# Kinds of claim a paper makes.
VALUE, BOUND, UP_TO, DIRECTION, TEST, LABEL = "value", "bound", "up to", "direction", "test", "label"
KINDS = (VALUE, BOUND, UP_TO, DIRECTION, TEST, LABEL)

# The rule table (docs/reproduce.md prints it; the test checks it matches grade()).
RULES = [
    ("any", "the paper used other data (another machine's log or inputs it does not print) and "
            "no comparison on the same data exists", NOT_COMPARABLE),
    (VALUE, "every number of ours within the tolerance of the printed one", AGREE),
    (VALUE, "not within it, but every printed number inside our 95 % interval (too wide to "
            "check the size)", CONSISTENT),
    (BOUND, "every number of ours meets the bound (its whole 95 % interval) and lies within the "
            "stated factor of it", AGREE),
    (BOUND, "every number of ours meets the bound (its whole 95 % interval), some lie beyond "
            "the factor", CONSISTENT),
    (UP_TO, "our effect is significant (95 % interval excludes 0) with the printed sign and our "
            "largest case is within the tolerance of the printed maximum", AGREE),
    (UP_TO, "significant with the printed sign, the maximum not matched", CONSISTENT),
    (DIRECTION, "the stated direction or relation holds (paired 95 % intervals); its size is "
                "not a claim", CONSISTENT),
    (TEST, "the same decision at the paper's level, on the same data", AGREE),
    (LABEL, "the same label (e.g. which strategy is lowest)", AGREE),
    ("any", "otherwise, with the reason found (a sensitivity study, the model's arithmetic)",
     DIFFERS_EXPLAINED),
    ("any", "otherwise, no reason found", DIFFERS_UNEXPLAINED),
]


@dataclass(frozen=True)
class Tol:
    """A tolerance fixed before the run, with the one line that justifies it.
    rel/absolute: |ours - paper| <= max(rel |paper|, absolute); factor: a bound's AGREE range
    (ours within factor x of the bound); band: for a value the paper took from ONE run of a
    random process, the paper's number must lie in our per-run 5-95 % range instead."""

    why: str
    rel: float = 0.0
    absolute: float = 0.0
    factor: float = 2.0
    band: bool = False

    def text(self) -> str:
        if self.band:
            return f"inside our 5-95 % range of single runs: {self.why}"
        parts = [f"±{100 * self.rel:g} %" if self.rel else "",
                 f"±{self.absolute:g}" if self.absolute else ""]
        size = " or ".join(p for p in parts if p) or "equal"
        return f"{size}: {self.why}"


EQUAL = Tol("a count or an integer choice must match exactly")


@dataclass
class Part:
    """One printed number beside ours: ours' 95 % interval [lo, hi] (lo = hi = ours when exact);
    band: our per-run 5-95 % range (Tol.band); largest: our largest single case (UP_TO)."""

    paper: float
    ours: float
    lo: float = math.nan
    hi: float = math.nan
    band: tuple[float, float] = (math.nan, math.nan)
    largest: float = math.nan


def close(p: Part, tol: Tol) -> bool:
    if not (math.isfinite(p.ours) and math.isfinite(p.paper)):
        return False
    if tol.band:
        return p.band[0] <= p.paper <= p.band[1]
    return abs(p.ours - p.paper) <= max(tol.rel * abs(p.paper), tol.absolute) * (1 + 1e-9)


def inside(p: Part) -> bool:
    return math.isfinite(p.lo) and math.isfinite(p.hi) and p.lo <= p.paper <= p.hi


def meets(p: Part, op: str) -> bool:
    """Ours meets the bound, its whole 95 % interval when it has one (a mean above the bound
    whose interval reaches below it does not establish the claim)."""
    side = p.lo if op in (">", ">=") else p.hi
    v = side if math.isfinite(side) else p.ours
    if not math.isfinite(v):
        return False
    return {">": v > p.paper, ">=": v >= p.paper, "<": v < p.paper, "<=": v <= p.paper}[op]


def within_factor(value: float, bound: float, factor: float) -> bool:
    """ours within factor x of the bound (on either side: the bound's order of magnitude)."""
    if bound == 0 or not math.isfinite(value) or value * bound <= 0:
        return False
    r = value / bound
    return 1 / factor <= r <= factor


def raw_grade(kind: str, parts: list[Part], tol: Tol, holds: bool | None = None,
              op: str = "") -> str:
    """AGREE, CONSISTENT or '' (differs) from the numbers alone, as if on the same data."""
    if kind == VALUE:
        if parts and all(close(p, tol) for p in parts):
            return AGREE
        if parts and all(close(p, tol) or inside(p) for p in parts):
            return CONSISTENT
        return ""
    if kind == BOUND:
        if not parts or not all(meets(p, op) for p in parts):
            return ""
        return AGREE if all(within_factor(p.ours, p.paper, tol.factor) for p in parts) else CONSISTENT
    if kind == UP_TO:
        sig = parts and all(math.isfinite(p.lo) and math.isfinite(p.hi) and
                            (p.lo > 0 if p.paper > 0 else p.hi < 0) for p in parts)
        if not sig:
            return ""
        top = [Part(p.paper, p.largest) for p in parts]
        return AGREE if all(close(t, tol) for t in top) else CONSISTENT
    if kind == DIRECTION:
        return CONSISTENT if holds else ""
    if kind in (TEST, LABEL):
        return AGREE if holds else ""
    raise ValueError(f"unknown kind of claim {kind!r}")


def grade(kind: str, parts: list[Part], tol: Tol, same_data: bool = True,
          holds: bool | None = None, explanation: str = "", op: str = "") -> str:
    """The grade of one row: the rules of RULES, in their order."""
    if not same_data:
        return NOT_COMPARABLE
    g = raw_grade(kind, parts, tol, holds, op)
    if g:
        return g
    if explanation and not explanation.startswith("unexplained"):
        return DIFFERS_EXPLAINED
    return DIFFERS_UNEXPLAINED
