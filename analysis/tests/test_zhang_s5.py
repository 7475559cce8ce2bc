"""analysis/reproduce/zhang_s5.py (Zhang §5.2 findings) on small synthetic results files."""
import numpy as np
import pytest

from reproduce import zhang, zhang_s5

LOADS = [0.5, 0.8]
R = 12


def noisy(mean, rel=0.2, seed=0):
    return mean * (1 + rel * np.random.default_rng(seed).standard_normal(R))


def write_fig11(make_results, cut):
    """iid and spatial failures; LFF multiplies the spatial work loss by (1 - cut), paired."""
    g = {"workload.target_load": [], "failures.W": [], "failures.alpha": [], "allocator": [],
         "strategy": []}
    wl, sd, mig = [], [], []
    for i, L in enumerate(LOADS):
        for w, a in ((2, 0.01), (2, 0.99)):
            ref = noisy(0.01 * L, seed=10 * i + int(a > 0.5))  # shared failures: same noise
            for alloc, strat in (("first_fit", "none"), ("lff", "lff_migrate")):
                k = 1 - cut if (alloc == "lff" and a > 0.5) else 1.0
                g["workload.target_load"].append(L)
                g["failures.W"].append(w)
                g["failures.alpha"].append(a)
                g["allocator"].append(alloc)
                g["strategy"].append(strat)
                wl.append(ref * k)
                sd.append(noisy(20 * L, seed=100 + i))
                mig.append(np.full(R, 3.0 if alloc == "lff" else 0.0))
    return make_results("fig11.h5", axes=g, model="cluster",
                        metrics={"work_loss_ratio": np.array(wl), "mean_slowdown": np.array(sd),
                                 "migrations": np.array(mig)})


def write_fig5(make_results, overhead, saving):
    """none vs every 2 h at shape 0.65: overhead ratio `overhead`, work loss cut by `saving`."""
    g = {"workload.target_load": [], "failures.shape": [], "checkpoint": [],
         "checkpoint_interval": []}
    wl, sd, ov = [], [], []
    for i, L in enumerate(LOADS):
        ref = noisy(0.004, rel=0.05, seed=500 + i)
        for c, iv in (("none", 86400.0), ("periodic", 7200.0)):
            g["workload.target_load"].append(L)
            g["failures.shape"].append(0.65)
            g["checkpoint"].append(c)
            g["checkpoint_interval"].append(iv)
            wl.append(ref - (saving if c == "periodic" else 0.0))
            sd.append(np.full(R, 10 * L))
            ov.append(np.full(R, overhead if c == "periodic" else 0.0))
    return make_results("fig5.h5", axes=g, model="cluster",
                        axis_units={"checkpoint_interval": "s"},
                        metrics={"work_loss_ratio": np.array(wl), "mean_slowdown": np.array(sd),
                                 "checkpoint_overhead_ratio": np.array(ov)})


@pytest.mark.parametrize("cut,agree", [(0.5, True), (0.1, False)])
def test_lff_finding_needs_a_large_cut_of_spatial_work_loss(make_results, cut, agree):
    f = zhang_s5.finding_lff(zhang.open_results(write_fig11(make_results, cut)))
    assert f.key == "S6" and f.agree is agree
    assert any(f"{-100 * cut:+.3g} %" in line for line in f.lines)  # the paired relative cut


@pytest.mark.parametrize("overhead,saving,agree", [(0.005, 0.0015, True), (0.001, 0.003, False)])
def test_fig5_overhead_finding_compares_overhead_with_saving(make_results, overhead, saving, agree):
    f = zhang_s5.finding_overhead(zhang.open_results(write_fig5(make_results, overhead, saving)))
    assert f.key == "S1" and f.agree is agree


def test_combined_diff_adds_half_widths_in_quadrature():
    d = zhang_s5.combined_diff(zhang.Est(1.0, 0.7, 1.3, 10), zhang.Est(0.5, 0.1, 0.9, 10))
    assert d.mean == pytest.approx(0.5)
    assert d.hi - d.mean == pytest.approx(0.5)  # hypot(0.3, 0.4)


def test_s5_cli_runs_on_a_directory_and_reports_missing_ones(make_results, tmp_path, capsys):
    write_fig11(make_results, 0.5)
    assert zhang.main(["s5-findings", str(tmp_path)]) == 0
    assert "S6." in capsys.readouterr().out
    assert zhang.main(["s5-findings", str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err
