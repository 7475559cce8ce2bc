"""analysis/reproduce/zhang.py on small synthetic results files (tests/synth.py)."""
import math

import numpy as np
import pytest

from reproduce import zhang

LOADS = [0.5, 0.8]
SHAPES = [0.2, 0.55, 0.65, 0.85]
R = 12
SPAN_S = 61 * 86400.0


def rng(seed=0):
    return np.random.default_rng(seed)


def noisy(mean, n=R, rel=0.02, seed=0):
    return mean * (1 + rel * rng(seed).standard_normal(n))


def write_fig3a(make_results, tmp_dir_name="fig3a.h5", slow=None, rate_of=None):
    """fig3a-like file: per replica failures = rate * span, slowdown slow(load, shape)."""
    slow = slow or (lambda L, s: 10 * L * (1 + 5 * s))
    rate_of = rate_of or zhang.exact_rate_per_day
    g = {"workload.target_load": [], "failures.shape": []}
    fails, spans, sd, wl = [], [], [], []
    for i, L in enumerate(LOADS):
        for j, s in enumerate(SHAPES):
            g["workload.target_load"].append(L)
            g["failures.shape"].append(s)
            fails.append(noisy(rate_of(s) * SPAN_S / 86400, seed=10 * i + j))
            spans.append(np.full(R, SPAN_S))
            sd.append(noisy(slow(L, s), seed=100 + 10 * i + j))
            wl.append(noisy(0.004 * s, seed=200 + 10 * i + j))
    return make_results(
        tmp_dir_name, axes=g, model="cluster",
        metrics={"failures": np.array(fails), "makespan_s": np.array(spans),
                 "mean_slowdown": np.array(sd), "work_loss_ratio": np.array(wl)},
        metric_units={"makespan_s": "s"})


def write_baseline(make_results, value=lambda L: 10 * L):
    return make_results("baseline.h5", axes={"workload.target_load": LOADS}, model="cluster",
                        metrics={"mean_slowdown": np.array([value(L) for L in LOADS]),
                                 "work_loss_ratio": np.zeros(len(LOADS))})


def write_fig4(make_results, effect):
    """Down time 2 min / 4 h; 4 h multiplies slowdown by (1 + effect) in every replica."""
    g = {"workload.target_load": [], "failures.downtime": []}
    sd, wl = [], []
    for i, L in enumerate(LOADS):
        ref = noisy(50 * L, rel=0.2, seed=300 + i)  # shared failures: the same noise at both
        for d, k in ((120.0, 1.0), (14400.0, 1 + effect)):
            g["workload.target_load"].append(L)
            g["failures.downtime"].append(d)
            sd.append(ref * k * (1 + 0.001 * rng(400 + i).standard_normal(R)))
            wl.append(np.full(R, 0.003))
    return make_results("fig4.h5", axes=g, model="cluster", axis_units={"failures.downtime": "s"},
                        metrics={"mean_slowdown": np.array(sd), "work_loss_ratio": np.array(wl)})


def write_fig5(make_results, cut):
    """Checkpoint none / every 2 h; periodic multiplies slowdown by (1 - cut), paired."""
    g = {"workload.target_load": [], "failures.shape": [], "checkpoint": [],
         "checkpoint_interval": []}
    sd, wl = [], []
    for i, L in enumerate(LOADS):
        ref = noisy(80 * L, rel=0.2, seed=500 + i)
        for c, iv, k in (("none", 86400.0, 1.0), ("periodic", 7200.0, 1 - cut)):
            g["workload.target_load"].append(L)
            g["failures.shape"].append(0.65)
            g["checkpoint"].append(c)
            g["checkpoint_interval"].append(iv)
            sd.append(ref * k)
            wl.append(np.full(R, 0.002))
    return make_results("fig5.h5", axes=g, model="cluster",
                        axis_units={"checkpoint_interval": "s"},
                        metrics={"mean_slowdown": np.array(sd), "work_loss_ratio": np.array(wl)})


# ------------------------------------------------------------------------------------ table 1
def test_exact_rates_per_day():
    # 86400 / (18000 * Gamma(1 + 1/shape)); shape 0.2: Gamma(6) = 120 -> 0.04 / day
    assert zhang.exact_rate_per_day(0.2) == pytest.approx(0.04, rel=1e-12)
    assert zhang.exact_rate_per_day(0.85) == pytest.approx(4.8 / math.gamma(1 + 1 / 0.85))
    assert zhang.exact_rate_per_day(0.85) == pytest.approx(4.42, abs=0.01)
    assert zhang.exact_rate_per_day(0.65) == pytest.approx(3.51, abs=0.01)
    assert zhang.exact_rate_per_day(0.55) == pytest.approx(2.82, abs=0.01)
    assert zhang.exact_rate_per_day(1.0, 86400) == pytest.approx(1.0)


def test_paper_table1_typed_in():
    assert zhang.PAPER_TABLE1 == {0.2: (78, 1.2), 0.55: (138, 2.2), 0.65: (198, 3.2),
                                  0.85: (266, 4.3)}


