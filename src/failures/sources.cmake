# Sources of the failures area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/failures/renewal.cpp
  src/failures/zhang.cpp
  src/failures/trace_text.cpp
  src/failures/trace.cpp
  src/failures/lanl.cpp
  src/failures/fta.cpp
  src/failures/pnnl.cpp
  src/failures/factory.cpp
  src/failures/process_table.cpp
  src/failures/process_synthetic.cpp
  src/failures/process_zhang.cpp
  src/failures/process_trace.cpp
  src/failures/trace_formats.cpp
  src/failures/predictor.cpp
)
