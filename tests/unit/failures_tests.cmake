# Unit tests of the failures area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS)
