# Sources of the sweep area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/sweep/job.cpp
  src/sweep/job_differences.cpp
  src/sweep/job_values.cpp
  src/sweep/job_record.cpp
  src/sweep/record_estimate.cpp
  src/sweep/space.cpp
  src/sweep/stats.cpp
  src/sweep/journal.cpp
  src/sweep/store.cpp
  src/sweep/record_store.cpp
  src/sweep/record_journal.cpp
  src/sweep/export.cpp
  src/sweep/export_formats.cpp
  src/sweep/progress.cpp
  src/sweep/coordinator.cpp
  src/sweep/rounds.cpp
  src/sweep/runner.cpp
  src/sweep/resume.cpp
  src/sweep/load_on_ranks.cpp
  src/sweep/signals.cpp
  src/sweep/stop_marker.cpp
  src/sweep/inspect.cpp
  src/sweep/plan.cpp
  src/sweep/provenance.cpp
  src/sweep/warnings.cpp
)
