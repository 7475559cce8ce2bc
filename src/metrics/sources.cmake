# Metric plug-ins of the cluster model: one file each plus one row in registry.cpp; a new file
# in this folder is picked up without editing this list.
file(GLOB FAULTSWEEP_METRIC_PLUGINS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
list(APPEND FAULTSWEEP_SOURCES ${FAULTSWEEP_METRIC_PLUGINS})
