#pragma once
// A small job and a results table whose values exercise the bits, shared by the results file's
// tests and the slices' and merge's.
#include <cstring>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::testing {

inline sweep::JobSpec store_job() {
  // 2 x 3 points, 3 replicas; sd and work vary together in a zip group.
  return sweep::parse_job(
      "[sweep]\nmodel = \"synthetic\"\nseed = 42\nreplicas = 3\ndescription = \"store test\"\n"
      "[axes]\nmean = [1.0, 2.0]\ng = { zip = { sd = [0.5, 1.5, 2.5], work = [0, 0, \"0ms\"] } "
      "}\n",
      "jobs/store.toml");
}

// Values that exercise the bits: negative zero, subnormal, huge, NaN where not done.
inline sweep::ResultTable filled_table(const sweep::JobSpec& job, bool all_done) {
  sweep::ResultTable t(job.points.size(), 3, job.metric_count());
  const double odd[] = {-0.0, 4.9e-324, 1.7976931348623157e308, 0.1, -3.25, 1.0 / 3.0};
  for (std::size_t task = 0; task < t.tasks(); ++task) {
    if (!all_done && task % 4 == 3) continue;  // not run: stays NaN
    t.done[task] = 1;
    t.value(0, task) = odd[task % 6] * (task % 5 == 0 ? 1.0 : static_cast<double>(task));
    t.value(1, task) = static_cast<double>(task) / 17.0;
  }
  return t;
}

inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace faultsweep::testing
