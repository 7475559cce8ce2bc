#pragma once
// Workload options that change the jobs after they are read or generated (workload/factory.cpp
// applies them; Zhang sensitivity study):
//
//   long_jobs = "keep" | "drop" | "split", long_bound = <duration>  (any source)
//     Applied after load scaling, to the run times as simulated. A job whose run time exceeds
//     long_bound is
//       drop:  removed; if target_load is set, the remaining jobs' inter-arrival gaps are then
//              shrunk (never their run times) so that the offered load is target_load again;
//       split: cut into k = ceil(runtime / long_bound) jobs of runtime / k each (same size;
//              estimate / k each), piece i submitted at submit + i x runtime / k, i.e. when the
//              piece before it would end if it started on arrival. Work and load are unchanged.
//     Piece 0 keeps the job's id; later pieces get ids above every id of the workload.
//   size_scale = "none" | "proportional"  (SWF only)
//     proportional: each size becomes max(1, round(size x nodes / M)), M the trace's machine
//     (header MaxProcs / MaxNodes), so that a log of a larger machine keeps its size
//     distribution relative to the machine; jobs wider than M are still dropped (too_large).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

enum class LongJobs { keep, drop, split };

struct LongJobRule {
  LongJobs action = LongJobs::keep;
  double bound_s = std::numeric_limits<double>::infinity();
};

// Reads long_jobs / long_bound; errors name the key (long_bound is required with drop or split,
// must be a duration > 0, and is refused with keep).
LongJobRule long_job_rule(const TableReader& t);

// What apply_long_jobs did, for the user (Workload::notes).
struct LongJobReport {
  std::int64_t jobs_over = 0;   // jobs longer than the bound
  std::int64_t jobs_after = 0;  // jobs in the workload afterwards
  double work_share = 0;        // their share of the node-seconds of work before
  double gap_factor = 1;        // drop with target_load: factor applied to the gaps
  std::string summary(const LongJobRule& rule) const;
};

// Drops or splits the jobs longer than rule.bound_s (see above). `target_load` > 0 with drop:
// restore that offered load on `nodes` by scaling inter-arrival gaps. Keeps jobs sorted by
// submit time (then id).
LongJobReport apply_long_jobs(std::vector<Job>& jobs, const LongJobRule& rule, int nodes,
                              double target_load);

// size_scale = "proportional": sizes x to_nodes / from_nodes, rounded, in [1, to_nodes].
// Returns the number of jobs whose size changed.
std::int64_t scale_sizes(std::vector<Job>& jobs, int from_nodes, int to_nodes);

}  // namespace faultsweep::workload
