# Unit tests of the dist_more area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS unit/test_dist_more.cpp)
