#pragma once
// Workload options of Gottumukkala's simulations, applied after a workload is built (any source):
//   inject_long_jobs = L, inject_long_runtime = D: L extra jobs of run time (and estimate) D
//   injected (§6.4.4
//     "we also injected some jobs with very long run-lengths"): the i-th (i = 1..L) copies the
//     size, submit time and moldability of the job at position floor(i n / (L + 1)) and is placed
//     right after it; ids continue after the largest id. Default L = 0, D = 30 days.
//   submit_all_at = T: every job is submitted at T (§5.3.2: "we assume that all jobs are
//     available at the same time", after a warm-up of failure history: 250,000 min there).
#include <string>
#include <vector>

#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

const std::vector<std::string>& thesis_option_keys();
// Checks the keys (InputError naming inject_long_jobs, inject_long_runtime, submit_all_at).
void check_thesis_options(const TableReader& t);
void apply_thesis_options(const TableReader& t, Workload& w);

}  // namespace faultsweep::workload
