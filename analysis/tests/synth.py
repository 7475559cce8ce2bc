"""Write small synthetic faultsweep results files that follow DESIGN.md §7 (schema version 1)
exactly, so the reader, plots and reproduction scripts can be tested without the C++ driver."""
from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Mapping, Sequence

import h5py
import numpy as np
from scipy import stats as st

STRING = h5py.string_dtype("utf-8")


def grid(**axes: Sequence) -> dict[str, list]:
    """Grid product of axis values -> {axis: [value per point]} (first axis slowest)."""
    names = list(axes)
    rows = list(itertools.product(*(axes[n] for n in names)))
    return {n: [r[i] for r in rows] for i, n in enumerate(names)}


def summarize(values: np.ndarray) -> dict[str, np.ndarray]:
    """Per-point n, mean, std, sem and Student-t 95 % CI over the non-NaN replicas."""
    n = np.sum(~np.isnan(values), axis=1).astype(float)
    out = {k: np.full(values.shape[0], np.nan) for k in ("mean", "std", "sem", "ci95_lo", "ci95_hi")}
    out["n"] = n
    for p in range(values.shape[0]):
        v = values[p][~np.isnan(values[p])]
        if v.size == 0:
            continue
        out["mean"][p] = v.mean()
        if v.size < 2:
            continue  # one replica (deterministic models): no spread, CI undefined
        out["std"][p] = v.std(ddof=1)
        out["sem"][p] = out["std"][p] / np.sqrt(v.size)
        half = st.t.ppf(0.975, v.size - 1) * out["sem"][p]
        out["ci95_lo"][p] = out["mean"][p] - half
        out["ci95_hi"][p] = out["mean"][p] + half
    return out


def write_results(
    path,
    *,
    axes: Mapping[str, Sequence],
    metrics: Mapping[str, np.ndarray],
    axis_units: Mapping[str, str] | None = None,
    metric_units: Mapping[str, str] | None = None,
    model: str = "checkpoint_sim",
    complete: bool = True,
    filetype: str | None = "faultsweep-results",
    schema_version: int | None = 1,
    master_seed: int = 20011115,
    summary_override: Mapping[str, Mapping[str, np.ndarray]] | None = None,
) -> Path:
    """Write a results file.

    axes:    {name: [value per point]} in axis order; str values make a string axis.
    metrics: {name: array [P, R]} (NaN where not run); a [P] array means one replica.
    summary_override: {metric: {stat: [P]}} replaces computed summary stats (to build cases
             whose summary says something specific).
    """
    path = Path(path)
    axis_units = dict(axis_units or {})
    metric_units = dict(metric_units or {})
    names = list(axes)
    n_points = len(next(iter(axes.values()))) if axes else 1
    arrays = {}
    for m, v in metrics.items():
        a = np.asarray(v, dtype=float)
        if a.ndim == 1:
            a = a[:, None]
        assert a.shape[0] == n_points, (m, a.shape, n_points)
        arrays[m] = a
    n_rep = max((a.shape[1] for a in arrays.values()), default=1)
    job_file = f'[sweep]\nmodel = "{model}"\nseed = {master_seed}\n'
    with h5py.File(path, "w") as f:
        if filetype is not None:
            f.attrs["filetype"] = filetype
        if schema_version is not None:
            f.attrs["schema_version"] = np.int64(schema_version)
        f.attrs["faultsweep_version"] = "0.1.0"
        f.attrs["git_sha"] = "0" * 40
        f.attrs["created_utc"] = "2024-01-01T00:00:00Z"
        f.attrs["model"] = model
        f.attrs["master_seed"] = np.uint64(master_seed)
        f.attrs["job_file"] = job_file
        f.attrs["job_file_sha256"] = hashlib.sha256(job_file.encode()).hexdigest()
        f.attrs["complete"] = np.uint8(1 if complete else 0)
        f.attrs["axes"] = ",".join(names)
        f.attrs["metrics"] = ",".join(arrays)
        f.attrs["replicas_max"] = np.int64(n_rep)

        pts = f.create_group("points")
        for name in names:
            values = list(axes[name])
            if values and isinstance(values[0], str):
                ds = pts.create_dataset(name, data=np.array(values, dtype=object), dtype=STRING)
            else:
                ds = pts.create_dataset(name, data=np.asarray(values, dtype=np.float64))
            ds.attrs["units"] = axis_units.get(name, "1")
            ds.attrs["description"] = f"axis {name}"
        params = [
            "".join(f"{n}={axes[n][p]}\n" for n in names) for p in range(n_points)
        ]
        pts.create_dataset("params", data=np.array(params, dtype=object), dtype=STRING)

        res = f.create_group("results")
        done = np.zeros((n_points, n_rep), dtype=np.uint8)
        summ = f.create_group("summary")
        for m, a in arrays.items():
            full = np.full((n_points, n_rep), np.nan)
            full[:, : a.shape[1]] = a
            done |= (~np.isnan(full)).astype(np.uint8)
            ds = res.create_dataset(m, data=full)
            ds.attrs["units"] = metric_units.get(m, "1")
            ds.attrs["description"] = f"metric {m}"
            g = summ.create_group(m)
            g.attrs["units"] = metric_units.get(m, "1")
            g.attrs["description"] = f"metric {m}"
            stats = summarize(full)
            stats.update((summary_override or {}).get(m, {}))
            for k in ("n", "mean", "std", "sem", "ci95_lo", "ci95_hi"):
                g.create_dataset(k, data=np.asarray(stats[k], dtype=np.float64))
        res.create_dataset("done", data=done)
    return path
