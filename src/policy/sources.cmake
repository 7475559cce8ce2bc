# Sources of the policy area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/policy/allocator.cpp
  src/policy/queue.cpp
  src/policy/registry.cpp
  src/policy/size_chooser.cpp
  src/policy/fars.cpp
  src/policy/fars_select.cpp
  src/policy/zhang_checkpointing.cpp
  src/policy/least_failure_first.cpp
  src/policy/reliability_aware.cpp
  src/policy/reliability_order.cpp
  src/policy/ra_opt.cpp
)
