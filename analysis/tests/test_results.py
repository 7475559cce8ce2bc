import h5py
import numpy as np
import pytest

import synth
from faultsweep_analysis import SUMMARY_STATS, open_results


def availability_sweep(make_results, **kwargs):
    """a in 1..4 × I in {6 min, 1 h, 24 h} (log-spaced, seconds), 5 replicas, plus a string axis
    held fixed."""
    axes = synth.grid(a=[1, 2, 3, 4], I=[360.0, 3600.0, 86400.0], env=["HIGH"])
    n = len(axes["a"])
    rng = np.random.default_rng(7)
    avail = 0.5 + 0.1 * np.asarray(axes["a"])[:, None] + rng.normal(0, 0.01, (n, 5))
    runtime = 3600.0 * 10 / np.asarray(axes["a"], dtype=float)
    return make_results(
        axes=axes,
        metrics={"availability": avail, "runtime": np.repeat(runtime[:, None], 5, axis=1)},
        axis_units={"I": "s"},
        metric_units={"runtime": "s"},
        **kwargs,
    )


def test_rejects_file_with_wrong_filetype(make_results):
    path = make_results(axes={"a": [1.0]}, metrics={"m": [[1.0]]}, filetype="something-else")
    with pytest.raises(ValueError, match="not a faultsweep results file"):
        open_results(path)


def test_rejects_file_without_filetype(make_results):
    path = make_results(axes={"a": [1.0]}, metrics={"m": [[1.0]]}, filetype=None)
    with pytest.raises(ValueError, match="not a faultsweep results file"):
        open_results(path)


def test_rejects_plain_hdf5_and_non_hdf5_files(tmp_path):
    plain = tmp_path / "plain.h5"
    with h5py.File(plain, "w") as f:
        f["x"] = np.arange(3)
    with pytest.raises(ValueError, match="not a faultsweep results file"):
        open_results(plain)
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(ValueError, match="not a faultsweep results file"):
        open_results(text)


def test_rejects_newer_schema_version_before_reading_anything_else(tmp_path):
    # A version-2 file may lay out its groups differently; the check must come first, so a
    # file with only the two root attributes gets the version error, not a missing-group one.
    path = tmp_path / "v2.h5"
    with h5py.File(path, "w") as f:
        f.attrs["filetype"] = "faultsweep-results"
        f.attrs["schema_version"] = 2
    with pytest.raises(ValueError, match=r"schema_version 2 not supported \(this reader knows 1\)"):
        open_results(path)


def test_accepts_fixed_length_byte_strings_and_bool_complete(make_results):
    path = availability_sweep(make_results)
    with h5py.File(path, "r+") as f:  # as a C++ writer using fixed-length strings would store it
        f.attrs["filetype"] = np.bytes_(b"faultsweep-results")
        f.attrs["model"] = np.bytes_(b"checkpoint_sim")
        f.attrs["complete"] = np.bool_(True)
        del f["points/env"]
        f["points/env"] = np.array([b"HIGH"] * 12, dtype="S4")
        f["points/env"].attrs["units"] = "1"
    res = open_results(path)
    assert res.complete is True
    assert res.points["env"].tolist() == ["HIGH"] * 12 and res.is_string_axis("env")
    assert res.attrs["filetype"] == "faultsweep-results"
    assert res.model == "checkpoint_sim"


def test_incomplete_file_warns(make_results):
    path = availability_sweep(make_results, complete=False)
    with pytest.warns(UserWarning, match="incomplete"):
        res = open_results(path)
    assert res.complete is False


def test_complete_file_does_not_warn(make_results, recwarn):
    res = open_results(availability_sweep(make_results))
    assert res.complete is True
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]


