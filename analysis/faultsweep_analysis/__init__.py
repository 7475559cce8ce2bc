"""Read and plot faultsweep HDF5 results files (schema version 1).

    from faultsweep_analysis import open_results
    res = open_results("results/plank/million_day.h5")
    res.frame()                      # one row per point: axes, metric means and 95 % CIs

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

__all__ = [
    "FILETYPE",
    "KNOWN_SCHEMA_VERSION",
    "SUMMARY_STATS",
    "Results",
    "open_results",
    "to_display_units",
]
