# Sources of the avail area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/avail/plank_inputs.cpp
  src/avail/markov_chain.cpp
  src/avail/spare_chain.cpp
  src/avail/plank_system.cpp
  src/avail/checkpoint_sim.cpp
  src/avail/checkpoint_sim_superposed.cpp
)
