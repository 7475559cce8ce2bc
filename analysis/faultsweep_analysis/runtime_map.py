"""The quickstart figure: Plank & Thomason's expected running time RT_a / A(a, I) (JPDC 2001,
Eq. 5 and Eq. 6; their Figs. 4-5 show it against I for each a) over active processors a and
checkpoint interval I, with the optimum (a*, I*) marked, beside the Monte Carlo simulation's
difference from the chain.

The chain's values come from a markov_availability file (mode evaluate, metrics
expected_runtime_h and runtime_h over axes a and I); the simulation's from a checkpoint_sim file
over a and I, whose points carry both A_sim (availability) and the chain's A (chain_availability).
Since RT_a does not depend on the model, the simulation's expected running time relative to the
chain's is RT_a / A_sim / (RT_a / A_chain) - 1 = A_chain / A_sim - 1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.colors import LogNorm, TwoSlopeNorm
from matplotlib.figure import Figure

from .plots import _edges, _save
from .results import Results

# Interval ticks in hours with their labels; those inside the plotted range are used.
I_TICKS_H = ((1 / 12, "5 min"), (10 / 60, "10 min"), (0.25, "15 min"), (0.5, "30 min"),
             (1.0, "1 h"), (2.0, "2 h"), (4.0, "4 h"), (8.0, "8 h"), (24.0, "24 h"))


@dataclass
class Grid:
    """A metric over the a x I grid: z[i, j] at I = i_h[i] hours, a = a[j]."""

    a: np.ndarray
    i_h: np.ndarray
    z: np.ndarray

    def argmin(self) -> tuple[int, float, float]:
        iy, ix = np.unravel_index(np.nanargmin(self.z), self.z.shape)
        return int(self.a[ix]), float(self.i_h[iy]), float(self.z[iy, ix])


def _grid(res: Results, values) -> Grid:
    for axis in ("a", "I"):
        res._check_axis(axis)
    a_pts = res.points["a"].to_numpy(dtype=float)
    i_pts = res.points["I"].to_numpy(dtype=float) / 3600.0
    a, i_h = np.unique(a_pts), np.unique(i_pts)
    z = np.full((i_h.size, a.size), np.nan)
    z[np.searchsorted(i_h, i_pts), np.searchsorted(a, a_pts)] = values
    return Grid(a, i_h, z)


def _mean(res: Results, metric: str) -> np.ndarray:
    res._check_metric(metric)
    return res.summary[(metric, "mean")].to_numpy(dtype=float)


def chain_runtime(chain: Results) -> tuple[Grid, Grid]:
    """(expected running time RT_a / A, failure-free RT_a), hours, of the chain's file."""
    return _grid(chain, _mean(chain, "expected_runtime_h")), _grid(chain, _mean(chain, "runtime_h"))


def sim_difference(sim: Results, runtime: Grid) -> tuple[Grid, Grid]:
    """(simulation's RT_a / A relative to the chain's, expected running time by simulation in
    hours with RT_a of the chain file at the same a)."""
    a_sim, a_chain = _mean(sim, "availability"), _mean(sim, "chain_availability")
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(a_sim > 0, a_chain / a_sim - 1.0, np.nan)
    diff = _grid(sim, rel)
    rt_by_a = dict(zip(runtime.a, np.nanmean(runtime.z, axis=0)))
    rt = np.array([rt_by_a.get(a, np.nan) for a in sim.points["a"].to_numpy(dtype=float)])
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = _grid(sim, np.where(a_sim > 0, rt / a_sim, np.nan))
    return diff, expected


def _axes_style(ax, g: Grid) -> None:
    ax.set_yscale("log")
    lo, hi = g.i_h[0], g.i_h[-1]
    ticks = [(t, s) for t, s in I_TICKS_H if lo * 0.8 <= t <= hi * 1.25]
    ax.set_yticks([t for t, _ in ticks], [s for _, s in ticks])
    ax.yaxis.set_minor_formatter("")
    step = 4 if g.a[-1] > 12 else 1
    ax.set_xticks([int(g.a[0])] + list(range(step, int(g.a[-1]) + 1, step)))
    ax.set_xlabel("active processors a")
    ax.set_ylabel("checkpoint interval I")


