#include "faultsweep/workload/estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/factory.hpp"

namespace faultsweep::workload {

namespace {

constexpr std::int64_t kSampleJobs = 1000;
constexpr double kDefaultLong_s = 30 * 86400.0;  // inject_long_runtime's default

// The table without the keys whose effect is computed rather than built.
Params without(const Params& table, std::initializer_list<const char*> keys) {
  Params out;
  for (const auto& kv : table.values())  // not [k, v]: clang 14 cannot capture a binding
    if (std::find_if(keys.begin(), keys.end(), [&](const char* x) { return kv.first == x; }) ==
        keys.end())
      out.set(kv.first, kv.second);
  return out;
}

// Pieces a job of `runtime_s` becomes under long_jobs = "split" (transform.cpp).
double pieces(double runtime_s, double bound_s) {
  return runtime_s > bound_s ? std::ceil(runtime_s / bound_s) : 1.0;
}

}  // namespace

WorkloadEstimate estimate_workload(const Params& table, int nodes,
                                   const std::filesystem::path& base_dir) {
  const bool trace = workload_reads_file(table);
  const bool split = table.has("long_jobs") && table.str("long_jobs") == "split";
  const double bound_s = split ? table.real("long_bound") : 0.0;
  const double inject =
      table.has("inject_long_jobs") ? static_cast<double>(table.integer("inject_long_jobs")) : 0.0;
  // The sample: the same table with at most kSampleJobs jobs, nothing split or injected.
  Params sample = without(table, {"long_jobs", "long_bound", "inject_long_jobs"});
  double scale = 1;
  if (!trace) {
    const std::int64_t jobs = table.has("jobs") ? table.integer("jobs") : 10000;
    const std::int64_t m = std::min(jobs, kSampleJobs);
    sample.set("jobs", m);
    scale = static_cast<double>(jobs) / static_cast<double>(m);
  }
  RunContext ctx;
  ctx.base_dir = base_dir;
  const Workload w = make_workload(sample, nodes, ctx);
  double n = 0, size = 0, node_s = 0, last_s = 0, longest_s = 0;
  for (const Job& j : w.jobs) {
    const double k = split ? pieces(j.runtime_s, bound_s) : 1.0;
    n += k;
    size += k * j.size;
    node_s += j.size * j.runtime_s;
    last_s = std::max(last_s, j.submit_s);
    longest_s = std::max(longest_s, j.runtime_s);
  }
  WorkloadEstimate e;
  const double injected_pieces =
      inject * (split ? pieces(table.has("inject_long_runtime") ? table.real("inject_long_runtime")
                                                                : kDefaultLong_s,
                               bound_s)
                      : 1.0);
  e.jobs = n * scale + injected_pieces;
  e.mean_size = n > 0 ? size / n : 1.0;
  e.span_s = (last_s + node_s / std::max(1, nodes)) * scale + longest_s;
  if (e.jobs > static_cast<double>(kMaxJobs)) {
    const bool by_split = split && n * scale > static_cast<double>(w.jobs.size()) * scale * 2;
    const std::string why = fmt::format(
        "would make about {:.3g} jobs ({}); a workload may hold at most {} jobs", e.jobs,
        by_split ? fmt::format("long_jobs = \"split\" cuts each job longer than {} into pieces",
                               format_duration(bound_s))
                 : fmt::format("{:.3g} jobs and {:.3g} injected", n * scale, inject),
        kMaxJobs);
    if (by_split)
      throw InputError("long_bound", format_duration(bound_s), why + ": choose a longer bound");
    throw InputError("inject_long_jobs", fmt::format("{}", inject), why);
  }
  return e;
}

}  // namespace faultsweep::workload
