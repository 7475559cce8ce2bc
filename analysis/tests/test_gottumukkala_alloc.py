"""gottumukkala.py fig5_2 / fig5_6 / fig6_8 and ch6_study on small synthetic cluster results."""
from __future__ import annotations

import numpy as np
import pytest

from reproduce import gottumukkala as g
from reproduce import gottumukkala_alloc as alloc
from reproduce import gottumukkala_ch6_study as study


def ch5_file(make_results, rr_waste=10.0, ras_waste=8.0):
    """RR and RAS-Weib on 2 trace pairs x 3 replicas; size bin le64 holds all the waste."""
    axes = {"allocator": ["round_robin", "ras"] * 2, "failures.file": ["a.csv"] * 2 + ["b.csv"] * 2}
    metrics = {}
    for prefix, bins in (("_size", alloc.SIZES), ("", alloc.CATEGORIES)):
        for i, b in enumerate(bins):
            w = np.array([rr_waste, ras_waste] * 2)[:, None] * np.ones((4, 3)) * (i == 1)
            metrics[f"waste_h{prefix}_{b}"] = w
            metrics[f"pmwt{prefix}_{b}"] = w / 100
            metrics[f"jobs{prefix}_{b}"] = np.full((4, 3), 10.0 * (i + 1))
    return make_results(axes=axes, model="cluster", metrics=metrics)


def test_fig5_2_and_fig5_6_print_the_bins_and_draw(make_results, tmp_path, capsys):
    f = ch5_file(make_results)
    assert g.main(["fig5_2", str(f), "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Fig. 5.2" in text and "33-64" in text
    # RR's 10 h and RAS's 8 h of waste land in the second size bin, in that order.
    rr = next(line for line in text.splitlines() if line.startswith("RR "))
    assert rr.split()[1:3] == ["0.0", "10.0"]
    assert (tmp_path / "gottumukkala_fig5_2_lanl.png").stat().st_size > 1000
    assert g.main(["fig5_6", str(f), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "gottumukkala_fig5_6_lanl.png").stat().st_size > 1000


def ch6_file(make_results, raopt_mct):
    """ALL / RR / RA / RA-Opt on two variants x two trace seeds, 2 replicas: 8 pairs in all."""
    techniques = [("first_fit", "all"), ("round_robin", "max"), ("ra", "max"), ("ra", "ra_opt")]
    traces = ["ch6_trace_1.csv", "ch6_trace_2.csv", "ch6_trace_x10_1.csv", "ch6_trace_x10_2.csv"]
    axes = {"allocator": [], "moldable_size": [], "failures.file": []}
    mct, mwt = [], []
    for a, s in techniques:
        for t in traces:
            axes["allocator"].append(a), axes["moldable_size"].append(s), axes["failures.file"].append(t)
            base = raopt_mct if s == "ra_opt" else 100.0
            mct.append([base, base * 1.02])
            mwt.append([base / 10, base / 10])
    n = len(mct)
    metrics = {"mct_unit": np.array(mct), "mwt_unit": np.array(mwt),
               "mean_job_size": np.full((n, 2), 500.0), "job_failures": np.full((n, 2), 3.0),
               "act_s_F": np.full((n, 2), 7200.0)}
    return make_results(axes=axes, model="cluster", metrics=metrics)


def test_trace_variant_names_the_node_set_without_the_seed():
    assert study.trace_variant("../x/ch6_trace_1.csv") == "x1"
    assert study.trace_variant("ch6_trace_x0.38_2.csv") == "x0.38"
    assert study.trace_variant("ch6_trace_white_1.csv") == "white"


@pytest.mark.parametrize("raopt, expected", [(50.0, "+100 %"), (200.0, "-50 %")])
def test_ch6_study_gives_the_rpd_per_variant(make_results, tmp_path, capsys, raopt, expected):
    f = ch6_file(make_results, raopt)
    assert g.main(["ch6_study", str(f), "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    lines = [line for line in text.splitlines() if line.startswith("nodes x")]
    # Two variants (node factor 1 and 10), each 4 pairs, in the MCT and MWT tables and "why".
    assert sum(line.startswith("nodes x1 ") for line in lines) == 3
    assert sum(line.startswith("nodes x10 ") for line in lines) == 3
    mct_row = lines[0]
    # RA-Opt's MCT half (double) the others': RPD +100 % (-50 %) against each of them, exactly,
    # per pair and of the means.
    assert mct_row.count(expected) == 6


def test_paired_ci_is_student_t():
    mean, half, n = alloc.paired_ci(np.array([1.0, 2.0, 3.0, np.nan]))
    assert (mean, n) == (2.0, 3)
    assert half == pytest.approx(4.302652729911275 / np.sqrt(3), rel=1e-12)  # t(0.975, 2)


def test_without_scipy_the_cis_refuse_instead_of_a_normal_quantile(monkeypatch):
    import importlib
    import sys

    from faultsweep_analysis import stats

    for name in ("scipy", "scipy.stats"):  # as if SciPy were not installed
        monkeypatch.setitem(sys.modules, name, None)
    try:
        with pytest.raises(ImportError):
            importlib.reload(stats)
    finally:
        monkeypatch.undo()
        importlib.reload(stats)
