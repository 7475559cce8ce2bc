# Sources of the failures area (explicit list), with the two distributions only it uses.
list(APPEND FAULTSWEEP_SOURCES
  src/dist/zipf.cpp
  src/dist/composite_weibull.cpp
  src/failures/renewal.cpp
  src/failures/zhang.cpp
  src/failures/trace_text.cpp
  src/failures/trace.cpp
  src/failures/lanl.cpp
  src/failures/fta.cpp
  src/failures/pnnl.cpp
  src/failures/factory.cpp
)
