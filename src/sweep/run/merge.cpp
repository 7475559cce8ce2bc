// `faultsweep merge` (sweep/merge.hpp): the union of the done tasks of results files of one job,
// complete when the job's replica rule (rounds.hpp) asks for nothing more.
#include "faultsweep/sweep/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/store.hpp"
#include "faultsweep/sweep/warnings.hpp"

namespace faultsweep::sweep {

MergeOutcome merge_results(const std::filesystem::path& out,
                           const std::vector<std::filesystem::path>& inputs, bool overwrite) {
  if (inputs.empty()) throw InputError("merge: name at least one input file");
  std::vector<io::NamedInput> named;
  for (const auto& in : inputs)
    named.push_back({in, fmt::format("an input of this merge ({})", in.string())});
  io::check_output(out, {"OUT", kFileType}, overwrite, named);
  std::optional<JobSpec> job;
  std::optional<StoredResults> first;
  ResultTable merged;
  std::vector<std::string> source;   // which input gave each task, for messages
  std::vector<std::string> notices;  // the union of the inputs'
  TaskRecords records;               // each task's once
  for (const auto& in : inputs) {
    StoredResults s = read_results(in);
    add_new(notices, notices_of(s.warnings));
    records.merge(s.records);  // keeps the first input's records of a task
    if (!job) {
      try {
        job = parse_job(s.job_text, s.job_file_name);
      } catch (const InputError& e) {
        throw InputError(fmt::format(
            "{}: cannot re-read the job stored in the file ({}); run merge from the folder the "
            "sweep ran in",
            in.string(), e.what()));
      }
      merged = ResultTable(job->points.size(), static_cast<std::size_t>(job->replicas.max),
                           job->metric_count());
      source.assign(merged.tasks(), "");
      first = s;
    } else if (s.results_version != first->results_version) {
      throw InputError(fmt::format(
          "cannot merge {} (results_version {}) with {} (results_version {}): their values come "
          "from faultsweep builds whose results differ; rerun one of them with the other's build",
          in.string(), s.results_version, inputs.front().string(), first->results_version));
    }
    if (s.job_text != first->job_text) {
      // Different text: the same job if only comments or layout differ.
      const auto diffs = job_differences(*job, parse_job(s.job_text, s.job_file_name));
      if (!diffs.empty()) {
        std::string msg = fmt::format(
            "cannot merge {} with {}: they come from different jobs (job_file_sha256 {} vs "
            "{}):",
            in.string(), inputs.front().string(), s.job_sha256.substr(0, 12),
            first->job_sha256.substr(0, 12));
        for (const auto& d : diffs) msg += "\n  " + d;
        throw InputError(msg);
      }
    }
    if (s.table.points != merged.points || s.table.replicas_max != merged.replicas_max ||
        s.metrics.size() != merged.metrics)
      throw InputError(
          fmt::format("cannot merge {}: its results have another shape ({} x {} x {}, "
                      "expected {} x {} x {})",
                      in.string(), s.table.points, s.table.replicas_max, s.metrics.size(),
                      merged.points, merged.replicas_max, merged.metrics));
    for (std::size_t t = 0; t < merged.tasks(); ++t) {
      if (!s.table.done[t]) continue;
      if (merged.done[t]) {
        for (std::size_t m = 0; m < merged.metrics; ++m) {
          const double a = merged.value(m, t), b = s.table.value(m, t);
          if (std::memcmp(&a, &b, sizeof a) != 0)
            throw InputError(fmt::format(
                "cannot merge: task {} (point {}, replica {}) differs between {} and {}: {} = "
                "{:.17g} vs {:.17g} (a task's result is a pure function of the job; were the files "
                "made by different faultsweep builds?)",
                t, t / merged.replicas_max, t % merged.replicas_max, source[t], in.string(),
                s.metrics[m], a, b));
        }
        continue;
      }
      merged.done[t] = 1;
      for (std::size_t m = 0; m < merged.metrics; ++m) merged.value(m, t) = s.table.value(m, t);
      source[t] = in.string();
    }
  }
  MergeOutcome r;
  r.tasks_done = merged.done_count();
  // Complete when the replica rules ask for nothing more (a fixed count: every task done).
  RoundPlanner planner(*job);
  r.complete = planner.next_round(merged).empty();
  r.tasks_total = std::max(r.tasks_done, planner.planned_tasks());
  // The merged values are the inputs' own: the file keeps their results version.
  write_results(out, *job, merged, r.complete, "", &first->inputs, notices, &records,
                first->results_version);
  return r;
}

}  // namespace faultsweep::sweep
