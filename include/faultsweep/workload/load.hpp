#pragma once
// Offered load and load scaling (FARS §6.1.2 varies "failure-free system utilization ... by
// adjusting job service times").
//
// Definition used throughout faultsweep: the failure-free offered load of a workload on a
// machine of `nodes` nodes is
//     load = sum_j size_j * runtime_j / (nodes * span),   span = last submit - first submit,
// i.e. the node-seconds of work that arrive per node-second of the arrival window. For a
// stationary stream with arrival rate lambda it estimates lambda E[size runtime] / nodes, the
// utilisation the machine would see if it kept up. Both scalings below multiply either the
// numerator or the span by one factor, so the target is met exactly (to rounding).
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

enum class LoadScale { runtimes, interarrivals };

// The offered load above; throws InputError if there are fewer than 2 jobs or the span is 0.
double offered_load(const std::vector<Job>& jobs, int nodes);

// Scales run times and estimates (LoadScale::runtimes) or the submit times relative to the first
// one (LoadScale::interarrivals) by one factor so that offered_load(jobs, nodes) == target.
// Returns the factor applied. Throws InputError("target_load", ...) unless target > 0.
double scale_to_load(std::vector<Job>& jobs, int nodes, double target, LoadScale how);

}  // namespace faultsweep::workload
