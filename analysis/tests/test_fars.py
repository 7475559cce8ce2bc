"""analysis/reproduce/fars.py on small synthetic results files (tests/synth.py).

Every synthetic strategy is FCFS/EASY's axis values times a factor c per replica, so its
composite gain is 1 - c^2 exactly (the hexagon's area scales with c^2)."""

import numpy as np
import pytest

from reproduce import fars

R = 10
BASE = {"utilization": 0.7, "throughput_per_h": 3.0, "mean_response_s": 19400.0,
        "sul_node_hours": 6000.0, "jfr": 0.06, "fsd": 0.5, "jobs": 10000.0}


def scaled_metrics(c):
    """Metrics whose six Kiviat axes are c x FCFS/EASY's (c: array over replicas)."""
    c = np.asarray(c, dtype=float)
    return {
        "utilization": 1 - c * (1 - BASE["utilization"]),
        "throughput_per_h": BASE["throughput_per_h"] / c,
        "mean_response_s": c * BASE["mean_response_s"],
        "sul_node_hours": c * BASE["sul_node_hours"],
        "jfr": c * BASE["jfr"],
        "fsd": c * BASE["fsd"],
        "jobs": np.full(c.shape, BASE["jobs"]),
    }


def factors(strategy, seed, extra=0.0):
    mean = {"none": 1.0, "fsd_d": 0.82, "sul_d": 0.8, "jfr_d": 0.79}[strategy] + extra
    if strategy == "none":
        return np.ones(R)
    return mean + 0.01 * np.random.default_rng(seed).standard_normal(R)


def write(make_results, name, axes, cs, model="cluster"):
    rows = [scaled_metrics(c) for c in cs]
    metrics = {m: np.array([r[m] for r in rows]) for m in rows[0]}
    units = {"mean_response_s": "s", "sul_node_hours": "node*h", "throughput_per_h": "1/h"}
    return make_results(name, axes=axes, metrics=metrics, model=model, metric_units=units,
                        axis_units={"failures.mean": "s"})


def test_baseline_gains_are_paired_and_printed_beside_the_paper(make_results, tmp_path):
    strategies = ["none", "fsd_d", "sul_d", "jfr_d"]
    cs = [factors(s, i) for i, s in enumerate(strategies)]
    path = write(make_results, "baseline_exp.h5", {"strategy": strategies}, cs)
    lines = fars.cmd_baseline(fars.load(path), "exp", tmp_path / "fig")
    text = "\n".join(lines)
    sul = [ln for ln in lines if ln.strip().startswith("SUL-D") and "%" in ln][0]
    want = np.mean(1 - cs[2] ** 2)
    assert f"{100 * want:.2f} %" in sul and "36.35 %" in sul
    assert "34.02 %" in text and "37.34 %" in text
    assert (tmp_path / "fig" / "exp_bars.png").stat().st_size > 0
    assert (tmp_path / "fig" / "exp_kiviat.png").stat().st_size > 0
    # JFR-D has the smallest factor: lowest on every loss metric.
    assert "lowest SUL JFR-D" in text


def test_sweep_gives_one_row_per_axis_value_in_order(make_results, tmp_path):
    strategies = ["none", "fsd_d", "sul_d", "jfr_d"]
    loads = [0.9, 0.1, 0.5]
    axes = {"workload.target_load": [], "strategy": []}
    cs = []
    for i, load in enumerate(loads):
        for j, s in enumerate(strategies):
            axes["workload.target_load"].append(load)
            axes["strategy"].append(s)
            cs.append(factors(s, 10 * i + j, extra=0.1 * load))  # gain falls with load
    path = write(make_results, "load_exp.h5", axes, cs)
    rows = fars.sweep_table(fars.load(path), "workload.target_load")
    assert [r[0] for r in rows] == [0.1, 0.5, 0.9]
    sul = [r[1]["sul_d"].mean for r in rows]
    assert sul[0] > sul[1] > sul[2]
    c = cs[4 * 1 + 2]  # load 0.1, sul_d
    assert sul[0] == pytest.approx(np.mean(1 - c**2))
    # Per-axis gains: response is c x FCFS's, so its relative gain is 1 - c.
    assert rows[0][2]["sul_d"][2].mean == pytest.approx(np.mean(1 - c))
    lines = fars.cmd_sweep(fars.load(path), "workload.target_load", tmp_path / "load.png", "load")
    assert (tmp_path / "load.png").exists()
    # Tables 4-5: FCFS/EASY's own values per load (the first is Resp, 19400 s here).
    raw = lines[lines.index([ln for ln in lines if "Tables 4-5" in ln][0]) + 1]
    assert raw.split()[:2] == ["0.1", "1.94e+04"]
    # §6.1.2's claims: the smallest SUL-D gain up to load 0.7 is load 0.5's.
    claim = [ln for ln in lines if ln.startswith("  ours SUL-D")][0]
    assert f"min over load <= 0.7 {sul[1] * 100:.1f} %" in claim
    assert f"at load 0.9 {sul[2] * 100:.1f} %" in claim


