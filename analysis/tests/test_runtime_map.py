"""The quickstart figure (faultsweep_analysis.runtime_map, `runtime-map` command) on synthetic
chain and simulation files with a known optimum."""
import numpy as np
import pytest

import synth
from faultsweep_analysis import open_results
from faultsweep_analysis.cli import main as cli_main
from faultsweep_analysis.runtime_map import plot_runtime_map
from test_plots import assert_png

A = [1.0, 2.0, 4.0, 8.0]
I_S = list(np.geomspace(600.0, 14400.0, 5))  # 10 min .. 4 h


def rt_a(a):
    return 4.0 / a + 1.0  # failure-free running time, hours


def avail(a, i_s):
    # RT_a / A is least at a = 4 and the middle interval (2939 s = 49 min)
    return 0.9 * np.exp(-0.5 * (np.log2(a) - 2) ** 2) - 0.05 * abs(np.log(i_s / I_S[2]))


@pytest.fixture
def files(make_results):
    axes = synth.grid(a=A, I=I_S)
    pts = list(zip(axes["a"], axes["I"]))
    chain = make_results(
        "chain.h5", axes=axes, axis_units={"I": "s"}, model="markov_availability",
        metric_units={"expected_runtime_h": "h", "runtime_h": "h"},
        metrics={"expected_runtime_h": np.array([rt_a(a) / avail(a, i) for a, i in pts]),
                 "runtime_h": np.array([rt_a(a) for a, _ in pts])})
    # the simulation's availability is 2 % lower than the chain's at a = 8, equal elsewhere
    sim_a = np.array([[avail(a, i) * (0.98 if a == 8 else 1.0)] * 3 for a, i in pts])
    sim = make_results(
        "sim.h5", axes=axes, axis_units={"I": "s"}, model="checkpoint_sim",
        metrics={"availability": sim_a,
                 "chain_availability": np.array([[avail(a, i)] * 3 for a, i in pts])})
    return chain, sim


def test_chain_panel_marks_the_least_expected_running_time_with_hour_ticks(files, tmp_path):
    fig, reading = plot_runtime_map(open_results(files[0]), out_png=tmp_path / "rt.png")
    assert_png(tmp_path / "rt.png")
    ax = fig.axes[0]
    star = ax.lines[0]
    assert star.get_xdata()[0] == 4 and star.get_ydata()[0] == pytest.approx(I_S[2] / 3600)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["10 min", "15 min", "30 min", "1 h",
                                                           "2 h", "4 h"]
    assert ax.get_xlabel() == "active processors a" and ax.get_ylabel() == "checkpoint interval I"
    assert fig.axes[1].get_ylabel() == "expected running time RT_a / A [h]"
    best = rt_a(4) / avail(4, I_S[2])
    assert reading.startswith(f"Markov chain: fastest expected run {best:.2f} h at a* = 4 "
                              "processors, I* = 49 min (failure-free RT_a 2.00 h)")


def test_simulation_panel_shows_its_difference_from_the_chain_in_percent(files, tmp_path):
    fig, reading = plot_runtime_map(open_results(files[0]), open_results(files[1]))
    ax2 = fig.axes[1]
    z = np.asarray(ax2.collections[0].get_array()).reshape(len(I_S), len(A))  # rows I, cols a
    assert z[:, 3] == pytest.approx(100 * (1 / 0.98 - 1))  # 2 % less availability: 2.04 % slower
    assert np.abs(z[:, :3]).max() < 1e-9
    assert "simulation's optimum a = 4" in ax2.lines[0].get_label()
    assert "within 0 % of the chain (median over the grid, max 2 %)" in reading


def test_cli_prints_the_reading_and_refuses_a_file_without_the_chain_metrics(files, tmp_path,
                                                                             capsys):
    out = tmp_path / "rt.png"
    assert cli_main(["runtime-map", str(files[0]), "--sim", str(files[1]), "--out", str(out)]) == 0
    assert_png(out)
    assert capsys.readouterr().out.startswith("Markov chain: fastest expected run")
    assert cli_main(["runtime-map", str(files[1]), "--out", str(tmp_path / "x.png")]) == 2
    assert "no metric 'expected_runtime_h'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
