# Sources of the workload area (explicit list), plus the distributions it owns in dist/.
list(APPEND FAULTSWEEP_SOURCES
  src/dist/gamma.cpp
  src/dist/mixtures.cpp
  src/dist/log_uniform.cpp
  src/dist/empirical.cpp
  src/workload/swf.cpp
  src/workload/load.cpp
  src/workload/generators.cpp
  src/workload/factory.cpp
)
