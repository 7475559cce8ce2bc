"""Plank & Thomason's Figure 4 redrawn beside the paper's printed points: per environment, the
optimal expected running time RT_a / A(a, I_opt) against the processors used a, one line per
application, and the points the paper prints (Table 4's optimum of each curve, and §8's text
values where they differ). A log y axis when the values span more than two decades; values far
above the printed points (LOW: up to 1e123 h) are cut off and named in the figure."""
from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.figure import Figure as MplFigure

from reproduce import plank as pk

METRIC = "expected_runtime_h"
APPS = ("BT", "LU", "EP")
CUT_ABOVE = 1000.0  # the y axis ends this factor above the largest printed point / curve minimum


def curves(res, env: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{app: (a, RT_a / A in hours)} of one environment, sorted by a."""
    pts, mean = res.points, res.summary[(METRIC, "mean")].to_numpy(dtype=float)
    out = {}
    for app in APPS:
        m = ((pts["app"] == app) & (pts["env"] == env)).to_numpy()
        if m.any():
            a = pts["a"][m].to_numpy(dtype=float)
            order = np.argsort(a)
            out[app] = (a[order], mean[m][order])
    return out


def printed_points(env: str) -> list[tuple[str, float, float, str]]:
    """(app, a, hours, source) the paper prints for this environment."""
    out = []
    for (app, e), row in pk.PAPER_TABLE4.items():
        if e == env:
            out.append((app, float(row[0]), float(row[4]), "Table 4"))
    text = {(app, q): v for app, e, q, v, _ in pk.PAPER_TEXT if e == env}
    for app in APPS:
        if (app, "expected_runtime_h") in text:
            a = text.get((app, "a_opt"), pk.PAPER_TABLE4[(app, env)][0])
            out.append((app, float(a), text[(app, "expected_runtime_h")], "§8 text"))
    return out


def draw(res, env: str, out_png) -> str:
    """Writes the figure; returns one line on what it shows (cut-off curves named)."""
    cs = curves(res, env)
    pts = printed_points(env)
    fig = MplFigure(figsize=(9, 5))
    ax = fig.add_subplot()
    ys = np.concatenate([y[np.isfinite(y)] for _, y in cs.values()] + [np.array([p[2] for p in pts])])
    log = ys.size and ys.max() / max(ys.min(), 1e-300) > 100
    top = CUT_ABOVE * max([p[2] for p in pts] + [float(np.nanmin(y)) for _, y in cs.values()])
    cut = []
    colours = {}
    for app, (a, y) in cs.items():
        line, = ax.plot(a, np.where(y <= top, y, np.nan), marker="o", markersize=3, linewidth=1,
                        label=f"{app}: ours (Markov chain)")
        colours[app] = line.get_color()
        over = a[y > top]
        if over.size:
            cut.append(f"{app} at a = {over.min():g}-{over.max():g} (up to {np.nanmax(y):.2g} h)")
    for source, marker in (("Table 4", "s"), ("§8 text", "D")):
        for app, a, h, src in pts:
            if src == source:
                ax.plot([a], [h], marker=marker, markersize=9, fillstyle="none", linestyle="none",
                        color=colours.get(app, "k"), markeredgewidth=1.5,
                        label=f"{app}: paper, {source}" + (" optimum" if source == "Table 4" else ""))
    if log:
        ax.set_yscale("log")
        ax.set_ylim(top=top)
    ax.set_xlabel("processors used, a")
    ax.set_ylabel("optimal expected running time RT_a / A (hours)")
    ax.set_title(f"Figure 4, {env} failure environment: expected running time against "
                 "processors", fontsize=10)
    ax.grid(True, alpha=0.3, which="both" if log else "major")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout(rect=(0, 0.08 if cut else 0, 1, 1))
    if cut:
        fig.text(0.01, 0.01, "\n".join(textwrap.wrap("Cut off above the plot: " + "; ".join(cut),
                                                      150)), fontsize=8, va="bottom")
    fig.savefig(out_png, dpi=100)
    what = ("ours from the Markov chain, I optimised per a; the paper's printed points as open "
            "markers (Table 4's optimum per application, §8's text values)")
    if log:
        what += "; log scale"
    if cut:
        what += "; cut off: " + "; ".join(cut)
    return what
