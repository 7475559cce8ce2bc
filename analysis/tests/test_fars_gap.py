"""analysis/reproduce/fars_gap.py (FARS sensitivity table, ours beside the paper) on small
synthetic results files. As in test_fars.py, a strategy's six Kiviat axes are c x FCFS/EASY's,
so its composite gain is 1 - c^2 exactly."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reproduce import fars, fars_gap
from test_fars import R, factors, scaled_metrics

STRATEGIES = ["none", "fsd_d", "sul_d", "jfr_d"]


def write_choice(make_results, name, axis, values, c_of, units=None):
    """A sensitivity file: `axis` x strategy, strategy s at value v scaled by c_of(v, s)."""
    axes = {axis: [], "strategy": []}
    rows = []
    for v in values:
        for s in STRATEGIES:
            axes[axis].append(v)
            axes["strategy"].append(s)
            rows.append(scaled_metrics(np.full(R, c_of(v, s))))
    metrics = {m: np.array([r[m] for r in rows]) for m in rows[0]}
    return make_results(name, axes=axes, metrics=metrics, model="cluster",
                        axis_units=units or {})


def test_values_are_shown_in_human_units_and_zip_keys_stay_distinct():
    assert fars_gap.format_value(600.0, "s") == "10 min"
    assert fars_gap.format_value(6228.0, "s") == "1.73 h"
    assert fars_gap.format_value(1209600.0, "s") == "14 d"
    assert fars_gap.format_value(30.0, "s") == "30 s"
    assert fars_gap.format_value(0.7, "1") == "0.7"
    assert fars_gap.format_value("live", "1") == "live"
    label = fars_gap.value_label({"checkpoint_cost": 300.0, "fars.checkpoint_cost": 300.0},
                                 lambda a: "s")
    assert label == "checkpoint_cost=5 min, fars.checkpoint_cost=5 min"
    assert fars_gap.value_label({"fars.interval": 3600.0}, lambda a: "s") == "interval=1 h"


def test_rows_give_paired_gains_per_value_mark_the_baseline_and_rank_by_span(make_results,
                                                                            tmp_path):
    d = tmp_path / "sens"
    d.mkdir()
    # interval: SUL-D's factor 0.9 at 10 min, 0.8 at 1 h -> gains 19 % and 36 %; a span of 17.
    make_results("sens/interval.h5", axes={"fars.interval": [600.0] * 4 + [3600.0] * 4,
                                           "strategy": STRATEGIES * 2},
                 metrics={m: np.array([v[m] for v in [scaled_metrics(np.full(R, c)) for c in
                                                     (1, .9, .9, .9, 1, .8, .8, .8)]])
                          for m in scaled_metrics(np.ones(R))},
                 model="cluster", axis_units={"fars.interval": "s"})
    write_choice(make_results, "sens/queue_wait.h5", "fars.queue_wait", ["last", "mean"],
                 lambda v, s: 1.0 if s == "none" else 0.8)  # no effect: span 0
    # The baseline: the FCFS/EASY point whose parameters equal interval = 1 h (synthetic
    # params text is the axes' "key=value" lines; "workload.scale" marks the runtime reading).
    base = make_results("baseline_exp.h5", axes={"fars.interval": [3600.0] * 4,
                                                 "strategy": STRATEGIES},
                        metrics=scaled_metrics(np.ones((4, R))), model="cluster",
                        axis_units={"fars.interval": "s"})
    res = fars.load(d / "interval.h5")
    rows = fars_gap.sensitivity_rows(res, "interval", fars_gap.params_key(
        fars.load(base).params[0]))
    assert [r.value for r in rows] == ["interval=10 min", "interval=1 h"]
    assert [r.baseline for r in rows] == [False, True]
    assert rows[0].gains["sul_d"].mean == pytest.approx(1 - 0.9**2)
    assert rows[1].gains["jfr_d"].mean == pytest.approx(1 - 0.8**2)
    assert rows[0].failed_jobs == pytest.approx(0.06 * 10000)
    rows += fars_gap.sensitivity_rows(fars.load(d / "queue_wait.h5"), "queue_wait")
    sp = fars_gap.spans(rows)
    assert sp["interval"]["sul_d"] == pytest.approx((1 - 0.8**2) - (1 - 0.9**2))
    assert sp["queue_wait"]["fsd_d"] == pytest.approx(0.0)
    best = fars_gap.best_rows(rows)
    assert best["sul_d"].gains["sul_d"].mean == pytest.approx(1 - 0.8**2)
    lines = fars_gap.sensitivity_lines(rows)
    text = "\n".join(lines)
    # Ranked by span: interval (17 points) before queue_wait (0).
    assert text.index("interval ") < text.index("queue_wait")
    assert "* interval=1 h" in text and "36.0 %" in text
    assert "reaches 34.02 %" in text  # 36 % >= the paper's lowest printed gain


def test_sensitivity_command_reads_a_directory_and_refuses_an_empty_one(make_results, tmp_path,
                                                                          capsys):
    d = tmp_path / "sens"
    d.mkdir()
    write_choice(make_results, "sens/allocator.h5", "allocator", ["first_fit", "round_robin"],
                 lambda v, s: 1.0 if s == "none" else (0.9 if v == "first_fit" else 0.8))
    assert fars.main(["sensitivity", str(d)]) == 0
    out = capsys.readouterr().out
    assert "allocator=round_robin" in out
    assert "36.0 % [36.0, 36.0] at allocator allocator=round_robin: reaches 34.02 %" in out
    assert "19.0 %" in out  # 1 - 0.9^2 at first fit
    (tmp_path / "empty").mkdir()
    assert fars.main(["sensitivity", str(tmp_path / "empty")]) == 2
    assert "no results files" in capsys.readouterr().err


def test_paper_table_puts_ours_beside_every_printed_baseline_number(make_results, tmp_path):
    strategies = ["none", "fsd_d", "sul_d", "jfr_d"]
    cs = [factors(s, i) for i, s in enumerate(strategies)]
    rows = [scaled_metrics(c) for c in cs]
    make_results("baseline_exp.h5", axes={"strategy": strategies},
                 metrics={m: np.array([r[m] for r in rows]) for m in rows[0]}, model="cluster")
    claims = {c: (p, o) for c, p, o in fars_gap.paper_claims(tmp_path)}
    paper, ours = claims["Fig. 4 (exp): gain FSD-D / SUL-D / JFR-D"]
    assert paper == "34.02 / 36.35 / 37.34 %"
    assert ours.split(" / ")[1].startswith(f"{100 * np.mean(1 - cs[2] ** 2):.1f} %")
    # FCFS/EASY's failed jobs are JFR x jobs = 0.06 x 10000; JFR-D (factor 0.79) fails fewest.
    assert claims["Fig. 4 (exp): failed jobs FCFS -> FARS"][1].startswith("600 -> ")
    assert claims["Fig. 4 (exp): lowest SUL / JFR / FSD"][1] == "JFR-D / JFR-D / JFR-D"
    assert claims["Fig. 4 (exp): Resp FCFS -> FARS (s)"][0] == "19,400+ -> ~18,000"
    lines = fars_gap.paper_lines(tmp_path)
    assert any("Ours beside the paper" in ln for ln in lines)


def test_paper_table_gives_the_sweep_trends_and_the_lowest_gain(make_results, tmp_path):
    # SUL-D's factor 0.7 at load 0.1 rising to 0.95 at 0.95: its gain falls 51 % -> 10 %.
    c = {0.1: 0.7, 0.7: 0.8, 0.95: 0.95}
    write_choice(make_results, "load_exp.h5", "workload.target_load", list(c),
                 lambda v, s: 1.0 if s == "none" else c[v] + (0.01 if s == "fsd_d" else 0.0))
    claims = {c: (p, o) for c, p, o in fars_gap.paper_claims(tmp_path)}
    assert claims["Fig. 6 (exp): min gain, load <= 0.7 (%)"][1].split(" / ")[1] == "36.0"
    assert claims["Fig. 6 (exp): gain at load 0.95 (%)"][1].split(" / ")[1] == "9.8"
    assert claims["Fig. 6 (exp): gain load 0.1 -> 0.95 (%)"][1].split(" / ")[1] == "51.0->9.8"
    # Every axis is c x FCFS's, so SUL-D's Resp gain is 1 - c: 30 % at load 0.1, its peak.
    assert claims["Fig. 6 (exp)a: SUL-D's Resp gain peaks at load (%)"] == ("0.9", "30.0 at 0.1")
    strategies = ["none", "fsd_d", "sul_d", "jfr_d"]
    cs = [factors(s, i) for i, s in enumerate(strategies)]  # FSD-D's factor is the largest
    base = [scaled_metrics(c) for c in cs]
    make_results("baseline_weibull.h5", axes={"strategy": strategies}, model="cluster",
                 metrics={m: np.array([r[m] for r in base]) for m in base[0]})
    claims = {c: (p, o) for c, p, o in fars_gap.paper_claims(tmp_path)}
    assert claims["Fig. 5 (Weibull): lowest gain"] == ("FSD-D", "FSD-D")


def test_fars_py_run_as_a_script_reports_a_sensitivity_error_with_exit_2(tmp_path):
    # Run as __main__, fars.py must catch the UsageError that fars_gap raises (one class).
    script = Path(__file__).resolve().parents[1] / "reproduce" / "fars.py"
    run = subprocess.run([sys.executable, str(script), "sensitivity", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.startswith("fars.py: ") and "no results files" in run.stderr
