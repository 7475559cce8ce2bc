# Unit tests of the failures area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS
  unit/test_failures.cpp
  unit/test_failure_factory.cpp
  unit/test_node_history.cpp
  unit/test_zipf.cpp
  unit/test_lanl.cpp
  unit/test_compressed.cpp
  unit/test_predictor.cpp
  unit/test_fta.cpp
  unit/test_pnnl.cpp
  unit/test_source_registry.cpp
  unit/test_slurm_events.cpp
)
