"""analysis/reproduce/gottumukkala.py and gottumukkala_fit.py on small synthetic files."""
import h5py
import numpy as np
import pytest

from reproduce import gottumukkala as g
from reproduce import gottumukkala_fit as gf


def table61_file(make_results, perturb_e=0.0):
    ks = sorted(g.PAPER_6_1)
    v = np.array([g.PAPER_6_1[k] for k in ks], dtype=float)
    e = v[:, 4] * (1 + perturb_e)
    return make_results(
        axes={"k": [float(k) for k in ks]}, model="k_node",
        metrics={"k": np.array(ks, float), "speedup": v[:, 0], "runtime_h": v[:, 1],
                 "reliability": v[:, 2], "mttf_h": v[:, 3], "expected_h": e,
                 "k_opt": np.full(len(ks), float(np.argmin(e) + 1)),
                 "expected_opt_h": np.full(len(ks), e.min()),
                 "failure_rate_per_h": 1 / v[:, 3]},
        metric_units={"runtime_h": "h", "mttf_h": "h", "expected_h": "h"})


def section44_file(make_results, perturb_r=0.0):
    cases = list(g.PAPER_4_4)
    v = np.array([g.PAPER_4_4[c] for c in cases], dtype=float)
    return make_results(
        axes={"node_age": [3600.0 * t for t, _ in cases], "runtime": [3600.0 * x for _, x in cases]},
        axis_units={"node_age": "s", "runtime": "s"}, model="k_node",
        metrics={"reliability": v[:, 0] + perturb_r, "failure_rate_per_h": v[:, 1], "mttf_h": v[:, 2]})


def test_table6_1_printed_numbers_pass_and_a_changed_column_fails(make_results, capsys):
    assert g.main(["table6_1", str(table61_file(make_results))]) == 0
    assert "optimal k: ours 14, paper 14" in capsys.readouterr().out
    # E off by 1e-4 relative (0.04 h at k = 14) is more than the 5e-4 h tolerance.
    assert g.main(["table6_1", str(table61_file(make_results, perturb_e=1e-4))]) == 1


def test_section4_4_printed_numbers_pass_and_a_changed_reliability_fails(make_results):
    assert g.main(["section4_4", str(section44_file(make_results))]) == 0
    assert g.main(["section4_4", str(section44_file(make_results, perturb_r=3e-4))]) == 1


def test_agrees_uses_the_printed_digits():
    assert g.agrees(0.7521075, 0.7521, 4)
    assert not g.agrees(0.7523, 0.7521, 4)
    assert g.agrees(35039.3, 3.50e4, sig=3)
    assert not g.agrees(35600, 3.50e4, sig=3)


def test_figures_are_drawn(make_results, tmp_path):
    ks = [1, 2, 4, 8]
    axes = {"speedup": [], "reliability": [], "k": []}
    e = []
    for s in ("amdahl", "gustafson"):
        for r in ("with", "without"):
            for k in ks:
                axes["speedup"].append(s), axes["reliability"].append(r), axes["k"].append(float(k))
                e.append(100.0 / k + (5 * k if r == "with" else 0))
    f = make_results(axes=axes, model="k_node",
                     metrics={"k": np.array(axes["k"]), "expected_h": np.array(e)})
    assert g.main(["fig6_4_5", str(f), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "gottumukkala_fig6_4_5.png").stat().st_size > 1000


def write_fit_file(path, filetype="faultsweep-fit"):
    """The datasets gottumukkala_fit.py reads, for one system '5' of 3 nodes."""
    laws = ["exponential", "weibull", "gamma", "lognormal"]
    with h5py.File(path, "w") as f:
        f.attrs.update(filetype=filetype, schema_version=1, systems="5", laws=",".join(laws),
                       tie_tolerance=0.01)
        s = f.create_group("system_5")
        s.attrs.update(records=12, nodes=3, nodes_fitted=2, nodes_without_ttf=1, zero_ttfs=0)
        n = s.create_group("nodes")
        n["node_id"] = [0.0, 1.0, 2.0]
        n["ttf_count"] = [3.0, 0.0, 4.0]
        n["acf1"] = [0.1, np.nan, -0.2]
        for law, p1, p2 in (("exponential", 50.0, np.nan), ("weibull", 0.8, 45.0),
                            ("gamma", 0.9, 55.0), ("lognormal", 3.5, 1.0)):
            n[f"{law}_p1"] = [p1, np.nan, p1]
            n[f"{law}_p2"] = [p2, np.nan, p2]
            n[f"{law}_ks_p"] = [0.5, np.nan, 0.6]
        n["weibull_mttf_h"] = [51.0, np.nan, 51.0]
        t = s.create_group("ttf")
        t["node_index"] = [0.0, 0, 0, 2, 2, 2, 2]
        t["ttf_h"] = [10.0, 40, 90, 5, 30, 60, 120]
        b = s.create_group("best_law")
        b["best_count"] = [0.0, 2, 0, 0]
        b["as_good_count"] = [1.0, 2, 1, 1]
        sm = s.create_group("summary")
        for key in ("weibull_shape", "weibull_scale_h", "weibull_mttf_h",
                    "weibull_censored_shape", "weibull_censored_scale_h"):
            sm[key] = [0.7, 0.9, 0.8, 0.8, 0.1]
        k = s.create_group("system_of_k")
        k["random"] = [0.0, 0.0, 1.0]
        k["k"] = [2.0, 3.0, 2.0]
        k["ttf_count"] = [6.0, 6.0, 6.0]
        k["durbin_watson"] = [2.1, 1.9, 2.0]
        for law in laws:
            k[f"{law}_ks_p"] = [0.3, 0.2, 0.4]
        s["spearman"] = [0.1, -0.3]
    return path


def test_fit_tables_print_ours_beside_the_thesis_and_draw_figures(tmp_path, capsys):
    f = write_fit_file(tmp_path / "fit.h5")
    assert gf.main([str(f), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 nodes fitted" in out and "89.9" in out       # Table 3.2 beside ASC White
    assert "0.2628 / 0.8679 / 0.5409" in out                # Table 3.3, k = 2 in order
    assert "0.8396" in out                                   # Table 3.5, thesis mean shape
    for name in ("cdf", "spearman", "acf", "dw", "params"):
        assert (tmp_path / f"fit_5_{name}.png").stat().st_size > 1000


def test_fit_script_refuses_other_files(tmp_path):
    assert gf.main([str(write_fit_file(tmp_path / "r.h5", filetype="faultsweep-results"))]) == 2
    assert gf.main([str(write_fit_file(tmp_path / "f.h5")), "--system", "9", "--no-figures"]) == 2
