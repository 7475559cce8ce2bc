#include "faultsweep/sweep/runner.hpp"

#include <fmt/format.h>

#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/sweep/coordinator.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/progress.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/signals.hpp"
#include "faultsweep/sweep/stop_marker.hpp"
#include "faultsweep/sweep/store.hpp"
#include "faultsweep/sweep/warnings.hpp"

namespace faultsweep::sweep {
namespace fs = std::filesystem;
namespace mpi = boost::mpi;

namespace {

void say(const std::string& msg) {
  std::fprintf(stderr, "faultsweep: %s\n", msg.c_str());
}

// What rank 0 decided before any task runs; broadcast to all ranks.
struct Plan {
  int exit_code = -1;  // >= 0: stop now with this code
  template <class Ar>
  void serialize(Ar& ar, unsigned) {
    ar& exit_code;
  }
};

InputError journal_busy(const fs::path& journal_path) {
  return InputError(fmt::format(
      "another run holds {} (a live faultsweep run is writing it); wait for it to finish, stop "
      "it, or choose another output with --out",
      journal_path.string()));
}

// Fills `table` from a journal or a partial results file and opens the journal to append to.
// Refuses (InputError) when the job changed since, and says what changed.
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
  const std::size_t M = job.metric_count();
  std::error_code ec;
  if (fs::exists(journal_path, ec)) {
    if (Journal::locked_by_other(journal_path)) throw journal_busy(journal_path);
    // Refuse before Journal::resume cuts the torn tail: a refused resume changes nothing.
    const JournalContents before = read_journal(journal_path);
    refuse_if_changed(before.job_text, before.job_file, journal_path.string());
    refuse_if_other_slice(before.slice, journal_path.string());
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

// Rank 0's checks on the output before anything runs. A slice without --out writes
// OUTPUT.slice-i-of-n.h5 next to the job's output.
fs::path output_path(const JobSpec& job, const RunOptions& opt, const Slice& slice) {
  const bool from_cli = !opt.out.empty();
  fs::path out = from_cli ? fs::path(opt.out) : fs::path(job.output);
  if (!from_cli && !slice.whole())
    out.replace_filename(fmt::format("{}.slice-{}-of-{}{}", out.stem().string(), slice.index,
                                     slice.count, out.extension().string()));
  const auto bad = [&](const std::string& why) -> InputError {
    if (from_cli) return InputError("--out", opt.out, why);
    return InputError("sweep.output", "\"" + job.output + "\"", why)
        .located(job.file, job.output_line);
  };
  // OUT.journal and OUT.tmp.<pid> must fit the file system's name limit (255 bytes) too.
  const std::size_t name_max = 255 - std::string(".tmp.4294967295").size();
  if (out.filename().string().size() > name_max)
    throw bad(
        fmt::format("a file name of {} bytes; at most {} (room is left for the "
                    ".journal and .tmp.<pid> files next to it)",
                    out.filename().string().size(), name_max));
  if (out.string().size() > 4000) throw bad("the path is longer than 4000 bytes");
  fs::path dir = out.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw bad(fmt::format("the folder {} does not exist (create it first)", dir.string()));
  const fs::file_status st = fs::status(out, ec);
  if (fs::is_directory(st)) throw bad("is a folder; expected a file name such as x.h5");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw bad("exists and is not a regular file (a device, FIFO or socket); name a new file");
  return out;
}

// --overwrite may replace an old results file, never the job file or an input of the job.
void check_run_output(const JobSpec& job, const fs::path& out, const std::vector<fs::path>& inputs,
                      bool overwrite) {
  std::vector<io::NamedInput> named{{job.file, "the job file itself"}};
  for (const fs::path& in : inputs)
    named.push_back({in, fmt::format("an input file of the job ({})", in.string())});
  io::check_output(
      out, {"--out", kFileType, "pass --resume to continue it or --overwrite to replace it"},
      overwrite, named);
}

int run_on_ranks(const RunOptions& opt, mpi::communicator& world) {
  const bool root = world.rank() == 0;

  // Rank 0 reads the job file; every rank parses the same text (so all see the same points).
  std::string text, error;
  if (root) {
    try {
      text = load_job(opt.job_path).text;
    } catch (const Error& e) {
      error = e.what();
    }
  }
  mpi::broadcast(world, text, 0);
  mpi::broadcast(world, error, 0);
  if (!error.empty()) {
    if (root) std::fprintf(stderr, "faultsweep: error: %s\n", error.c_str());
    return kExitInput;
  }
  std::optional<JobSpec> job;
  try {
    // Rank 0 says what the inputs' readers dropped; the others would repeat it (core/notice.hpp).
    const MutedNotices quiet(!root);
    job = parse_job(text, opt.job_path);
  } catch (const InputError& e) {
    if (root) std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    return kExitInput;
  }

  Slice slice;
  if (!opt.slice.empty()) {
    try {
      slice = parse_slice(opt.slice);
    } catch (const InputError& e) {
      if (root) std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
      return kExitInput;
    }
  }
  const std::string slice_text = slice.whole() ? "" : slice.text();

  const std::size_t R = static_cast<std::size_t>(job->replicas.max);
  ResultTable table(job->points.size(), R, job->metric_count());
  Plan plan;
  fs::path out, journal_path;
  std::optional<Journal> journal;
  std::optional<RecordOutput> records;
  std::vector<fs::path> input_paths;
  std::vector<InputFile> inputs;  // provenance, described before the run reads them
  if (root) {
    try {
      input_paths = job_input_paths(*job);
      inputs = describe_inputs(input_paths);
      attach_readings(*job, inputs);
      out = output_path(*job, opt, slice);
      journal_path = out.string() + ".journal";
      bool already_complete = false;
      TaskRecords file_records;
      if (opt.resume) {
        journal = open_for_resume(*job, out, journal_path, slice_text, table, &already_complete,
                                  &file_records);
        if (already_complete) {
          say(fmt::format("{} is already complete; nothing to do", out.string()));
          plan.exit_code = kExitOk;
        }
      } else {
        std::error_code ec;
        const bool has_journal = fs::exists(journal_path, ec);
        if (has_journal && Journal::locked_by_other(journal_path)) throw journal_busy(journal_path);
        if (has_journal && !opt.overwrite)
          throw InputError(fmt::format(
              "{}: a journal of an interrupted run exists; continue it with --resume, or pass "
              "--overwrite to start over",
              journal_path.string()));
        check_run_output(*job, out, input_paths, opt.overwrite);
        if (opt.overwrite) fs::remove(journal_path, ec);
        journal = Journal::create(journal_path, job->file, job->text,
                                  static_cast<std::uint32_t>(job->metric_count()), slice_text);
      }
      remove_stop_marker(out);  // an earlier run's: this one holds the journal, and no stop yet
      if (job->record.what != 0 && plan.exit_code < 0)
        records.emplace(open_record_output(*job, out, !opt.resume, std::move(file_records), table));
    } catch (const InputError& e) {
      std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
      plan.exit_code = kExitInput;
    } catch (const Error& e) {
      std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
      plan.exit_code = kExitIo;
    }
  }
  mpi::broadcast(world, plan, 0);
  if (plan.exit_code >= 0) return plan.exit_code;

  if (!root) {
    run_remote_worker(*job, world);
    int code = 0;
    mpi::broadcast(world, code, 0);
    return code;
  }

  if (!opt.quiet)
    say(fmt::format("{}: model {}, {} points x {} replicas{}{} on {} rank{}, output {}", job->file,
                    job->model->name(), job->points.size(), R,
                    job->replicas.adaptive() ? " at most" : "",
                    slice.whole() ? "" : fmt::format(", slice {}", slice_text), world.size(),
                    world.size() > 1 ? "s" : "", out.string()));
  const CoordinatorOutcome outcome =
      coordinate(*job, world, table, *journal, !opt.quiet,
                 slice.whole() ? std::vector<char>{} : slice_tasks(*job, slice),
                 records ? &*records : nullptr);
  if (outcome.status == CoordinatorOutcome::interrupted) write_stop_marker(out, stop_signal());
  int code = kExitOk;
  try {
    try {
      journal->sync();
    } catch (const IoError& e) {  // still write what finished into the results file
      std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
      code = kExitIo;
    }
    const bool complete = outcome.status == CoordinatorOutcome::complete;
    // A finished slice is still a partial file of the sweep: `merge` completes it.
    // Rank 0's notices: of loading the job, and of its own replicas.
    write_results(out, *job, table, complete && slice.whole(), slice_text, &inputs, said_notices(),
                  records ? &records->tasks : nullptr);
    for (const std::string& w : result_warnings({}, *job, table)) say(w);
    if (complete && code == kExitOk) {
      journal.reset();
      fs::remove(journal_path);
      if (records) records.reset(), fs::remove(records_journal_path(out));
      if (!opt.quiet)
        say(fmt::format("done: {} tasks in {}; wrote {}{}", table.done_count(),
                        format_elapsed(outcome.seconds), out.string(),
                        slice.whole() ? ""
                                      : fmt::format(" (slice {}: complete = 0 until merged with "
                                                    "the other slices by `faultsweep merge`)",
                                                    slice_text)));
    } else if (complete) {
      say(fmt::format("the {} tasks are saved in {}; the journal {} is kept", table.done_count(),
                      out.string(), journal_path.string()));
    } else if (outcome.status == CoordinatorOutcome::interrupted) {
      say(
          fmt::format("interrupted{}: {} of the tasks finished are saved in {} (marked "
                      "incomplete) and {}; rerun with --resume to finish (exit code {})",
                      stop_signal() ? fmt::format(" by signal {}", stop_signal()) : "",
                      table.done_count(), out.string(), journal_path.string(), kExitInterrupted));
      code = kExitInterrupted;
    } else {
      std::fprintf(stderr, "faultsweep: error: %s\n", outcome.error.c_str());
      say(fmt::format("the {} finished tasks are saved in {} (marked incomplete)",
                      table.done_count(), out.string()));
      code = outcome.status == CoordinatorOutcome::input_error ? kExitInput
             : outcome.status == CoordinatorOutcome::io_error  ? kExitIo
                                                               : kExitInternal;
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    code = kExitIo;
  }
  mpi::broadcast(world, code, 0);
  return code;
}

}  // namespace

void check_output(const JobSpec& job, const std::string& out) {
  RunOptions opt;
  opt.out = out;
  (void)output_path(job, opt, Slice{});
}

namespace {

int run_with_mpi(const RunOptions& opt) {
  mpi::environment env(mpi::threading::funneled);
  mpi::communicator world;
  install_stop_handlers();
  // No exception may leave this function while `env` lives: Boost.MPI would call MPI_Abort
  // (exit 255 with no message). Anything unforeseen ends here with a message and exit 3 or 4;
  // with other ranks waiting for us, MPI_Abort with that code is the only way to end them.
  int code = kExitInternal;
  try {
    return run_on_ranks(opt, world);
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    code = kExitIo;
  } catch (const IoError& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    code = kExitIo;
  } catch (const InputError& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    code = kExitInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "faultsweep: internal error (a bug in faultsweep): %s\n", e.what());
  }
  if (world.size() > 1) world.abort(code);
  return code;
}

}  // namespace

int run_sweep(const RunOptions& opt) {
  const int code = run_with_mpi(opt);
  // MPI_Finalize (the environment's end) may put back the signal dispositions MPI found; a stop
  // signal in the last instants (mpirun ending the other ranks after one exits 75) must still
  // be caught, not kill the process.
  install_stop_handlers();
  return code;
}

}  // namespace faultsweep::sweep
