# Unit tests of the reliability area and the k_node model (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS
  unit/test_reliability_scipy.cpp
  unit/test_reliability.cpp
  unit/test_reliability_system.cpp
  unit/test_reliability_fit.cpp
  unit/test_fit_formats.cpp
  unit/test_k_node.cpp
  unit/test_special_functions.cpp
)
