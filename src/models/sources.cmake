# Sources of the models area (explicit list): one file per model and the registry.
list(APPEND FAULTSWEEP_SOURCES
  src/models/registry.cpp
  src/models/reference.cpp
  src/models/markov_availability.cpp
  src/models/checkpoint_sim_model.cpp
  src/models/synthetic.cpp
  src/models/cluster.cpp
  src/models/cluster_metrics.cpp
  src/models/cluster_slowdown.cpp
  src/models/cluster_waste.cpp
  src/models/cluster_limits.cpp
)
