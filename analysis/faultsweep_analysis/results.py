"""Reader for faultsweep results files (DESIGN.md §7, schema version 1).

Layout read here::

    /                     attrs filetype, schema_version, model, master_seed, complete, axes,
                          metrics, replicas_max, job_file, ...
    /points/<axis>        [P]     float64, or UTF-8 strings for string axes; attr units
    /points/params        [P]     canonical "key=value" text of each point
    /results/<metric>     [P, R]  float64, NaN where not run; attrs units, description
    /results/done         [P, R]  uint8
    /summary/<metric>/{n, mean, std, sem, ci95_lo, ci95_hi}  [P]

`filetype` and `schema_version` are checked before anything else is read.

Summary layout (a choice of this package): ``Results.summary`` is a DataFrame with one row
per point and two-level columns ``(metric, stat)``, stats in the order of ``SUMMARY_STATS``.
``Results.frame()`` flattens that for everyday use: the axis columns, then per metric a
column ``<metric>`` holding the mean and columns ``<metric>_ci95_lo``, ``<metric>_ci95_hi``
(other stats on request: ``frame(stats=("mean", "sem", "n"))`` adds ``<metric>_sem`` and
``<metric>_n``). Values keep the units stored in the file (durations in seconds); use
``to_display_units`` to convert for people.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Iterable, Mapping

import h5py
import numpy as np
import pandas as pd

FILETYPE = "faultsweep-results"
KNOWN_SCHEMA_VERSION = 1
SUMMARY_STATS = ("n", "mean", "std", "sem", "ci95_lo", "ci95_hi")


def _decode(value):
    """HDF5 attribute / element value -> plain Python (bytes decoded as UTF-8)."""
    if isinstance(value, (bytes, np.bytes_)):
        return value.decode("utf-8")
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SO":
            return [_decode(v) for v in value.tolist()]
        if value.shape == ():
            return value.item()
        return value
    if isinstance(value, np.generic):
        return value.item()
    return value


def _split_names(text) -> list[str]:
    if text is None:
        return []
    return [s.strip() for s in str(text).split(",") if s.strip()]


def _read_strings(ds: h5py.Dataset) -> list[str]:
    if h5py.check_string_dtype(ds.dtype) is not None:
        return list(ds.asstr()[()])
    return [_decode(v) for v in ds[()]]


def _is_string_dataset(ds: h5py.Dataset) -> bool:
    return h5py.check_string_dtype(ds.dtype) is not None or ds.dtype.kind in "SO"


def check_file_type(f: h5py.File, path) -> None:
    """Raise ValueError unless `f` is a faultsweep results file this reader understands."""
    filetype = _decode(f.attrs.get("filetype"))
    if filetype != FILETYPE:
        found = "no filetype attribute" if filetype is None else f"filetype = {filetype!r}"
        raise ValueError(f"{path}: not a faultsweep results file ({found}; expected {FILETYPE!r})")
    version = _decode(f.attrs.get("schema_version"))
    if version is None:
        raise ValueError(f"{path}: faultsweep results file without a schema_version attribute")
    try:
        version_int = int(version)
    except (TypeError, ValueError):
        raise ValueError(f"{path}: schema_version {version!r} is not an integer") from None
    if version_int != KNOWN_SCHEMA_VERSION:
        raise ValueError(
            f"{path}: schema_version {version_int} not supported "
            f"(this reader knows {KNOWN_SCHEMA_VERSION})"
        )


# --- units ---------------------------------------------------------------------------------

_SECONDS_PER = {"s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0}


def to_display_units(values, units: str | None):
    """Values as stored -> (values for people, unit label). Durations (units "s") become hours;
    dimensionless ("1" or "") get the label ""."""
    units = (units or "").strip()
    arr = np.asarray(values, dtype=float) if not _is_textual(values) else values
    if units == "s":
        return arr / 3600.0, "h"
    if units in ("1", ""):
        return arr, ""
    return arr, units


def _is_textual(values) -> bool:
    arr = np.asarray(values)
    return arr.dtype.kind in "USO"


def to_hours(values, units: str | None) -> np.ndarray:
    """Durations in `units` ("s", "min", "h", "d") -> hours."""
    units = (units or "").strip()
    if units not in _SECONDS_PER:
        raise ValueError(f"cannot convert units {units!r} to hours (expected one of s, min, h, d)")
    return np.asarray(values, dtype=float) * _SECONDS_PER[units] / 3600.0


_DURATION_RE = re.compile(r"^\s*([-+0-9.eE]+)\s*(s|min|h|d)\s*$")


def parse_axis_value(text: str, units: str | None, is_string: bool):
    """A value typed by a user for an axis: strings stay strings; numbers may carry a duration
    suffix (90s, 5min, 2h, 3d) when the axis is stored in seconds."""
    if is_string:
        return text
    m = _DURATION_RE.match(text)
    if m:
        if (units or "") != "s":
            raise ValueError(f"{text!r}: a duration was given but the axis units are {units!r}")
        return float(m.group(1)) * _SECONDS_PER[m.group(2)]
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None


# --- the reader ------------------------------------------------------------------------------


class Results:
    """One faultsweep results file, read into memory except for the [P, R] replica arrays,
    which ``results(metric)`` reads on demand."""

    def __init__(self, path):
        self.path = Path(path)
        try:
            f = h5py.File(self.path, "r")
        except OSError as e:
            raise ValueError(f"{self.path}: not a faultsweep results file ({e})") from None
        with f:
            check_file_type(f, self.path)
            self.attrs: dict = {k: _decode(v) for k, v in f.attrs.items()}
            self.complete: bool = bool(self.attrs.get("complete", False))

            points = f.get("points")
            results = f.get("results")
            summary = f.get("summary")

            # Names and their order come from the root attributes; fall back to the groups'
            # contents so a file without those attributes is still readable.
            self.axes: list[str] = _split_names(self.attrs.get("axes"))
            if not self.axes and "axes" not in self.attrs and points is not None:
                self.axes = [k for k in points.keys() if k != "params"]
            self.metrics: list[str] = _split_names(self.attrs.get("metrics"))
            if not self.metrics and "metrics" not in self.attrs:
                group = results if results is not None else summary
                self.metrics = [k for k in (group.keys() if group else []) if k != "done"]

            self._units: dict[str, str] = {}
            self._descriptions: dict[str, str] = {}
            self._string_axes: set[str] = set()

            columns = {}
            for axis in self.axes:
                if points is None or axis not in points:
                    raise ValueError(f"{self.path}: axis {axis!r} listed in attrs but /points/{axis} missing")
                ds = points[axis]
                if _is_string_dataset(ds):
                    columns[axis] = _read_strings(ds)
                    self._string_axes.add(axis)
                else:
                    columns[axis] = np.asarray(ds[()], dtype=float)
                self._units[axis] = str(_decode(ds.attrs.get("units", "")) or "")
                self._descriptions[axis] = str(_decode(ds.attrs.get("description", "")) or "")

            self.params: list[str] = (
                _read_strings(points["params"]) if points is not None and "params" in points else []
            )
            if columns:
                n_points = len(next(iter(columns.values())))
            elif self.params:
                n_points = len(self.params)
            elif results is not None and "done" in results:
                n_points = int(results["done"].shape[0])
            else:
                n_points = 1  # no axes: a sweep of one point
            index = pd.RangeIndex(n_points, name="point")
            self.points = pd.DataFrame(columns, index=index)

            stat_columns = {}
            for metric in self.metrics:
                mgroup = summary.get(metric) if summary is not None else None
                rds = results.get(metric) if results is not None else None
                if mgroup is None and rds is None:
                    raise ValueError(f"{self.path}: metric {metric!r} has neither /results nor /summary data")
                source = rds if rds is not None else mgroup
                self._units[metric] = str(_decode(source.attrs.get("units", "")) or "")
                self._descriptions[metric] = str(_decode(source.attrs.get("description", "")) or "")
                if mgroup is not None:
                    if not self._units[metric]:
                        self._units[metric] = str(_decode(mgroup.attrs.get("units", "")) or "")
                for stat in SUMMARY_STATS:
                    if mgroup is not None and stat in mgroup:
                        stat_columns[(metric, stat)] = np.asarray(mgroup[stat][()], dtype=float)
                    else:
                        stat_columns[(metric, stat)] = np.full(n_points, np.nan)
            self.summary = pd.DataFrame(
                stat_columns,
                index=index,
                columns=pd.MultiIndex.from_arrays(
                    [[m for m, _ in stat_columns], [s for _, s in stat_columns]],
                    names=["metric", "stat"],
                ),
            )
            self.replicas = int(results["done"].shape[1]) if results is not None and "done" in results else None

        if not self.complete:
            warnings.warn(
                f"{self.path}: results file is incomplete (complete = 0): the sweep was "
                "interrupted before every replica ran; resume it to fill the gaps",
                UserWarning,
                stacklevel=3,
            )

    # --- accessors -------------------------------------------------------------------------

    @property
    def model(self) -> str | None:
        return self.attrs.get("model")

    def __len__(self) -> int:
        return len(self.points)

    def __repr__(self) -> str:
        state = "complete" if self.complete else "INCOMPLETE"
        return (
            f"<Results {self.path.name}: model={self.model!r}, {len(self)} points, "
            f"axes={self.axes}, metrics={self.metrics}, {state}>"
        )

    def is_string_axis(self, axis: str) -> bool:
        self._check_axis(axis)
        return axis in self._string_axes

    def units(self, name: str) -> str:
        """The `units` attribute of a metric or an axis ("s" for durations, "1" dimensionless)."""
        if name not in self._units:
            raise KeyError(f"{name!r} is neither a metric ({self.metrics}) nor an axis ({self.axes})")
        return self._units[name]

    def description(self, name: str) -> str:
        self.units(name)
        return self._descriptions.get(name, "")

    def results(self, metric: str) -> np.ndarray:
        """The [P, R] array of one metric, one value per replica, NaN where not run."""
        self._check_metric(metric)
        with h5py.File(self.path, "r") as f:
            if "results" not in f or metric not in f["results"]:
                raise KeyError(f"{self.path}: /results/{metric} missing")
            return np.asarray(f["results"][metric][()], dtype=float)

    def done(self) -> np.ndarray:
        """The [P, R] boolean array of replicas that ran."""
        with h5py.File(self.path, "r") as f:
            return np.asarray(f["results"]["done"][()]).astype(bool)

    def frame(
        self,
        metrics: Iterable[str] | None = None,
        stats: Iterable[str] = ("mean", "ci95_lo", "ci95_hi"),
    ) -> pd.DataFrame:
        """One DataFrame: axis columns, then per metric `<metric>` (the mean) and
        `<metric>_<stat>` for the other requested stats."""
        metrics = list(self.metrics if metrics is None else metrics)
        for m in metrics:
            self._check_metric(m)
        stats = list(stats)
        for s in stats:
            if s not in SUMMARY_STATS:
                raise KeyError(f"unknown summary stat {s!r}; known: {', '.join(SUMMARY_STATS)}")
        out = self.points.copy()
        for m in metrics:
            for s in stats:
                out[m if s == "mean" else f"{m}_{s}"] = self.summary[(m, s)].to_numpy()
        return out

    def select(self, fixed: Mapping[str, object] | None = None) -> np.ndarray:
        """Boolean mask over points where each axis in `fixed` has the given value. Numbers are
        compared with a relative tolerance of 1e-9; text values for numeric axes are parsed
        (duration suffixes allowed for axes in seconds)."""
        mask = np.ones(len(self), dtype=bool)
        for axis, want in (fixed or {}).items():
            self._check_axis(axis)
            col = self.points[axis]
            if axis in self._string_axes:
                hit = col.to_numpy() == str(want)
            else:
                if isinstance(want, str):
                    want = parse_axis_value(want, self._units.get(axis), False)
                hit = np.isclose(col.to_numpy(dtype=float), float(want), rtol=1e-9, atol=0.0)
            if not hit.any():
                values = ", ".join(map(str, pd.unique(col)[:20]))
                raise ValueError(f"axis {axis!r} has no point with value {want!r} (values: {values})")
            mask &= hit
        return mask

    def _check_metric(self, metric: str) -> None:
        if metric not in self.metrics:
            raise KeyError(f"{self.path}: no metric {metric!r}; metrics: {', '.join(self.metrics)}")

    def _check_axis(self, axis: str) -> None:
        if axis not in self.axes:
            raise KeyError(f"{self.path}: no axis {axis!r}; axes: {', '.join(self.axes) or '(none)'}")


def open_results(path) -> Results:
    """Open a faultsweep results file. Raises ValueError when the file is not one (wrong
    filetype, not HDF5) or its schema_version is not 1; warns (UserWarning) when the file is
    marked incomplete."""
    return Results(path)

