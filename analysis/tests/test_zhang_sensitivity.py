"""analysis/reproduce/zhang_sensitivity.py and zhang_workload_fit.py on synthetic
data: the figure views of a combined sweep, metric aliases, deciding effects, the flip table,
the job files' case list, and the hyper-Erlang / size fits."""
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from faultsweep_analysis import open_results
from reproduce import zhang
from reproduce import zhang_sensitivity as zs
from reproduce import zhang_sensitivity_table as zt
from reproduce import zhang_workload_fit as fit

LOADS = [0.5, 0.8]
R = 16
REPO = Path(__file__).resolve().parents[2]


def combined(make_results, name, slow, other=None):
    """A combined sweep (LOADS x zs.CASES) with mean_slowdown = slow(load, case) x (1 + noise
    shared by every point of a replica: common random numbers) and, if given, another metric."""
    noise = 1 + 0.05 * np.random.default_rng(1).standard_normal(R)
    axes = {zhang.LOAD: []} | {a: [] for a in zs.CASE_AXES}
    sd, ot = [], []
    for L in LOADS:
        for c in zs.CASES:
            axes[zhang.LOAD].append(L)
            for a, v in zip(zs.CASE_AXES, c):
                axes[a].append(v)
            sd.append(slow(L, *c) * noise)
            ot.append((other or slow)(L, *c) * noise)
    metrics = {"mean_slowdown": np.array(sd), "work_loss_ratio": np.full((len(sd), R), 0.01),
               "mean_bounded_slowdown": np.array(ot)}
    study = make_results(f"{name}.h5", axes=axes, model="cluster", metrics=metrics,
                         axis_units={zs.DOWN: "s", zs.IVAL: "s"})
    base = make_results(f"{name}_baseline.h5", axes={zhang.LOAD: LOADS}, model="cluster",
                        metrics={"mean_slowdown": np.array([[10.0], [20.0]]),
                                 "work_loss_ratio": np.zeros((2, 1)),
                                 "mean_bounded_slowdown": np.array([[10.0], [20.0]])})
    return open_results(study), open_results(base)


def paper_like(L, shape, w, alpha, down, ck, iv):
    """Slowdown that follows the paper: grows with the rate (shape), W / alpha / down time add
    a little, checkpoints cut 2 %: every finding agrees."""
    s = 10 * L * (1 + 4 * shape) * (1 + 0.01 * (w > 2) + 0.01 * (alpha > 0.5) + 0.02 * (down > 600))
    return s * (0.98 if ck == "periodic" else 1.0)


def test_views_cut_the_combined_sweep_into_figures(make_results):
    study, base = combined(make_results, "v", paper_like)
    data = zs.figure_views(study, base)
    # Fig. 3(a): 4 shapes x 2 loads; 3(b): 4 W; 3(c): 3 alpha (0.01, 0.5, 0.99); Fig. 4: 3 down
    # times; Figs. 5 and 6: 2 failure settings x 4 checkpoint cases.
    sizes = {k: len(v.points) for k, v in data.items() if k != "baseline"}
    assert sizes == {"fig3a": 8, "fig3b": 8, "fig3c": 6, "fig4": 6, "fig5": 16, "fig6": 16}
    assert sorted(zhang.axis_values(data["fig3c"], zs.ALPHA)) == [0.01, 0.5, 0.99]
    verdicts = {f.key: f.agree for f in zhang.all_findings(data)}
    assert verdicts == {k: True for k in ("F1", "F2", "F3", "F4", "F5", "F6", "F7")}


def test_alias_reads_the_other_metric_under_the_slowdown_name(make_results):
    # Mean slowdown doubles with a 4 h down time (F5 disagrees); the bounded metric does not.
    study, base = combined(make_results, "a", lambda L, *c: paper_like(L, *c) * (2 if c[3] > 9000 else 1),
                           other=paper_like)
    plain = zs.evaluate(zs.figure_views(study, base), 0.10)
    bounded = zs.evaluate(zs.figure_views(study, base, "mean_bounded_slowdown"), 0.10)
    assert not plain["F5"].agree and bounded["F5"].agree
    # The deciding effect of F5 is the paired change 4 h vs 2 min: x 2 x 1.02 (paper_like's own
    # 2 % for long down times), i.e. +104 % exactly (the noise is shared).
    assert plain["F5"].effect.mean == pytest.approx(2 * 1.02 - 1, rel=1e-9)
    assert "down 4 h" in plain["F5"].what
    assert abs(bounded["F5"].effect.mean) < 0.05


