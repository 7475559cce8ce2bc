# Sources of the failures area.
list(APPEND FAULTSWEEP_SOURCES
  src/failures/renewal.cpp
  src/failures/zhang.cpp
  src/failures/trace_text.cpp
  src/failures/trace.cpp
  src/failures/lanl.cpp
  src/failures/fta.cpp
  src/failures/pnnl.cpp
  src/failures/factory.cpp
  src/failures/predictor.cpp
)
# Failure processes (process_*.cpp, their table process_table.cpp) and trace formats
# (trace_format*.cpp): one file each plus one line in its table; a new file is picked up without
# editing this list.
file(GLOB FAULTSWEEP_FAILURE_ROWS CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/process_*.cpp ${CMAKE_CURRENT_LIST_DIR}/trace_format*.cpp)
list(APPEND FAULTSWEEP_SOURCES ${FAULTSWEEP_FAILURE_ROWS})
