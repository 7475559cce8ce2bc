# Sources of the policy area (explicit list).
list(APPEND FAULTSWEEP_SOURCES)
