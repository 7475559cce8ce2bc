#pragma once
// Load-time limits of a cluster point (private to src/models): what a run would otherwise die
// of mid-sweep (out of memory, a warm-up that failures fill before any job arrives) is refused
// by `check` and `run` before any file is created.
#include "faultsweep/core/params.hpp"
#include "faultsweep/workload/estimate.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::models {

// The memory one replica of the point needs, in bytes: per node, per job and per node of a job,
// more with a reliability-aware allocator (see cluster_limits.cpp for the measured constants).
double cluster_memory_bytes(const Params& p, const workload::WorkloadEstimate& w);

// Throws InputError (key nodes) when cluster_memory_bytes exceeds memory_limit().
void check_cluster_memory(const Params& p, const workload::WorkloadEstimate& w);

// Throws InputError (key workload.submit_all_at) when the nodes fail more often before the jobs
// arrive than a run may go without a completed job. `node_mtbf_s`: NaN or inf if unknown/none.
void check_warm_up(const Params& p, double node_mtbf_s);

// Throws InputError (key strategy) when a runtime strategy called every `period_s` would be
// called more than 10^8 times over the run (the horizon, or the workload's span), and warns of
// more than 10^7 calls, saying the estimate: each call looks at the running jobs.
void check_strategy_ticks(const Params& p, double period_s, const workload::WorkloadEstimate& w);

// The end of a synthetic failure stream when the run has no horizon (see `horizon`'s help).
double generation_bound_s(const workload::Workload& w, int nodes);

// Settings under which jobs can hardly progress, warned of at load time (say_once).
// `node_s`: the node MTBF (NaN if unknown); `mean_runtime_s`: NaN if unknown.
void warn_progress(const Params& p, double node_s, double mean_runtime_s);

}  // namespace faultsweep::models
