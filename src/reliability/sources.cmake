# Sources of the reliability area (explicit list): fits, goodness of fit, systems of k nodes,
# the analysis of failure logs behind `fit`, and the k_node model that uses them.
list(APPEND FAULTSWEEP_SOURCES
  src/reliability/special.cpp
  src/reliability/fit.cpp
  src/reliability/gof.cpp
  src/reliability/system.cpp
  src/reliability/completion.cpp
  src/reliability/node_table.cpp
  src/reliability/fit_log.cpp
  src/reliability/online.cpp
  src/models/k_node.cpp
)
