# Sources of the failures area (explicit list).
list(APPEND FAULTSWEEP_SOURCES)
