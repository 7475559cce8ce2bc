# Sources of the sim area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/sim/engine.cpp
)
