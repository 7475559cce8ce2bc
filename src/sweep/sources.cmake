# Sources of the sweep area (explicit list), in three rooms:
#   job/    what to sweep: the job file, its values, axes, record selection and provenance
#   run/    running it: the MPI coordinator and workers, replica rounds and slices, resuming,
#           stop signals, progress, `faultsweep plan`, `faultsweep merge`
#   store/  what it writes: the journal, the HDF5 results file and its records,
#           summaries, `inspect` and `export`
list(APPEND FAULTSWEEP_SOURCES
  src/sweep/job/job.cpp
  src/sweep/job/job_differences.cpp
  src/sweep/job/job_values.cpp
  src/sweep/job/job_record.cpp
  src/sweep/job/record_estimate.cpp
  src/sweep/job/space.cpp
  src/sweep/job/provenance.cpp
  src/sweep/run/coordinator.cpp
  src/sweep/run/rounds.cpp
  src/sweep/run/runner.cpp
  src/sweep/run/resume.cpp
  src/sweep/run/load_on_ranks.cpp
  src/sweep/run/signals.cpp
  src/sweep/run/stop_marker.cpp
  src/sweep/run/progress.cpp
  src/sweep/run/plan.cpp
  src/sweep/run/merge.cpp
  src/sweep/store/journal.cpp
  src/sweep/store/store.cpp
  src/sweep/store/record_store.cpp
  src/sweep/store/record_journal.cpp
  src/sweep/store/stats.cpp
  src/sweep/store/warnings.cpp
  src/sweep/store/inspect.cpp
  src/sweep/store/inspect_journal.cpp
  src/sweep/store/export.cpp
  src/sweep/store/export_formats.cpp
)
