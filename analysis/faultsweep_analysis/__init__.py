"""Read and plot faultsweep HDF5 results files (schema version 1).

    from faultsweep_analysis import open_results, replica_frame, to_dataset
    res = open_results("results/plank/million_day.h5")
    res.frame()                      # one row per point: axes, metric means and 95 % CIs
    replica_frame(res)               # one row per point x replica: axes, metric values
    to_dataset(res)                  # xarray.Dataset over the sweep axes (or point) x replica

See analysis/README.md for the command line and the reproduction scripts.
"""
from .results import (
    KNOWN_SCHEMA_VERSION,
    FILETYPE,
    SUMMARY_STATS,
    Results,
    open_results,
    to_display_units,
)
from .tables import replica_frame, to_dataset

__all__ = [
    "FILETYPE",
    "KNOWN_SCHEMA_VERSION",
    "SUMMARY_STATS",
    "Results",
    "open_results",
    "replica_frame",
    "to_dataset",
    "to_display_units",
]
