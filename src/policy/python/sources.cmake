# Policies written in Python: the embedded interpreter, the class loader and one adapter per
# policy kind.
list(APPEND FAULTSWEEP_SOURCES
  src/policy/python/interpreter.cpp
  src/policy/python/choice.cpp
  src/policy/python/allocator.cpp
  src/policy/python/queue.cpp
  src/policy/python/size_chooser.cpp
  src/policy/python/strategy.cpp
  src/policy/python/sources.cpp
  src/policy/python/watch.cpp
)
