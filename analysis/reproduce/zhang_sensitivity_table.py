"""The findings x assumptions table of the Zhang sensitivity study (zhang_sensitivity.py): one
cell per finding and variant (the verdict and the deciding effect with its 95 % CI), the
variants that flip a disagreement, and the table as text or Markdown."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reproduce.zhang_data import Est


@dataclass
class Cell:
    agree: bool
    what: str
    effect: Est | None

    def short(self) -> str:
        v = "AGREE" if self.agree else "DISAGREE"
        return v if self.effect is None else f"{v} {self.effect.fmt(pct=True)}"


def flips(table: dict[str, dict[str, Cell]], reference: str = "current") -> dict[str, list[str]]:
    """For each finding that disagrees under `reference`: the variants under which it agrees."""
    ref = table[reference]
    return {k: [v for v, cells in table.items() if v != reference and k in cells and cells[k].agree]
            for k, c in ref.items() if not c.agree}


def render(table: dict[str, dict[str, Cell]], variants) -> list[str]:
    """The study as text: each variant's verdicts and effects, the summary, the flips."""
    by = {v.name: v for v in variants}
    keys = list(next(iter(table.values())))
    lines = ["Findings x assumptions (one change from `current` per column; the deciding effect,",
             "relative to the no-failure slowdown or to the reference point, 95 % CI):", ""]
    for v, cells in table.items():
        lines.append(f"[{v}] ({by[v].group}) {by[v].change}")
        for k in keys:
            c = cells.get(k)
            if c is not None:
                lines.append(f"   {k} {'AGREE   ' if c.agree else 'DISAGREE'} {c.what}: "
                             + (c.effect.fmt(pct=True) if c.effect else "-"))
    lines += ["", "Summary (A = agree, D = disagree):",
              "      " + " ".join(f"{v[:12]:>12}" for v in table)]
    for k in keys:
        lines.append(f"   {k} " + " ".join(f"{('A' if table[v][k].agree else 'D') if k in table[v] else '-':>12}"
                                          for v in table))
    lines += ["", "Disagreements under `current` and the single changes that turn them into agreement:"]
    for k, vs in flips(table).items():
        cur = table["current"][k]
        lines.append(f"   {k} (current: {cur.what}: {cur.effect.fmt(pct=True) if cur.effect else '-'})")
        if not vs:
            lines.append("      no single assumption of this study explains it")
        for v in vs:
            c = table[v][k]
            lines.append(f"      -> {v}: {c.what}: {c.effect.fmt(pct=True) if c.effect else '-'}")
    return lines


def _fx(c: Cell) -> str:
    return c.effect.fmt(pct=True) if c.effect else "-"


def render_markdown(table: dict[str, dict[str, Cell]]) -> list[str]:
    """The summary as a Markdown table: A / D per variant, then the flipping changes."""
    keys = list(table["current"])
    fl = flips(table)
    rows = []
    for k in keys:
        cells = [("A" if table[v][k].agree else "**D**") if k in table[v] else "-" for v in table]
        cur = table["current"][k]
        if cur.agree:
            note = f"agrees: {cur.what} {_fx(cur)}"
        elif not fl.get(k):
            note = f"**none** (current: {cur.what} {_fx(cur)})"
        else:
            note = "; ".join(f"`{v}`: {table[v][k].what} {_fx(table[v][k])}" for v in fl[k])
            note += f" (current: {_fx(cur)})"
        rows.append([k, *cells, note])
    frame = pd.DataFrame(rows, columns=["finding", *table, "the change that flips it (effect, 95 % CI)"])
    return frame.to_markdown(index=False, disable_numparse=True).splitlines()
