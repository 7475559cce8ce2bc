#include "faultsweep/sweep/runner.hpp"

#include <fmt/format.h>

#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/core/stop.hpp"
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
#include "load_on_ranks.hpp"
#include "resume.hpp"

namespace faultsweep::sweep {
namespace fs = std::filesystem;
namespace mpi = boost::mpi;
using detail::journal_busy;
using detail::open_for_resume;

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

int stopped_before_start() {
  // Said once, by the first rank (mpirun's and srun's variables; none: one rank).
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank == nullptr) rank = std::getenv("PMI_RANK");
  if (rank == nullptr) rank = std::getenv("SLURM_PROCID");
  if (rank == nullptr || std::string_view(rank) == "0")
    std::fprintf(stderr,
                 "faultsweep: interrupted by signal %d before the run started: nothing was run "
                 "or written (exit code %d)\n",
                 stop_signal(), kExitInterrupted);
  return kExitInterrupted;
}

int run_on_ranks(const RunOptions& opt, mpi::communicator& world) {
  const bool root = world.rank() == 0;

  std::optional<JobSpec> job;
  if (const int code = load_on_ranks(opt, world, job); code != 0) return code;

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
      if (job->record.what != 0 && plan.exit_code < 0) {
        records.emplace(open_record_output(*job, out, !opt.resume, std::move(file_records), table));
        const std::string said = describe_record_output(*records, records_journal_path(out));
        if (!said.empty()) say(said);
      }
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
  // A stop before MPI starts: there is nothing to save, and MPI_Init waits for every rank (a
  // second or more on a loaded machine). Under mpirun the other ranks, held in MPI_Init
  // until this one joins, are ended by mpirun, which exits 75 with this rank.
  if (stop_pending()) return stopped_before_start();
  // Started without mpirun or srun (one rank), Open MPI 4 forks a helper daemon and waits for
  // it in MPI_Init: 0.4 to 5 s beside other MPI runs on a loaded machine, at times over 20 s.
  // A sweep never spawns processes, so that rank runs on its own, in 0.2-0.5 s. Open MPI reads
  // this only when there is no launcher; other MPIs ignore it, and a value already set wins.
  ::setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
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
