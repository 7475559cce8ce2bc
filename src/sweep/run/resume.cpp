#include "resume.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace faultsweep::sweep::detail {
namespace fs = std::filesystem;
namespace {

void say(const std::string& msg) {
  std::fprintf(stderr, "faultsweep: %s\n", msg.c_str());
}

}  // namespace

InputError journal_busy(const fs::path& journal_path) {
  return InputError(fmt::format(
      "another run holds {} (a live faultsweep run is writing it); wait for it to finish, stop "
      "it, or choose another output with --out",
      journal_path.string()));
}

std::optional<Journal> open_for_resume(const JobSpec& job, const fs::path& out,
                                       const fs::path& journal_path, const std::string& slice,
                                       ResultTable& table, bool* already_complete,
                                       TaskRecords* file_records) {
  const auto refuse_if_changed = [&](const std::string& old_text, const std::string& old_file,
                                     const std::string& source) {
    if (old_text == job.text) return;
    const JobSpec before = parse_job(old_text, old_file);
    const auto diffs = job_differences(before, job);
    if (diffs.empty()) return;  // comments or formatting only
    std::string msg = fmt::format(
        "{}: cannot resume: the job's parameters changed since {} was written:", job.file, source);
    for (const auto& d : diffs) msg += "\n  " + d;
    msg += "\nrun the original job file, or start a new sweep with another output (--out)";
    throw InputError(msg);
  };
  const auto refuse_if_other_slice = [&](const std::string& old_slice, const std::string& source) {
    if (old_slice == slice) return;
    throw InputError(fmt::format(
        "{}: cannot resume {}: it holds {}, and this run is {}; resume with {}, or combine "
        "slices with `faultsweep merge`",
        job.file, source, old_slice.empty() ? "a whole sweep" : "slice " + old_slice,
        slice.empty() ? "the whole sweep" : "slice " + slice,
        old_slice.empty() ? "no --slice" : "--slice " + old_slice));
  };
  const auto refuse_if_other_version = [&](std::int64_t old_version, const std::string& source) {
    if (old_version == kResultsVersion) return;
    throw InputError(fmt::format(
        "{}: cannot resume {}: it holds results of results_version {}, and this faultsweep "
        "computes results_version {}; finish it with a build of version {}, or rerun with "
        "--overwrite",
        job.file, source, old_version, kResultsVersion, old_version));
  };
  const std::size_t M = job.metric_count();
  std::error_code ec;
  if (fs::exists(journal_path, ec)) {
    if (Journal::locked_by_other(journal_path)) throw journal_busy(journal_path);
    // Refuse before Journal::resume cuts the torn tail: a refused resume changes nothing.
    const JournalContents before = read_journal(journal_path);
    refuse_if_changed(before.job_text, before.job_file, journal_path.string());
    refuse_if_other_slice(before.slice, journal_path.string());
    refuse_if_other_version(before.results_version, journal_path.string());
    if (before.metric_count != M)
      throw IoError(
          fmt::format("{}: the journal holds {} metrics per task, but model {} has {}: "
                      "it was written by another faultsweep build; move it away to "
                      "start over",
                      journal_path.string(), before.metric_count, job.model->name(), M));
    JournalContents c;
    Journal journal = Journal::resume(journal_path, &c);
    FS_CHECK(c.metric_count == M, "the journal changed while it was being opened");
    for (std::size_t i = 0; i < c.tasks.size(); ++i) {
      const std::uint64_t t = c.tasks[i];
      if (t >= table.tasks()) continue;
      table.done[t] = 1;
      for (std::size_t m = 0; m < M; ++m) table.value(m, t) = c.values[i * M + m];
    }
    say(fmt::format(
        "resuming from {}: {} finished tasks{}{}", journal_path.string(), table.done_count(),
        c.dropped_bytes ? fmt::format(" ({} bytes of a torn last record dropped)", c.dropped_bytes)
                        : "",
        c.damaged_records
            ? fmt::format("; {} damaged record{} ({} bytes, CRC mismatch) skipped: their tasks run "
                          "again",
                          c.damaged_records, c.damaged_records > 1 ? "s" : "", c.damaged_bytes)
            : ""));
    return journal;
  }
  if (fs::exists(out, ec)) {
    StoredResults s = read_results(out);
    refuse_if_changed(s.job_text, s.job_file_name, out.string());
    refuse_if_other_slice(s.slice, out.string());
    if (s.table.points != table.points || s.table.replicas_max != table.replicas_max ||
        s.metrics.size() != M)
      throw InputError(
          fmt::format("{}: cannot resume: {} has a different shape", job.file, out.string()));
    if (s.complete) {
      *already_complete = true;
      return std::nullopt;
    }
    refuse_if_other_version(s.results_version, out.string());
    table = s.table;
    *file_records = std::move(s.records);
    Journal j =
        Journal::create(journal_path, job.file, job.text, static_cast<std::uint32_t>(M), slice);
    std::vector<double> v(M);
    for (std::size_t t = 0; t < table.tasks(); ++t)
      if (table.done[t]) {
        for (std::size_t m = 0; m < M; ++m) v[m] = table.value(m, t);
        j.append(t, v.data());
      }
    j.sync();
    say(fmt::format("resuming from the partial file {}: {} finished tasks", out.string(),
                    table.done_count()));
    return j;
  }
  say(fmt::format("--resume: nothing to resume at {}; starting the sweep", out.string()));
  return Journal::create(journal_path, job.file, job.text, static_cast<std::uint32_t>(M), slice);
}

}  // namespace faultsweep::sweep::detail
