# Sources of the workload area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/workload/swf.cpp
  src/workload/load.cpp
  src/workload/generators.cpp
  src/workload/factory.cpp
  src/workload/source_table.cpp
  src/workload/source_swf.cpp
  src/workload/source_generated.cpp
  src/workload/transform.cpp
  src/workload/thesis_options.cpp
  src/workload/estimate.cpp
)
