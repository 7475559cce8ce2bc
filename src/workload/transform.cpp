#include "faultsweep/workload/transform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/estimate.hpp"
#include "faultsweep/workload/load.hpp"

namespace faultsweep::workload {

LongJobRule long_job_rule(const TableReader& t) {
  LongJobRule r;
  const std::string action = t.choice_or("long_jobs", "keep", {"keep", "drop", "split"});
  if (action == "keep") {
    if (t.has("long_bound"))
      throw InputError("long_bound", t.text("long_bound"),
                       "only with long_jobs = \"drop\" or \"split\"");
    return r;
  }
  r.action = action == "drop" ? LongJobs::drop : LongJobs::split;
  if (!t.has("long_bound"))
    throw InputError("long_bound", "(missing)",
                     "a duration > 0 with long_jobs = \"" + action + "\" (e.g. \"4h\")");
  r.bound_s = t.real_or("long_bound", 0.0);
  if (!(r.bound_s > 0) || !std::isfinite(r.bound_s))
    throw InputError("long_bound", t.text("long_bound"), "a duration > 0 (e.g. \"4h\")");
  return r;
}

std::string LongJobReport::summary(const LongJobRule& rule) const {
  const std::string what = rule.action == LongJobs::drop ? "dropped" : "split";
  std::string s =
      fmt::format("long_jobs = \"{}\": {} jobs longer than {} ({:.1f} % of the work) {}",
                  what == "dropped" ? "drop" : "split", jobs_over, format_duration(rule.bound_s),
                  100 * work_share, what);
  if (rule.action == LongJobs::split) s += fmt::format(", {} jobs now", jobs_after);
  if (rule.action == LongJobs::drop && gap_factor != 1)
    s += fmt::format("; inter-arrival gaps x {:.4g} restore the target load", gap_factor);
  return s;
}

namespace {

bool by_submit(const Job& a, const Job& b) {
  return a.submit_s < b.submit_s || (a.submit_s == b.submit_s && a.id < b.id);
}

}  // namespace

LongJobReport apply_long_jobs(std::vector<Job>& jobs, const LongJobRule& rule, int nodes,
                              double target_load) {
  LongJobReport rep;
  rep.jobs_after = static_cast<std::int64_t>(jobs.size());
  if (rule.action == LongJobs::keep) return rep;
  double work = 0, over_work = 0;
  std::int64_t next_id = 0;
  for (const Job& j : jobs) {
    work += j.size * j.runtime_s;
    next_id = std::max(next_id, j.id);
    if (j.runtime_s > rule.bound_s) {
      ++rep.jobs_over;
      over_work += j.size * j.runtime_s;
    }
  }
  rep.work_share = work > 0 ? over_work / work : 0;
  // Count the pieces before making them: a tiny bound would exhaust memory.
  double pieces = 0;
  for (const Job& j : jobs)
    pieces += j.runtime_s > rule.bound_s ? std::ceil(j.runtime_s / rule.bound_s) : 1.0;
  if (rule.action == LongJobs::split && pieces > static_cast<double>(kMaxJobs))
    throw InputError("long_bound", format_duration(rule.bound_s),
                     fmt::format("a bound that splits the {} jobs into at most {} pieces (this "
                                 "one makes {:.3g}): choose a longer bound",
                                 jobs.size(), kMaxJobs, pieces));
  std::vector<Job> out;
  out.reserve(jobs.size());
  for (const Job& j : jobs) {
    if (j.runtime_s <= rule.bound_s) {
      out.push_back(j);
      continue;
    }
    if (rule.action == LongJobs::drop) continue;
    const double k = std::ceil(j.runtime_s / rule.bound_s);
    const double piece_s = j.runtime_s / k;
    for (int i = 0; i < static_cast<int>(k); ++i) {
      Job p = j;
      p.id = i == 0 ? j.id : ++next_id;
      p.runtime_s = piece_s;
      p.estimate_s = j.estimate_s / k;
      p.submit_s = j.submit_s + i * piece_s;
      out.push_back(p);
    }
  }
  if (out.empty())
    throw InputError("long_bound", format_duration(rule.bound_s),
                     "a bound that keeps at least one job (every job is longer)");
  std::stable_sort(out.begin(), out.end(), by_submit);
  jobs = std::move(out);
  // The first kept job is submitted at t = 0, as in every workload (a dropped first job moves it).
  const double t0 = jobs.front().submit_s;
  for (Job& j : jobs) j.submit_s -= t0;
  rep.jobs_after = static_cast<std::int64_t>(jobs.size());
  if (rule.action == LongJobs::drop && target_load > 0)
    rep.gap_factor = scale_to_load(jobs, nodes, target_load, LoadScale::interarrivals);
  return rep;
}

std::int64_t scale_sizes(std::vector<Job>& jobs, int from_nodes, int to_nodes) {
  if (from_nodes < 1)
    throw InputError("size_scale", "\"proportional\"", "a trace whose machine size is known");
  const double f = static_cast<double>(to_nodes) / from_nodes;
  std::int64_t changed = 0;
  for (Job& j : jobs) {
    const auto s = static_cast<std::int32_t>(
        std::clamp(std::round(j.size * f), 1.0, static_cast<double>(to_nodes)));
    changed += s != j.size;
    j.size = s;
  }
  return changed;
}

}  // namespace faultsweep::workload