def test_sweep_over_a_duration_axis_plots_days(make_results, tmp_path):
    axes = {"failures.mean": [], "strategy": []}
    cs = []
    for i, d in enumerate([1.75, 14.0]):
        for j, s in enumerate(["none", "sul_d"]):
            axes["failures.mean"].append(d * 86400.0)
            axes["strategy"].append(s)
            cs.append(factors(s, 10 * i + j))
    path = write(make_results, "mtbf_exp.h5", axes, cs)
    lines = fars.cmd_sweep(fars.load(path), "failures.mean", tmp_path / "mtbf.png", "mtbf")
    assert lines[1].split()[0] == "1.75" and lines[2].split()[0] == "14"
    claim = [ln for ln in lines if ln.startswith("  ours SUL-D")][0]
    assert "at 14 d" in claim and "at 1.75 d" in claim


def test_heatmap_pairs_the_grid_with_the_baseline_fcfs_replicas(make_results, tmp_path):
    base = write(make_results, "baseline_exp.h5", {"strategy": ["none", "sul_d"]},
                 [factors("none", 0), factors("sul_d", 1)])
    ps = [0.1, 0.5, 1.0]
    axes = {"predictor.precision": [], "predictor.recall": []}
    cs = []
    for p in ps:
        for r in ps:
            axes["predictor.precision"].append(p)
            axes["predictor.recall"].append(r)
            cs.append(np.full(R, 1.02 - 0.3 * p * r))  # (0.1, 0.1): slightly worse than FCFS
    grid = write(make_results, "precision_recall_exp.h5", axes, cs)
    gains = fars.heatmap_gains(fars.load(grid, False), fars.load(base))
    assert gains[(1.0, 1.0)].mean == pytest.approx(1 - 0.72**2)
    assert gains[(0.1, 0.1)].mean == pytest.approx(1 - 1.017**2)
    assert gains[(0.1, 0.1)].mean < 0
    lines = fars.cmd_heatmap(fars.load(grid, False), fars.load(base), "exp", tmp_path / "h.png")
    assert (tmp_path / "h.png").exists() and "perfect (1.0, 1.0)" in lines[1]


def test_heatmap_refuses_files_whose_replicas_are_not_paired(make_results):
    base = make_results("b.h5", axes={"strategy": ["none"]},
                        metrics=scaled_metrics(np.ones((1, R))), master_seed=1)
    grid = make_results("g.h5", axes={"predictor.precision": [0.5], "predictor.recall": [0.5]},
                        metrics=scaled_metrics(np.ones((1, R))), master_seed=2)
    with pytest.raises(fars.UsageError, match="different seeds"):
        fars.heatmap_gains(fars.load(grid, False), fars.load(base))


def test_table_runs_on_a_directory_and_main_reports_bad_input(make_results, tmp_path, capsys):
    strategies = ["none", "fsd_d", "sul_d", "jfr_d"]
    write(make_results, "baseline_weibull.h5", {"strategy": strategies},
          [factors(s, i) for i, s in enumerate(strategies)])
    assert fars.main(["table", str(tmp_path), "--out", str(tmp_path / "figs")]) == 0
    out = capsys.readouterr().out
    assert "33.73 %" in out and "weibull" in out
    no_strategy = make_results("x.h5", axes={"a": [1.0]}, metrics={"jfr": np.ones((1, 2))})
    assert fars.main(["baseline", str(no_strategy)]) == 2
    assert "no axis 'strategy'" in capsys.readouterr().err
    assert fars.main(["table", str(tmp_path / "nowhere")]) == 2
