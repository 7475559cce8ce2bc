import math

import numpy as np
import pytest

from faultsweep_analysis import open_results
from reproduce import plank

CASES = list(plank.PAPER_TABLE4)


def paper(case, q):
    return dict(zip(plank.QUANTITIES, plank.PAPER_TABLE4[case]))[q]


def table4_file(make_results, i_scale=1.0, env_names=None, **kwargs):
    """One point per (app, env) holding the paper's Table 4 values as a markov_availability
    run would store them (durations in seconds); I_opt scaled by i_scale."""
    v = np.array([plank.PAPER_TABLE4[c] for c in CASES], dtype=float)
    envs = [env_names.get(e, e) if env_names else e for _, e in CASES]
    return make_results(
        axes={"app": [a for a, _ in CASES], "env": envs},
        metrics={
            "a_opt": v[:, 0],
            "I_opt": v[:, 1] * 3600 * i_scale,
            "availability": v[:, 2],
            "runtime": v[:, 3] * 3600,
            "expected_runtime": v[:, 4] * 3600,
        },
        metric_units={"I_opt": "s", "runtime": "s", "expected_runtime": "s"},
        model="markov_availability",
        **kwargs,
    )


def test_paper_table_is_typed_in_consistently():
    assert len(plank.PAPER_TABLE4) == 9
    assert {a for a, _ in CASES} == {"BT", "LU", "EP"}
    assert {e for _, e in CASES} == {"HIGH", "MEDIUM", "LOW"}
    for case in CASES:
        # RT/A from the rounded RT and A agrees with the printed RT/A to within rounding
        implied = paper(case, "runtime_h") / paper(case, "availability")
        assert implied == pytest.approx(paper(case, "expected_runtime_h"), rel=0.03), case
    assert plank.PAPER_TABLE4[("BT", "LOW")] == (1, 2.94, 0.0019, 18.1, 9671, 53476)
    assert plank.PAPER_TABLE4[("EP", "LOW")] == (9, 0.036, 0.577, 2.2, 3.8, 73.18)


def test_table4_frame_against_paper(make_results):
    res = open_results(table4_file(make_results, i_scale=1.1))
    t = plank.table4_frame(res)
    assert list(t.index) == CASES
    for case in CASES:
        row = t.loc[case]
        assert row["a_opt"] == paper(case, "a_opt") and row["a_opt_rel"] == 0
        assert row["I_opt_h"] == pytest.approx(1.1 * paper(case, "I_opt_h"))
        assert row["I_opt_h_rel"] == pytest.approx(0.1)
        assert row["expected_runtime_h"] == pytest.approx(paper(case, "expected_runtime_h"))
        assert row["availability_paper"] == paper(case, "availability")
        overhead = (paper(case, "expected_runtime_h") / paper(case, "runtime_h") - 1) * 100
        assert row["overhead_pct"] == pytest.approx(overhead)
    assert t.loc[("BT", "LOW"), "overhead_pct"] == pytest.approx((9671 / 18.1 - 1) * 100)


