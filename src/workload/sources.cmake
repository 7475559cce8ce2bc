# Sources of the workload area.
list(APPEND FAULTSWEEP_SOURCES
  src/workload/swf.cpp
  src/workload/sacct.cpp
  src/workload/sacct_stats.cpp
  src/workload/load.cpp
  src/workload/generators.cpp
  src/workload/factory.cpp
  src/workload/transform.cpp
  src/workload/thesis_options.cpp
  src/workload/estimate.cpp
)
# Workload sources (source_*.cpp, their table source_table.cpp): one file each plus one line in
# the table; a new file is picked up without editing this list.
file(GLOB FAULTSWEEP_WORKLOAD_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/source_*.cpp)
list(APPEND FAULTSWEEP_SOURCES ${FAULTSWEEP_WORKLOAD_SOURCES})
