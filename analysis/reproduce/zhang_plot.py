"""Figure helpers shared by the Zhang et al. (JSSPP 2004) reproduction (zhang.py, zhang_s5.py):
mean-slowdown / work-loss-ratio panels against the offered load with 95 % CI error bars, and
the figure writer with the common look.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from reproduce.zhang_data import SLOWDOWN, WLR, Results, baseline_value, estimate, loads, values

# The CTC-SP2 window of jobs/zhang (first 14,000 jobs on 320 nodes): unscaled offered load and
# mean run time; runtime scaling to load L makes the mean execution time MEAN_RT_H * L / LOAD0.
CTC_LOAD0 = 0.8351
CTC_MEAN_RT_H = 2.872


def _series(res: Results, metric: str, xs: list[float], **fixed):
    m, lo, hi = [], [], []
    for x in xs:
        e = estimate(values(res, metric, workload__target_load=x, **fixed))
        m.append(e.mean)
        lo.append(e.mean - e.lo)
        hi.append(e.hi - e.mean)
    return np.array(m), np.array([lo, hi])


def _panel_pair(axs, res: Results, base: Results | None, lines: list[tuple[str, dict]], title: str):
    from matplotlib.ticker import FuncFormatter  # noqa: F401  (imported lazily: headless)

    xs = loads(res)
    for ax, metric, ylabel in ((axs[0], SLOWDOWN, "average slowdown"),
                               (axs[1], WLR, "average work-loss ratio")):
        for label, fixed in lines:
            m, err = _series(res, metric, xs, **fixed)
            ax.errorbar(xs, m, yerr=err, marker="o", capsize=3, label=label)
        if base is not None and metric == SLOWDOWN:
            ax.plot(xs, [baseline_value(base, metric, x) for x in xs], "k--", label="no failures")
        ax.set_xlabel("offered load (runtime-scaled CTC-SP2)")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
        sec = ax.secondary_xaxis(
            "top", functions=(lambda L: CTC_MEAN_RT_H * L / CTC_LOAD0,
                              lambda h: h * CTC_LOAD0 / CTC_MEAN_RT_H))
        sec.set_xlabel("mean job execution time [h]", fontsize=8)
        ax.legend(fontsize=7)


class FigureWriter:
    """Saves the figures of one draw_figures call (here and in zhang_s5.py) into out_dir,
    created if missing, with their common look (suptitle, tight layout, 110 dpi), and lists
    the files written."""

    def __init__(self, out_dir):
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.written: list[Path] = []

    def save(self, fig, name: str, suptitle: str) -> None:
        fig.suptitle(suptitle, fontsize=10)
        fig.tight_layout()
        p = self.out / name
        fig.savefig(p, dpi=110)
        self.written.append(p)


def _new_figure(rows: int):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 3.9 * rows))
    axs = fig.subplots(rows, 2, squeeze=False)
    return fig, axs