def test_table4_printout_has_every_case_ours_paper_and_difference(make_results, capsys):
    path = table4_file(make_results, i_scale=1.1)
    assert plank.main(["table4", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for app, env in CASES:
        assert any(l.split()[:3] == [app, env, "ours"] for l in lines), (app, env)
    assert sum(l.split()[0] == "paper" for l in lines if l.split()) == 9
    assert sum(l.split()[:2] == ["rel", "diff"] for l in lines if l.split()) == 9
    assert "9671" in out and "53476" in out and "73.18" in out
    assert out.count("+10.0%") == 9  # I_opt is 10 % above the paper in every case
    header = next(l for l in lines if l.startswith("app"))
    for h in ("a_opt", "I_opt [h]", "A", "RT [h]", "RT/A [h]", "overhead [%]"):
        assert h in header


def test_table4_markdown(make_results, capsys):
    assert plank.main(["table4", str(table4_file(make_results)), "--markdown"]) == 0
    rows = [l for l in capsys.readouterr().out.splitlines() if l.startswith("|")]
    assert len(rows) == 2 + 27
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    assert set("".join(cells[1])) <= set(":-")  # the rule under the header
    assert cells[2][:4] == ["BT", "HIGH", "ours", "28"]


def test_table4_accepts_middle_for_medium_and_reports_missing_cases(make_results, capsys):
    path = table4_file(make_results, env_names={"MEDIUM": "MIDDLE"})
    t = plank.table4_frame(open_results(path))
    assert t.loc[("LU", "MEDIUM"), "a_opt"] == 23
    # a file with only some cases: the others show n/a for ours
    one = make_results(axes={"app": ["EP"], "env": ["LOW"]},
                       metrics={"a_opt": [9.0], "availability": [0.58]})
    t = plank.table4_frame(open_results(one))
    assert t.loc[("EP", "LOW"), "a_opt_rel"] == 0
    assert math.isnan(t.loc[("BT", "HIGH"), "a_opt"])
    assert "n/a" in plank.format_table4(t)


def test_table4_picks_the_optimum_from_a_sweep_over_a(make_results):
    # Two cases, a = 1..32 with I optimised per a: the optimum is the smallest RT/A.
    a = np.arange(1, 33, dtype=float)
    rt_h = 20.0 / a + 0.3
    avail = np.where(a <= 28, 0.99 - 0.001 * a, 0.5)
    axes = {"app": ["BT"] * 32 + ["LU"] * 32, "env": ["HIGH"] * 64, "a": list(a) * 2}
    path = make_results(
        axes=axes,
        metrics={"availability": np.tile(avail, 2), "runtime": np.tile(rt_h, 2) * 3600,
                 "I_opt": np.tile(a, 2) * 60.0},
        metric_units={"runtime": "s", "I_opt": "s"},
        model="markov_availability",
    )
    t = plank.table4_frame(open_results(path))
    row = t.loc[("BT", "HIGH")]
    best = int(np.argmin(rt_h / avail))
    assert row["a_opt"] == a[best] == 28
    assert row["I_opt_h"] == pytest.approx(28 / 60)
    assert row["expected_runtime_h"] == pytest.approx(rt_h[best] / avail[best])


def test_table4_without_case_axes_is_an_error(make_results, capsys):
    path = make_results(axes={"a": [1.0, 2.0]}, metrics={"availability": [0.5, 0.6]})
    assert plank.main(["table4", str(path)]) == 2
    assert "app and env" in capsys.readouterr().err


# --- million-day ---------------------------------------------------------------------------


def million_day_file(make_results, chain, sims, **kwargs):
    """One point per (app, env) case: availability replicas `sims` [P, R] and the chain's
    value repeated in every replica."""
    chain = np.asarray(chain, dtype=float)
    sims = np.asarray(sims, dtype=float)
    apps = ["BT", "LU", "EP"]
    return make_results(
        axes={"app": [apps[i % 3] for i in range(len(chain))],
              "env": [["HIGH", "MEDIUM", "LOW"][i // 3 % 3] for i in range(len(chain))]},
        metrics={"availability": sims,
                 "chain_availability": np.repeat(chain[:, None], sims.shape[1], axis=1)},
        **kwargs,
    )


def noisy(chain, rel_bias, rel_sd, reps=50, seed=1):
    rng = np.random.default_rng(seed)
    chain = np.asarray(chain, dtype=float)[:, None]
    return chain * (1 + rel_bias + rng.normal(0, rel_sd, (chain.shape[0], reps)))


CHAIN = [0.928, 0.964, 0.961, 0.473, 0.624, 0.903, 0.0019, 0.170, 0.577]


def test_million_day_agreeing_simulation_passes(make_results, capsys):
    path = million_day_file(make_results, CHAIN, noisy(CHAIN, 0.0, 0.002))
    assert plank.main(["million-day", str(path)]) == 0
    out = capsys.readouterr().out
    assert "9 of 9 cases pass" in out
    assert "FAIL" not in out


def test_million_day_biased_simulation_fails(make_results, capsys):
    # 2 % low with a tiny standard error: outside both 0.5 % and 3 SEM.
    sims = noisy(CHAIN, 0.0, 0.001)
    sims[4] = noisy([CHAIN[4]], -0.02, 0.001, seed=9)[0]
    path = million_day_file(make_results, CHAIN, sims)
    assert plank.main(["million-day", str(path)]) == 1
    out = capsys.readouterr().out
    assert "8 of 9 cases pass" in out
    fail = [l for l in out.splitlines() if l.rstrip().endswith("FAIL")]
    assert len(fail) == 1 and fail[0].split()[:2] == ["LU", "MEDIUM"]

    t = plank.million_day_frame(open_results(path))
    r = t.loc[4]
    assert not r["passed"]
    assert r["rel_diff"] == pytest.approx(-0.02, abs=0.002)
    assert r["rel_ci95_lo"] < r["rel_diff"] < r["rel_ci95_hi"] < 0
    assert r["z"] < -3
    assert r["chain"] == CHAIN[4]


def test_million_day_criterion_uses_the_wider_of_the_two_bands(make_results):
    chain = [0.5, 0.5, 0.5]
    sims = np.full((3, 4), np.nan)
    # point 0: 1 % high, SEM 0.004 -> 3 SEM = 0.012 > 0.005 = |diff|: passes on the SEM band
    sims[0] = 0.505 + 0.004 * np.array([-1.5, -0.5, 0.5, 1.5]) / np.std([-1.5, -0.5, 0.5, 1.5], ddof=1)
    # point 1: 0.4 % high, tiny SEM: passes on the 0.5 % band although z is large
    sims[1] = 0.502 + 1e-6 * np.array([-1, 1, -1, 1])
    # point 2: 0.6 % high, tiny SEM: fails both
    sims[2] = 0.503 + 1e-6 * np.array([-1, 1, -1, 1])
    t = plank.million_day_frame(open_results(million_day_file(make_results, chain, sims)))
    assert t["sim_sem"][0] == pytest.approx(0.002)
    assert t["passed"].tolist() == [True, True, False]
    assert abs(t["z"][1]) > 3
    assert t["tolerance"][1] == pytest.approx(0.0025)
    assert t["tolerance"][0] == pytest.approx(0.006)


def test_million_day_point_without_runs_fails(make_results, capsys):
    sims = noisy(CHAIN[:3], 0.0, 0.001, reps=5)
    sims[2] = np.nan
    with pytest.warns(UserWarning, match="incomplete"):
        path_res = open_results(million_day_file(make_results, CHAIN[:3], sims, complete=False))
    t = plank.million_day_frame(path_res)
    assert t["passed"].tolist() == [True, True, False]


def test_million_day_markdown_and_missing_metric(make_results, capsys):
    path = million_day_file(make_results, CHAIN[:3], noisy(CHAIN[:3], 0.0, 0.001))
    assert plank.main(["million-day", str(path), "--markdown"]) == 0
    rows = [l for l in capsys.readouterr().out.splitlines() if l.startswith("|")]
    assert len(rows) == 2 + 3
    assert [c.strip() for c in rows[0].strip("|").split("|")][:3] == ["app", "env", "n"]
    assert plank.main(["million-day", str(path), "--chain-metric", "markov_A"]) == 2
    assert "no metric 'markov_A'" in capsys.readouterr().err


def test_million_day_warns_when_chain_varies_between_replicas(make_results):
    sims = noisy([0.9], 0.0, 0.001, reps=3)
    path = make_results(axes={"app": ["BT"], "env": ["HIGH"]},
                        metrics={"availability": sims,
                                 "chain_availability": [[0.9, 0.9, 0.95]]})
    with pytest.warns(UserWarning, match="should be deterministic"):
        t = plank.million_day_frame(open_results(path))
    assert t["chain"][0] == pytest.approx((0.9 + 0.9 + 0.95) / 3)


def test_script_runs_standalone_and_exit_status_reflects_failures(make_results, tmp_path):
    # As a user runs it: a separate interpreter, no PYTHONPATH, from another folder.
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(plank.__file__).resolve()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sims = noisy(CHAIN[:3], 0.0, 0.001)
    good = million_day_file(make_results, CHAIN[:3], sims)
    sims[1] *= 1.05
    bad = million_day_file(make_results, CHAIN[:3], sims)
    run = lambda *a: subprocess.run([sys.executable, str(script), *a], cwd=tmp_path, env=env,
                                    capture_output=True, text=True)
    ok = run("million-day", str(good))
    assert ok.returncode == 0, ok.stderr
    failed = run("million-day", str(bad))
    assert failed.returncode == 1 and "2 of 3 cases pass" in failed.stdout
