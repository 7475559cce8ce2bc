# Sources of the core area (explicit list): errors, durations, params, hashing, RNG, tables.
list(APPEND FAULTSWEEP_SOURCES
  src/core/error.cpp
  src/core/duration.cpp
  src/core/params.cpp
  src/core/hash.cpp
  src/core/rng.cpp
  src/core/ziggurat.cpp
  src/core/table_reader.cpp
  src/core/text_guard.cpp
  src/core/notice.cpp
  src/core/install_dirs.cpp
  src/core/compressed.cpp
  src/core/stop.cpp
  src/core/memory.cpp
  src/core/parallel.cpp
  src/core/metric_sink.cpp
  src/core/slurm_text.cpp
)