def _star(ax, a, i_h, text, color="white"):
    ax.plot([a], [i_h], marker="*", color=color, markeredgecolor="black", markersize=15,
            linestyle="none", label=text)


def plot_runtime_map(chain: Results, sim: Results | None = None, out_png=None) -> tuple[Figure, str]:
    """The figure (chain's RT_a / A over a x I; with `sim`, a second panel of the simulation's
    difference from it) and a one-line reading. Saves to out_png when given."""
    expected, runtime = chain_runtime(chain)
    a_opt, i_opt, rt_opt = expected.argmin()
    fig = Figure(figsize=(12.5 if sim is not None else 6.8, 5))
    axs = fig.subplots(1, 2 if sim is not None else 1, squeeze=False)[0]
    ax = axs[0]
    z = np.ma.masked_invalid(expected.z)
    mesh = ax.pcolormesh(_edges(expected.a, False), _edges(expected.i_h, True), z,
                         norm=LogNorm(vmin=rt_opt, vmax=float(z.max())), cmap="viridis_r",
                         shading="flat")
    levels = [rt_opt * f for f in (1.05, 1.25, 2.0, 4.0)]
    cs = ax.contour(expected.a, expected.i_h, z, levels=levels, colors="white", linewidths=0.8)
    ax.clabel(cs, fmt={lv: f"{lv / rt_opt:g}x" for lv in levels}, fontsize=7)
    _star(ax, a_opt, i_opt, f"optimum a* = {a_opt}, I* = {60 * i_opt:.0f} min: {rt_opt:.2f} h")
    _axes_style(ax, expected)
    cbar = fig.colorbar(mesh, ax=ax)
    cbar.set_label("expected running time RT_a / A [h]")
    ticks = [t for t in (1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)
             if rt_opt <= t <= float(z.max())]
    cbar.set_ticks(ticks, labels=[f"{t:g}" for t in ticks])
    cbar.minorticks_off()
    ax.set_title("Markov chain: expected running time over a x I\n"
                 "(contours: 1.05, 1.25, 2 and 4 times the optimum)", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    reading = (f"Markov chain: fastest expected run {rt_opt:.2f} h at a* = {a_opt} processors, "
               f"I* = {60 * i_opt:.0f} min (failure-free RT_a {np.nanmean(runtime.z[:, runtime.a == a_opt]):.2f} h)")
    if sim is not None:
        diff, sim_expected = sim_difference(sim, runtime)
        pct = 100 * diff.z
        lim = float(np.nanpercentile(np.abs(pct), 98)) or 1.0
        ax2 = axs[1]
        mesh2 = ax2.pcolormesh(_edges(diff.a, False), _edges(diff.i_h, True),
                               np.ma.masked_invalid(pct), cmap="RdBu_r", shading="flat",
                               norm=TwoSlopeNorm(0.0, -lim, lim))
        sa, si, srt = sim_expected.argmin()
        _star(ax2, sa, si, f"simulation's optimum a = {sa}, I = {60 * si:.0f} min: {srt:.2f} h")
        _star(ax2, a_opt, i_opt, "chain's optimum", color="gold")
        _axes_style(ax2, diff)
        fig.colorbar(mesh2, ax=ax2).set_label("simulation - chain [% of the chain's RT_a / A]")
        ax2.set_title(f"Monte Carlo simulation ({sim.replicas} replicas) minus the chain\n"
                      "(red: the simulation runs slower)", fontsize=9)
        ax2.legend(fontsize=7, loc="lower left")
        near = np.abs(pct[np.isfinite(pct)])
        reading += (f"; simulation: {srt:.2f} h at a = {sa}, I = {60 * si:.0f} min, within "
                    f"{np.median(near):.2g} % of the chain (median over the grid, max {near.max():.2g} %)")
    if chain.attrs.get("description"):
        fig.suptitle(str(chain.attrs["description"]), fontsize=10)
    fig.tight_layout()
    return _save(fig, out_png), reading
