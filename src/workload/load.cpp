#include "faultsweep/workload/load.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::workload {
namespace {

double work_node_s(const std::vector<Job>& jobs) {
  double w = 0;
  for (const Job& j : jobs) w += static_cast<double>(j.size) * j.runtime_s;
  return w;
}

double span_s(const std::vector<Job>& jobs) {
  if (jobs.size() < 2)
    throw InputError("target_load", std::to_string(jobs.size()) + " jobs",
                     "at least 2 jobs to define an offered load");
  const double span = jobs.back().submit_s - jobs.front().submit_s;
  if (!(span > 0))
    throw InputError("target_load", "span 0", "jobs whose submit times span a positive interval");
  return span;
}

}  // namespace

double offered_load(const std::vector<Job>& jobs, int nodes) {
  if (nodes < 1) throw InputError("nodes", std::to_string(nodes), "an integer >= 1");
  // load = sum size * runtime / (nodes * span) (see load.hpp).
  return work_node_s(jobs) / (static_cast<double>(nodes) * span_s(jobs));
}

double scale_to_load(std::vector<Job>& jobs, int nodes, double target, LoadScale how) {
  if (!(target > 0) || !std::isfinite(target))
    throw InputError("target_load", fmt::format("{}", target), "a number > 0");
  const double current = offered_load(jobs, nodes);
  if (how == LoadScale::runtimes) {
    // load is linear in the run times: multiply them by target / current.
    const double f = target / current;
    for (Job& j : jobs) {
      j.runtime_s *= f;
      j.estimate_s *= f;
    }
    return f;
  }
  // load is inversely proportional to the span: stretch every gap by current / target.
  const double f = current / target;
  const double t0 = jobs.front().submit_s;
  for (Job& j : jobs) j.submit_s = t0 + (j.submit_s - t0) * f;
  return f;
}

}  // namespace faultsweep::workload
