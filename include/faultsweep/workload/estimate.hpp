#pragma once
// What a point's workload will hold, estimated at load time without building it: `check` and
// `run` refuse a point whose jobs would not fit in memory before any file is created.
#include <cstdint>
#include <filesystem>

#include "faultsweep/core/params.hpp"

namespace faultsweep::workload {

// The engine indexes jobs with 32-bit integers; a workload may hold at most this many jobs
// (after long jobs are split and long jobs injected).
inline constexpr std::int64_t kMaxJobs = 100'000'000;

struct WorkloadEstimate {
  double jobs = 0;       // after the long-job rule and the injected jobs
  double mean_size = 0;  // nodes per job (requested)
  // The simulated span of a failure-free run, roughly: the last submission, plus the work
  // spread over the machine, plus the longest job (before the long-job rule).
  double span_s = 0;
};

// A generator's jobs from a sample of up to 1,000 of them on a machine of `nodes` nodes (the
// sample also checks the parameters against that machine, e.g. mean_size <= nodes); a trace's
// from the trace itself. Throws InputError (key of the workload table) when the workload would
// exceed kMaxJobs.
WorkloadEstimate estimate_workload(const Params& table, int nodes,
                                   const std::filesystem::path& base_dir);

}  // namespace faultsweep::workload