def test_attributes_axes_metrics_and_points(make_results):
    res = open_results(availability_sweep(make_results))
    assert res.axes == ["a", "I", "env"]
    assert res.metrics == ["availability", "runtime"]
    assert res.attrs["master_seed"] == 20011115
    assert res.attrs["schema_version"] == 1
    assert len(res) == 12
    assert list(res.points.columns) == ["a", "I", "env"]
    assert res.points["a"].tolist() == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert res.points["I"].tolist()[:3] == [360.0, 3600.0, 86400.0]
    env = res.points["env"].tolist()
    assert env == ["HIGH"] * 12 and all(type(v) is str for v in env)
    assert res.is_string_axis("env") and not res.is_string_axis("I")
    assert res.units("I") == "s" and res.units("a") == "1"
    assert res.units("runtime") == "s" and res.units("availability") == "1"
    assert res.params[0] == "a=1\nI=360.0\nenv=HIGH\n"
    with pytest.raises(KeyError):
        res.units("nope")


def test_summary_has_metric_stat_columns_matching_the_file(make_results):
    path = availability_sweep(make_results)
    res = open_results(path)
    assert list(res.summary.columns.names) == ["metric", "stat"]
    assert list(res.summary["availability"].columns) == list(SUMMARY_STATS)
    with h5py.File(path, "r") as f:
        for stat in SUMMARY_STATS:
            np.testing.assert_array_equal(
                res.summary[("availability", stat)].to_numpy(), f[f"summary/availability/{stat}"][()]
            )


def test_results_array_and_done(make_results):
    path = availability_sweep(make_results)
    res = open_results(path)
    arr = res.results("availability")
    assert arr.shape == (12, 5) and arr.dtype == np.float64
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(arr, f["results/availability"][()])
    assert res.done().all()
    with pytest.raises(KeyError, match="no metric"):
        res.results("not_a_metric")


def test_frame_contents(make_results):
    path = availability_sweep(make_results)
    res = open_results(path)
    frame = res.frame()
    assert list(frame.columns) == [
        "a", "I", "env",
        "availability", "availability_ci95_lo", "availability_ci95_hi",
        "runtime", "runtime_ci95_lo", "runtime_ci95_hi",
    ]
    assert len(frame) == 12
    raw = res.results("availability")
    np.testing.assert_allclose(frame["availability"], raw.mean(axis=1), rtol=1e-12)
    assert (frame["availability_ci95_lo"] < frame["availability"]).all()
    assert (frame["availability"] < frame["availability_ci95_hi"]).all()
    # point 4 is a = 2, I = 1 h
    assert frame.loc[4, "a"] == 2 and frame.loc[4, "I"] == 3600.0
    assert frame.loc[4, "runtime"] == pytest.approx(18000.0)

    narrow = res.frame(metrics=["runtime"], stats=("mean", "sem", "n"))
    assert list(narrow.columns) == ["a", "I", "env", "runtime", "runtime_sem", "runtime_n"]
    assert (narrow["runtime_n"] == 5).all()
    with pytest.raises(KeyError):
        res.frame(stats=("median",))


def test_nan_where_not_run(make_results):
    values = np.array([[0.9, 0.91, np.nan], [0.8, np.nan, np.nan]])
    with pytest.warns(UserWarning):
        res = open_results(make_results(axes={"a": [1.0, 2.0]}, metrics={"availability": values},
                                        complete=False))
    assert res.done().tolist() == [[True, True, False], [True, False, False]]
    frame = res.frame(stats=("mean", "n", "ci95_lo"))
    assert frame["availability_n"].tolist() == [2, 1]
    assert frame.loc[0, "availability"] == pytest.approx(0.905)
    assert np.isnan(frame.loc[1, "availability_ci95_lo"])


def test_select_by_axis_values(make_results):
    res = open_results(availability_sweep(make_results))
    assert res.select({"a": 2}).sum() == 3
    assert res.select({"I": "1h"}).sum() == 4  # duration text for an axis stored in seconds
    assert res.select({"I": 3600, "a": "3"}).sum() == 1
    assert res.select({"env": "HIGH"}).all()
    with pytest.raises(ValueError, match="no point"):
        res.select({"a": 7})
    with pytest.raises(KeyError):
        res.select({"b": 1})
