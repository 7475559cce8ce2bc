# Sources of the workload area (explicit list).
list(APPEND FAULTSWEEP_SOURCES)
