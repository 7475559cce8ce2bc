"""The replica values of a results file in the shapes other tools read.

    from faultsweep_analysis import open_results, replica_frame, to_dataset
    res = open_results("results/quickstart.h5")
    replica_frame(res)   # long form: one row per point x replica that ran
    to_dataset(res)      # xarray.Dataset: dims = the sweep axes (a grid) or point, + replica

Both read /results/<metric> [P, R] and /results/done [P, R] (docs/results-schema.md); values
keep the units stored in the file (durations in seconds), named in the `units` attributes.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from .results import Results


def _metrics(res: Results, metrics: Iterable[str] | None) -> list[str]:
    names = list(res.metrics if metrics is None else metrics)
    for m in names:
        if m not in res.metrics:
            raise KeyError(f"{res.path}: no metric {m!r}; metrics: {', '.join(res.metrics)}")
    return names


def replica_frame(res: Results, metrics: Iterable[str] | None = None,
                  include_not_run: bool = False) -> pd.DataFrame:
    """Long-form DataFrame: one row per point x replica, columns point, replica, the axes, then
    one column per metric. Replicas that did not run are left out unless `include_not_run`
    (their metric values are NaN). `df.attrs["units"]` maps every axis and metric to its units."""
    names = _metrics(res, metrics)
    done = res.done()
    n_points, n_rep = done.shape
    point = np.repeat(np.arange(n_points), n_rep)
    out = pd.DataFrame({"point": point, "replica": np.tile(np.arange(n_rep), n_points)})
    for axis in res.axes:
        out[axis] = res.points[axis].to_numpy()[point]
    for m in names:
        out[m] = res.results(m).reshape(-1)
    if not include_not_run:
        out = out[done.reshape(-1)].reset_index(drop=True)
    out.attrs["units"] = {n: res.units(n) for n in res.axes + names}
    return out


def _is_grid(points: pd.DataFrame) -> bool:
    """True when the points are every combination of their axes' values, each once."""
    if points.shape[1] == 0 or points.duplicated().any():
        return False
    return int(np.prod([points[c].nunique() for c in points.columns])) == len(points)


def _scalar_attrs(attrs: dict) -> dict:
    """Root attributes a netCDF writer accepts (str and numbers; bools as 0/1)."""
    out = {}
    for k, v in attrs.items():
        if isinstance(v, bool):
            out[k] = int(v)
        elif isinstance(v, (str, int, float)):
            out[k] = v
    return out


def to_dataset(res: Results, metrics: Iterable[str] | None = None):
    """xarray.Dataset of the replica values: one variable per metric (attrs units, description)
    and `done` (bool), over dims (<axis>..., replica) when the points form a full grid of the
    axes (grid sweeps), else (point, replica) with each axis as a coordinate along point
    (zipped axes, point lists). A grid's axis values are sorted (xarray's unstack)."""
    import xarray as xr

    names = _metrics(res, metrics)
    done = res.done()
    n_points, n_rep = done.shape
    dims = ("point", "replica")
    data = {m: (dims, res.results(m), {"units": res.units(m), "description": res.description(m)})
            for m in names}
    data["done"] = (dims, done, {"description": "the replica ran"})
    coords = {"point": np.arange(n_points), "replica": np.arange(n_rep)}
    for axis in res.axes:
        coords[axis] = ("point", res.points[axis].to_numpy(),
                        {"units": res.units(axis), "description": res.description(axis)})
    ds = xr.Dataset(data, coords=coords, attrs=_scalar_attrs(res.attrs))
    if _is_grid(res.points):
        if len(res.axes) == 1:  # one axis: it replaces point (unstack needs a MultiIndex)
            ds = ds.swap_dims(point=res.axes[0]).drop_vars("point")
        else:
            ds = ds.drop_vars("point").set_index(point=res.axes).unstack("point")
        for axis in res.axes:  # unstack drops the coordinates' attributes
            ds[axis].attrs = {"units": res.units(axis), "description": res.description(axis)}
        ds = ds.transpose(*res.axes, "replica")
    return ds