def test_table1_rows_measure_rate_from_failures_and_span(make_results):
    res = zhang.open_results(write_fig3a(make_results))
    rows = zhang.table1_rows(res)
    assert [r["shape"] for r in rows] == SHAPES
    for r in rows:
        assert r["ours_per_day"].mean == pytest.approx(r["exact_per_day"], rel=0.03)
        assert r["ours_per_day"].lo < r["ours_per_day"].mean < r["ours_per_day"].hi
        assert r["ours_span_d"] == pytest.approx(61.0)
        assert r["load"] == 0.5
    # shape 0.2 cannot give the paper's 1.2 / day
    assert rows[0]["exact_per_day"] < rows[0]["paper_per_day"] / 20


def test_table1_cli_without_results(capsys):
    assert zhang.main(["table1"]) == 0
    out = capsys.readouterr().out
    assert "0.04" in out and "4.41" in out and "266" in out


def test_missing_dir_is_exit_2(tmp_path, capsys):
    assert zhang.main(["findings", str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err


# ----------------------------------------------------------------------------------- findings
def by_key(findings):
    return {f.key: f for f in findings}


def test_paired_difference_uses_common_replicas():
    a = np.array([10.0, 20.0, 30.0, np.nan])
    b = np.array([9.0, 19.0, 29.0, 5.0])
    e = zhang.paired(a, b)
    assert e.mean == pytest.approx(1.0) and e.n == 3 and e.lo == pytest.approx(1.0)


def test_verdict_helpers():
    assert zhang.verdict_small(zhang.Est(0.05, 0.01, 0.09, 10), 0.10)
    assert zhang.verdict_small(zhang.Est(-0.5, -1.2, 0.1, 10), 0.10)  # CI contains 0
    assert not zhang.verdict_small(zhang.Est(-0.5, -0.6, -0.4, 10), 0.10)
    up = [zhang.Est(1, 0.9, 1.1, 5), zhang.Est(2, 1.9, 2.1, 5)]
    assert zhang.verdict_monotone(up)
    assert not zhang.verdict_monotone(up[::-1])


def test_findings_agree_when_rate_drives_slowdown(make_results, tmp_path):
    write_baseline(make_results)
    write_fig3a(make_results)
    write_fig4(make_results, effect=0.01)
    write_fig5(make_results, cut=0.02)
    f = by_key(zhang.all_findings(zhang.load_dir(tmp_path, required=())))
    assert f["F1"].agree
    assert f["F2"].agree  # shape's range 10 L * 5 * 0.65 / (10 L) >> down time's 1 %
    assert f["F5"].agree
    assert f["F6"].agree
    assert "AGREE" in f["F1"].render()


def test_findings_disagree_when_they_should(make_results, tmp_path):
    write_baseline(make_results)
    # slowdown falls with shape (failure rate): F1 must disagree
    write_fig3a(make_results, slow=lambda L, s: 10 * L * (2 - s))
    write_fig4(make_results, effect=0.5)     # 4 h down time: +50 % slowdown, tight CI
    write_fig5(make_results, cut=0.4)        # checkpointing cuts slowdown by 40 %
    f = by_key(zhang.all_findings(zhang.load_dir(tmp_path, required=())))
    assert not f["F1"].agree
    assert not f["F2"].agree                 # down time's 50 % exceeds shape's range
    assert not f["F5"].agree
    assert not f["F6"].agree
    assert "DISAGREE" in f["F5"].render() and "[helps]" in f["F6"].render()


def test_increase_over_baseline_is_relative(make_results, tmp_path):
    write_baseline(make_results, value=lambda L: 10.0)
    write_fig3a(make_results, slow=lambda L, s: 40.0)
    data = zhang.load_dir(tmp_path, required=())
    inc = zhang.increase_over_baseline(data["fig3a"], data["baseline"], 0.5, failures__shape=0.85)
    assert inc.mean == pytest.approx(3.0, rel=0.02)  # +300 %


def test_figures_written(make_results, tmp_path):
    write_baseline(make_results)
    write_fig3a(make_results)
    write_fig4(make_results, effect=0.1)
    write_fig5(make_results, cut=0.1)
    out = tmp_path / "figs"
    assert zhang.main(["figures", str(tmp_path), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["fig3.png", "fig4.png", "fig5.png"]


def test_renewal_count_from_the_model_explains_shape_0_2():
    # A stream that starts at a failure: at shape 1 (Poisson) m(T) = T / mean exactly; at shape
    # 0.2 over 61 days the model gives ~0.23 / day, 5-6x the long-run 0.04 / day.
    assert zhang.renewal_count(1.0, 86400 * 61, 86400) == pytest.approx(61, rel=0.02)
    per_day = zhang.renewal_count(0.2, 86400 * 61) / 61
    assert 0.2 < per_day < 0.27
    assert per_day / zhang.exact_rate_per_day(0.2) > 5


def test_a_skewed_rate_interval_stays_non_negative():
    from faultsweep_analysis.stats import bootstrap_mean95, mean_ci95, wilson95

    rates = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9, 1.3])  # shape-0.2-like runs
    m, half, _ = mean_ci95(rates)
    assert m - half < 0  # the t interval goes negative
    mean, lo, hi = bootstrap_mean95(rates)
    assert mean == pytest.approx(m) and 0 <= lo < mean < hi
    lo, hi = wilson95(0, 20)
    assert lo == 0 and 0 < hi < 0.2
    lo, hi = wilson95(20, 20)
    assert 0.8 < lo and hi == 1
