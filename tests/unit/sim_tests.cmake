# Unit tests of the sim area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS
  unit/test_engine.cpp
  unit/test_node_runs.cpp
  unit/test_event_queue.cpp
  unit/test_cluster_model.cpp
  unit/test_documented_cases.cpp
  unit/test_strategy.cpp
  unit/test_cluster_view.cpp
  unit/test_plugin_strategy.cpp
  unit/test_fars_engine.cpp
  unit/test_zhang_section5.cpp
  unit/test_zhang_model.cpp
  unit/test_records.cpp
  unit/test_export.cpp
  unit/test_signals.cpp
)
