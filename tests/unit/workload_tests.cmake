# Unit tests of the workload area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS unit/test_swf.cpp unit/test_swf_robust.cpp
     unit/test_generators.cpp)