def test_range_margin_and_largest_cut(make_results):
    study, base = combined(make_results, "m", paper_like)
    data = zs.figure_views(study, base)
    # At load 0.5 the shape range is 10*0.5*4*(0.85-0.2) = 13 (times mean noise), W's range
    # 0.01 * 10*0.5*(1+4*0.85) = 0.22 (alpha 0.5 adds the same to every W); relative to 10.
    e = zs.range_margin(data["fig3a"], zs.SHAPE, data["fig3b"], zs.W, 0.5, 10.0)
    noise = float(np.mean(1 + 0.05 * np.random.default_rng(1).standard_normal(R)))
    assert e.mean == pytest.approx((13.0 - 0.22) * noise / 10, rel=1e-9)
    what, cut = zs.largest_cut(data["fig5"])
    assert cut.mean == pytest.approx(-0.02, rel=1e-9)
    assert "every" in what


def test_flips_lists_the_variants_that_turn_a_disagreement_into_agreement():
    A, D = zt.Cell(True, "", None), zt.Cell(False, "", None)
    table = {"current": {"F1": A, "F2": D, "F5": D},
             "x": {"F1": A, "F2": A, "F5": D},
             "y": {"F1": D, "F2": A, "F5": D}}
    assert zt.flips(table) == {"F2": ["x", "y"], "F5": []}
    text = "\n".join(zt.render(table, [zs.Variant("current", "-", "c"), zs.Variant("x", "g", "x"),
                                       zs.Variant("y", "g", "y")]))
    assert "no single assumption of this study explains it" in text
    md = zt.render_markdown(table)
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in md]
    assert cells[0][:4] == ["finding", "current", "x", "y"]
    assert cells[2][:4] == ["F1", "A", "A", "**D**"] and cells[2][4].startswith("agrees")
    assert "`x`" in md[3] and "`y`" in md[3] and "**none**" in md[4]


def test_job_files_zip_exactly_the_cases():
    """Every jobs/zhang/sensitivity/V.toml sweeps zs.CASES; every run variant has its files."""
    def seconds(x):
        return float(x) if not isinstance(x, str) else {"min": 60, "h": 3600}[x.lstrip("0123456789.")] * float(
            x.rstrip("minh"))
    folder = REPO / "jobs" / "zhang" / "sensitivity"
    for v in zs.VARIANTS:
        if v.metric:
            continue
        job = tomllib.loads((folder / f"{v.stem}.toml").read_text())
        z = job["axes"]["case"]["zip"]
        got = list(zip(z["failures.shape"], z["failures.W"], z["failures.alpha"],
                       map(seconds, z["failures.downtime"]), z["checkpoint"], map(seconds, z["checkpoint_interval"])))
        assert got == [tuple(c) for c in zs.CASES], v.name
        assert (folder / f"{v.stem}_baseline.toml").exists()


def test_hyper_erlang_em_recovers_known_parameters():
    # seed 3, 20,000 draws of an order-2 hyper-Erlang (0.7, 300 s), (0.3, 3 h): the fitted
    # weights within 0.02 and means within 5 %; a wrong M-step would miss both.
    g = np.random.default_rng(3)
    n = 20000
    big = g.random(n) < 0.3
    x = np.where(big, g.gamma(2, 3 * 3600 / 2, n), g.gamma(2, 300 / 2, n))
    f = fit.fit_hyper_erlang(x, 2, 2)
    assert f.probs == pytest.approx([0.7, 0.3], abs=0.02)
    assert f.means == pytest.approx([300, 3 * 3600], rel=0.05)
    assert fit.select_hyper_erlang(x, orders=(1, 2, 3), branches=(2,)).order == 2


def test_size_pmf_is_a_distribution_and_matches_simple_cases():
    p = fit.size_pmf(320, 0.4, 0.6, 0.8, 5.0, 0.9)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert (p >= 0).all()
    assert p[0] >= 0.4  # serial jobs, plus parallel draws that round to 1
    # All power-of-two draws: only powers of two have mass.
    q = fit.size_pmf(64, 0.0, 1.0, 0.8, 3.0, 0.5)
    assert set(np.flatnonzero(q > 0) + 1) <= {1, 2, 4, 8, 16, 32, 64}
    assert math.isclose(q.sum(), 1.0)
