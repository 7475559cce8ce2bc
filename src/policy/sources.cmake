# Sources of the policy area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/policy/allocator.cpp
  src/policy/queue.cpp
  src/policy/conservative.cpp
  src/policy/availability_profile.cpp
  src/policy/registry.cpp
  src/policy/strategy_contract.cpp
  src/policy/size_chooser.cpp
  src/policy/fars.cpp
  src/policy/fars_select.cpp
  src/policy/zhang_checkpointing.cpp
  src/policy/least_failure_first.cpp
  src/policy/reliability_aware.cpp
  src/policy/reliability_order.cpp
  src/policy/ra_opt.cpp
)
# Plug-ins: one file each (the class, its factory and its traits) plus one row in registry.cpp;
# a new file in plugins/ is picked up without editing this list.
file(GLOB FAULTSWEEP_POLICY_PLUGINS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/plugins/*.cpp)
list(APPEND FAULTSWEEP_SOURCES ${FAULTSWEEP_POLICY_PLUGINS})
# Policies written in Python (the embedded interpreter and the adapters).
include(${CMAKE_CURRENT_LIST_DIR}/python/sources.cmake)
