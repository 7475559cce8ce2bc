# Unit tests of the policy area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS
  unit/test_easy.cpp
  unit/test_availability_profile.cpp
  unit/test_node_set.cpp
  unit/test_moldable.cpp
  unit/test_fars_select.cpp
  unit/test_reliability_alloc.cpp
  unit/test_reliability_cluster.cpp
  unit/test_reliability_order.cpp
  unit/test_ra_opt.cpp
)
