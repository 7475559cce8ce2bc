"""replica_frame and to_dataset against the file read directly with h5py: a file the real
binary writes (a 3 x 4 grid of the synthetic model, 8 replicas) and synthetic files for the
cases the grid job does not have (zipped axes, replicas that did not run)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest

from faultsweep_analysis import open_results, replica_frame, to_dataset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def grid_file(tmp_path_factory):
    binary = Path(os.environ.get("FAULTSWEEP_BIN", ROOT / "build" / "faultsweep"))
    if not binary.is_file():
        pytest.skip(f"no faultsweep binary at {binary} (build it, or set FAULTSWEEP_BIN)")
    out = tmp_path_factory.mktemp("grid") / "grid.h5"
    job = ROOT / "tests" / "data" / "jobs" / "synthetic_grid.toml"
    subprocess.run([str(binary), "run", str(job), "--out", str(out), "-q"], check=True,
                   cwd=out.parent)
    return out


def test_replica_frame_has_one_row_per_point_and_replica(grid_file):
    res = open_results(grid_file)
    df = replica_frame(res)
    with h5py.File(grid_file, "r") as f:
        values = f["results/value"][()]
        done = f["results/done"][()].astype(bool)
        axes = {a: f["points"][a][()] for a in ("mean", "sd")}
        units = f["results/value"].attrs["units"]
    assert done.all() and len(df) == values.size == 12 * 8
    assert list(df.columns) == ["point", "replica", "mean", "sd"] + res.metrics
    np.testing.assert_array_equal(df["value"], values[df["point"], df["replica"]])
    for a, column in axes.items():
        np.testing.assert_array_equal(df[a], column[df["point"]])
    assert df.attrs["units"]["value"] == (units.decode() if isinstance(units, bytes) else units)


def test_dataset_of_a_grid_has_the_axes_as_dimensions(grid_file):
    res = open_results(grid_file)
    ds = to_dataset(res)
    assert dict(ds.sizes) == {"mean": 3, "sd": 4, "replica": 8}
    assert ds["value"].dims == ("mean", "sd", "replica")
    with h5py.File(grid_file, "r") as f:
        values = f["results/value"][()]
        mean, sd = f["points/mean"][()], f["points/sd"][()]
    for p in range(len(mean)):
        np.testing.assert_array_equal(ds["value"].sel(mean=mean[p], sd=sd[p]).values, values[p])
    for name in res.metrics:
        assert ds[name].attrs["units"] == res.units(name)
    assert ds["sd"].attrs["units"] == res.units("sd")
    assert ds.attrs["model"] == "synthetic" and ds.attrs["complete"] == 1


def test_zipped_axes_stay_along_point(make_results):
    path = make_results(axes={"a": [1.0, 2.0, 3.0], "b": [10.0, 20.0, 30.0]},
                        metrics={"m": np.arange(6.0).reshape(3, 2)},
                        metric_units={"m": "s"})
    ds = to_dataset(open_results(path))
    assert dict(ds.sizes) == {"point": 3, "replica": 2}
    np.testing.assert_array_equal(ds["b"].values, [10.0, 20.0, 30.0])
    np.testing.assert_array_equal(ds["m"].values, np.arange(6.0).reshape(3, 2))
    assert ds["m"].attrs["units"] == "s"


def test_replicas_that_did_not_run(make_results):
    m = np.array([[1.0, np.nan], [3.0, 4.0]])
    path = make_results(axes={"a": [1.0, 2.0]}, metrics={"m": m}, complete=False)
    with pytest.warns(UserWarning):
        res = open_results(path)
    df = replica_frame(res)
    assert list(zip(df["point"], df["replica"], df["m"])) == [(0, 0, 1.0), (1, 0, 3.0), (1, 1, 4.0)]
    assert len(replica_frame(res, include_not_run=True)) == 4
    ds = to_dataset(res)
    assert ds["done"].values.tolist() == [[True, False], [True, True]]
    assert np.isnan(ds["m"].sel(a=1.0, replica=1))


def test_unknown_metric_names_the_metrics(make_results):
    path = make_results(axes={"a": [1.0]}, metrics={"m": np.ones((1, 2))})
    with pytest.raises(KeyError, match="metrics: m"):
        replica_frame(open_results(path), metrics=["nope"])


def test_h5netcdf_opens_the_raw_arrays_without_dimension_scales(grid_file):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("h5netcdf")
    raw = xr.open_dataset(grid_file, engine="h5netcdf", group="results", phony_dims="sort")
    with h5py.File(grid_file, "r") as f:
        np.testing.assert_array_equal(raw["value"].values, f["results/value"][()])
