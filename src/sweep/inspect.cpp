#include "faultsweep/sweep/inspect.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/sweep/coordinator.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

namespace {

std::string axis_summary(const io::File& file, const std::string& name) {
  const std::string f = file.path();
  io::Handle g = io::open_group(file.id(), "points", f);
  std::string units;
  {
    io::Handle d(H5Dopen2(g.id(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (io::has_attr(d.id(), "units")) units = io::read_attr_string(d.id(), "units", f);
  }
  if (io::is_string_dataset(g.id(), name, f)) {
    const auto v = io::read_strings(g.id(), name, f);
    std::vector<std::string> uniq;
    for (const auto& s : v)
      if (std::find(uniq.begin(), uniq.end(), s) == uniq.end()) uniq.push_back(s);
    return fmt::format("{} values: {}", uniq.size(), fmt::join(uniq, ", "));
  }
  std::vector<hsize_t> dims;
  const auto v = io::read_doubles(g.id(), name, dims, f);
  const std::set<double> uniq(v.begin(), v.end());
  if (uniq.empty()) return "no values";
  return fmt::format("{} values from {:.6g} to {:.6g}{}", uniq.size(), *uniq.begin(),
                     *uniq.rbegin(), units.empty() || units == "1" ? "" : " " + units);
}

}  // namespace

int inspect_file(const std::string& path, std::FILE* out) {
  if (io::hdf5_filetype(path) == fit_command::kFitFileType)
    return fit_command::inspect_fit_file(path, out);
  const StoredResults s = read_results(path);
  const ResultTable& t = s.table;
  io::File file = io::File::open_read(path);
  std::fprintf(out, "%s: faultsweep results (schema %lld, results version %lld), %s\n",
               path.c_str(), static_cast<long long>(kSchemaVersion),
               static_cast<long long>(s.results_version),
               s.complete ? "COMPLETE" : "INCOMPLETE: rerun the job with --resume to finish it");
  std::fprintf(out, "  model      %s, master seed %llu\n", s.model.c_str(),
               static_cast<unsigned long long>(s.master_seed));
  std::fprintf(out, "  written    %s by faultsweep %s (git %s)\n", s.created_utc.c_str(),
               s.version.c_str(), s.git_sha.c_str());
  std::fprintf(out, "  job file   %s (%zu bytes stored in the file)\n", s.job_file_name.c_str(),
               s.job_text.size());
  for (const InputFile& in : s.inputs)
    std::fprintf(out, "  input      %s (%llu bytes, sha256 %s)\n", in.path.c_str(),
                 static_cast<unsigned long long>(in.size_bytes), in.sha256.c_str());
  for (const InputFile& in : s.inputs)
    for (const InputReading& r : in.read)
      std::fprintf(out, "  read       %s: %s\n", in.path.c_str(), r.summary.c_str());
  // Loading notices include each input's read summary ("read FILE: ..."): a warning only when
  // its reader dropped something; a summary already listed above is not repeated.
  for (const std::string& w : s.warnings) {
    if (w.rfind("read ", 0) == 0 && w.find("; dropped: ") == std::string::npos) {
      const bool listed = std::any_of(s.inputs.begin(), s.inputs.end(), [&](const InputFile& in) {
        return std::any_of(in.read.begin(), in.read.end(), [&](const InputReading& r) {
          return w.size() > r.summary.size() + 2 &&
                 w.compare(w.size() - r.summary.size() - 2, std::string::npos, ": " + r.summary) ==
                     0;
        });
      });
      if (!listed) std::fprintf(out, "  read       %s\n", w.c_str() + 5);
      continue;
    }
    std::fprintf(out, "  warning    %s\n", w.c_str());
  }
  std::fprintf(out, "  points     %zu\n", t.points);
  for (const auto& a : s.axes)
    std::fprintf(out, "    axis %-14s %s\n", a.c_str(), axis_summary(file, a).c_str());
  std::size_t lo = t.replicas_max, hi = 0;
  for (std::size_t p = 0; p < t.points; ++p) {
    std::size_t n = 0;
    for (std::size_t r = 0; r < t.replicas_max; ++r) n += t.done[p * t.replicas_max + r];
    lo = std::min(lo, n), hi = std::max(hi, n);
  }
  std::fprintf(out, "  replicas   %zu of %zu tasks done; per point %zu to %zu (at most %zu)\n",
               t.done_count(), t.tasks(), t.points ? lo : 0, hi, t.replicas_max);
  std::fprintf(out, "  metrics    (range of the replica values over all points)\n");
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    double mn = INFINITY, mx = -INFINITY;
    for (std::size_t i = 0; i < t.tasks(); ++i)
      if (t.done[i] && !std::isnan(t.value(m, i)))
        mn = std::min(mn, t.value(m, i)), mx = std::max(mx, t.value(m, i));
    if (mn > mx)  // nothing but NaN (or no task done)
      std::fprintf(out, "    %-20s [%s] no values (every done replica gave NaN, or none ran)\n",
                   s.metrics[m].c_str(), s.units[m].c_str());
    else
      std::fprintf(out, "    %-20s [%s] values from %.6g to %.6g\n", s.metrics[m].c_str(),
                   s.units[m].c_str(), mn, mx);
  }
  for (const std::string& line : describe_records(s.records, t.replicas_max))
    std::fprintf(out, "  %s\n", line.c_str());
  return 0;
}

int plan_job(const std::string& path, int pilot_tasks, std::FILE* out) {
  const JobSpec job = load_job(path);
  const std::size_t P = job.points.size(), R = static_cast<std::size_t>(job.replicas.max);
  const std::size_t rmin = static_cast<std::size_t>(job.replicas.min);
  double cost_per_replica = 0;  // summed over points
  for (double c : job.costs) cost_per_replica += c;
  std::fprintf(out, "%s: model %s, %zu points x %s replicas = %s%zu tasks\n", path.c_str(),
               job.model->name().c_str(), P,
               job.replicas.adaptive() ? fmt::format("{}..{}", rmin, R).c_str()
                                       : fmt::format("{}", R).c_str(),
               job.replicas.adaptive() ? fmt::format("{}..", P * rmin).c_str() : "", P * R);
  if (P == 0 || pilot_tasks <= 0) return 0;

  // Pilot: K tasks at evenly spaced positions of the points ordered by cost, each with another
  // replica, so that cheap and expensive points and several random streams are all sampled.
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return job.costs[a] < job.costs[b]; });
  // Never more pilot tasks than the job has: then the pilot is the whole job.
  const std::size_t K = std::min(static_cast<std::size_t>(pilot_tasks), P * R);
  std::vector<double> values(job.metric_count());
  double seconds = 0, cost = 0, slowest = 0;
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t p = order[K == 1 ? P - 1 : (k * (P - 1) + (K - 1) / 2) / (K - 1)];
    const std::uint64_t task = p * R + k % R;
    const auto t0 = std::chrono::steady_clock::now();
    run_task(job, task, values);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    seconds += s, cost += job.costs[p], slowest = std::max(slowest, s);
  }
  const double s_per_cost = seconds / cost;
  const double lo_s = s_per_cost * cost_per_replica * static_cast<double>(rmin);
  const double hi_s = s_per_cost * cost_per_replica * static_cast<double>(R);
  const double mean_task = hi_s / static_cast<double>(P * R);
  std::fprintf(out, "  pilot      %zu tasks in %.3g s on this process (slowest %.3g s)\n", K,
               seconds, slowest);
  if (job.replicas.adaptive())
    std::fprintf(out, "  estimate   %.3g to %.3g core-hours (%.3g to %.3g core-seconds)\n",
                 lo_s / 3600, hi_s / 3600, lo_s, hi_s);
  else
    std::fprintf(out, "  estimate   %.3g core-hours (%.3g core-seconds), mean task %.3g s\n",
                 hi_s / 3600, hi_s, mean_task);

  // Ranks for about an hour of wall time, with at least 10 tasks per rank for the load balance;
  // slices when one coordinator could not keep that many ranks above 90 % efficiency.
  const double tasks = static_cast<double>(P * R);
  const double ranks = std::clamp(std::ceil(hi_s / 3600.0), 1.0, std::max(1.0, tasks / 10));
  const double per_coordinator =
      std::max(1.0, std::floor(0.1 * mean_task / kCoordinatorSecondsPerTask));
  const double slices = std::ceil(ranks / per_coordinator);
  std::fprintf(out, "  suggest    %.0f rank%s (about %.2g h of wall time at 100 %% efficiency)%s\n",
               ranks, ranks > 1 ? "s" : "", hi_s / 3600 / ranks,
               slices > 1 ? fmt::format(" in {:.0f} slices of {:.0f} ranks (--slice i/{:.0f}, "
                                        "then `faultsweep merge`)",
                                        slices, std::ceil(ranks / slices), slices)
                                .c_str()
                          : "");
  std::fprintf(out,
               "             one coordinator keeps up to %.0f ranks above 90 %% efficiency with "
               "%.3g s tasks (%.1f us of coordinator time per task)\n",
               per_coordinator, mean_task, kCoordinatorSecondsPerTask * 1e6);
  return 0;
}

}  // namespace faultsweep::sweep
