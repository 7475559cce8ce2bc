# Sources of the sim area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/sim/engine.cpp
  src/sim/engine_jobs.cpp
  src/sim/engine_nodes.cpp
  src/sim/engine_failures.cpp
  src/sim/engine_schedule.cpp
  src/sim/engine_actions.cpp
  src/sim/accounting.cpp
  src/sim/waste.cpp
  src/sim/records.cpp
  src/sim/engine_records.cpp
)
