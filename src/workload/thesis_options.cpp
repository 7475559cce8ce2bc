#include "faultsweep/workload/thesis_options.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/estimate.hpp"

namespace faultsweep::workload {

namespace {
constexpr double kDefaultLong_s = 30 * 86400.0;
}

const std::vector<std::string>& thesis_option_keys() {
  static const std::vector<std::string> keys = {"inject_long_jobs", "inject_long_runtime",
                                                "submit_all_at"};
  return keys;
}

void check_thesis_options(const TableReader& t) {
  const std::int64_t extra = t.integer_or("inject_long_jobs", 0, 0);
  if (extra > kMaxJobs)
    throw InputError("inject_long_jobs", std::to_string(extra),
                     fmt::format("at most {} jobs (a workload's limit)", kMaxJobs));
  const double d = t.real_or("inject_long_runtime", kDefaultLong_s);
  if (!(d > 0 && std::isfinite(d)))
    throw InputError("inject_long_runtime", format_duration(d), "a duration > 0");
  const double at = t.real_or("submit_all_at", 0.0);
  if (!(at >= 0 && std::isfinite(at)))
    throw InputError("submit_all_at", format_duration(at), "a duration >= 0");
}

void apply_thesis_options(const TableReader& t, Workload& w) {
  check_thesis_options(t);
  const auto extra = static_cast<std::size_t>(t.integer_or("inject_long_jobs", 0, 0));
  if (extra > 0 && !w.jobs.empty()) {
    const double runtime = t.real_or("inject_long_runtime", kDefaultLong_s);
    std::int64_t next_id = 0;
    for (const Job& j : w.jobs) next_id = std::max(next_id, j.id + 1);
    const std::size_t n = w.jobs.size();
    std::vector<Job> out;
    out.reserve(n + extra);
    std::size_t i = 1;  // the next long job to place
    for (std::size_t pos = 0; pos < n; ++pos) {
      out.push_back(w.jobs[pos]);
      while (i <= extra && i * n / (extra + 1) == pos) {
        Job l = w.jobs[pos];
        l.id = next_id++;
        l.runtime_s = runtime;
        l.estimate_s = runtime;
        out.push_back(l);
        ++i;
      }
    }
    w.jobs = std::move(out);
  }
  if (t.has("submit_all_at")) {
    const double at = t.real_or("submit_all_at", 0.0);
    for (Job& j : w.jobs) j.submit_s = at;
  }
}

}  // namespace faultsweep::workload
