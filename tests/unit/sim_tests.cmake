# Unit tests of the sim area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS
  unit/test_engine.cpp
)
