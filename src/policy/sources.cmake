# Sources of the policy area (explicit list), in rooms by the decision a policy makes:
#   queue/     which waiting jobs start: FCFS, EASY, conservative backfilling and its profile
#   alloc/     which nodes, and how many: first fit, round robin, the reliability-aware
#              allocators (RAS, LJRAS, RA) and size choosers (RA-Opt, ALL)
#   strategy/  what a running job does on the way: FARS, Zhang's checkpointing, Least Failure
#              First, and the contract every runtime strategy's registry row is checked against
#   registry.cpp: one table per policy kind; plugins/ and python/ below
list(APPEND FAULTSWEEP_SOURCES
  src/policy/registry.cpp
  src/policy/queue/queue.cpp
  src/policy/queue/conservative.cpp
  src/policy/queue/availability_profile.cpp
  src/policy/alloc/allocator.cpp
  src/policy/alloc/size_chooser.cpp
  src/policy/alloc/reliability_aware.cpp
  src/policy/alloc/reliability_order.cpp
  src/policy/alloc/ra_opt.cpp
  src/policy/strategy/strategy_contract.cpp
  src/policy/strategy/fars.cpp
  src/policy/strategy/fars_select.cpp
  src/policy/strategy/zhang_checkpointing.cpp
  src/policy/strategy/least_failure_first.cpp
)
# Plug-ins: one file each (the class, its factory and its traits) plus one row in registry.cpp;
# a new file in plugins/ is picked up without editing this list.
file(GLOB FAULTSWEEP_POLICY_PLUGINS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/plugins/*.cpp)
list(APPEND FAULTSWEEP_SOURCES ${FAULTSWEEP_POLICY_PLUGINS})
# Policies written in Python (the embedded interpreter and the adapters).
include(${CMAKE_CURRENT_LIST_DIR}/python/sources.cmake)
