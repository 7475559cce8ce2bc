// The faultsweep command line: parses arguments, calls the library, maps errors to exit codes.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/build_info.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/install_dirs.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/models/reference.hpp"
#include "faultsweep/models/registry.hpp"
#include "faultsweep/sweep/export.hpp"
#include "faultsweep/sweep/inspect.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/merge.hpp"
#include "faultsweep/sweep/runner.hpp"
#include "faultsweep/sweep/signals.hpp"
#include "faultsweep/sweep/store.hpp"

namespace fs = faultsweep;
namespace sw = faultsweep::sweep;

// The stop handlers, installed before any shared library initialises (the executable's pre-init
// array runs first, right after the dynamic loader), then the stop signals unblocked: the
// `faultsweep` launcher (src/launcher/launcher.c) blocks them before it runs this binary, so a
// signal that came while the libraries were loading is pending now and reaches the handler.
// mpirun forwards SIGUSR1 to ranks that may still be starting; none of them dies of it.
extern "C" {
static void install_handlers_first(int, char**, char**) {
  faultsweep::sweep::install_stop_handlers();
  sigset_t stop;
  sigemptyset(&stop);
  for (const int sig : {SIGTERM, SIGINT, SIGUSR1}) sigaddset(&stop, sig);
  pthread_sigmask(SIG_UNBLOCK, &stop, nullptr);
}
[[gnu::section(".preinit_array"),
  gnu::used]] static void (*const kPreinit)(int, char**, char**) = install_handlers_first;
}

namespace {

const char* kExitCodes =
    "Exit codes: 0 complete; 2 bad input (job file, command line); 3 a file could not be read or "
    "written; 4 a bug or a failed model run; 75 interrupted by SIGTERM/SIGINT/SIGUSR1 (a partial "
    "file "
    "marked incomplete was written: rerun with --resume).";

// A check that an option's text is a whole number in [lo, hi], saying the range: CLI11's own
// checks print 1.79e308 as the bound of "positive" and clamp or wrap integers beyond the type
// (--seed 99999999999999999999, --seed -1) without a word.
template <class T>
CLI::Validator integer_in(T lo, T hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        T v{};
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && end == text.data() + text.size() && v >= lo && v <= hi) return "";
        return fmt::format("{} is not an integer in [{}, {}]", text, lo, hi);
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

// Standard output is written like any file: `inspect X > /dev/full`, a full disk or a closed
// descriptor must not pass for success. Flushes it and, if a write to it failed, says why (the
// system's reason) and turns a success into exit 3.
int stdout_written(int code) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  int err = errno;
  if (err == 0) {
    // An earlier write failed and its output was dropped: one more byte asks the system why
    // (the output is incomplete anyway).
    std::clearerr(stdout);
    if (std::fputc('\n', stdout) == EOF || std::fflush(stdout) != 0) err = errno;
  }
  std::fprintf(stderr, "faultsweep: error: cannot write the standard output: %s\n",
               err != 0 ? std::strerror(err) : "a write failed");
  return code == 0 ? sw::kExitIo : code;
}

int cmd_models(const std::string& name, bool markdown) {
  for (const auto* m : fs::models::all_models()) {
    if (!name.empty() && m->name() != name) continue;
    if (markdown) {
      std::fputs(fs::models::reference_markdown(*m).c_str(), stdout);
      continue;
    }
    std::fputs(fs::models::reference_text(*m).c_str(), stdout);
    std::printf("\n");
  }
  if (!name.empty() && !fs::models::find_model(name)) {
    std::fprintf(stderr, "faultsweep: error: unknown model \"%s\"\n", name.c_str());
    return sw::kExitInput;
  }
  return 0;
}

int cmd_check(const std::string& path, const std::string& out) {
  const sw::JobSpec job = sw::load_job(path);
  sw::check_output(job, out);
  std::size_t tasks = job.points.size() * static_cast<std::size_t>(job.replicas.max);
  double cost = 0;
  for (double c : job.costs) cost += c;
  std::printf(
      "%s: valid\n  model %s, seed %llu, output %s\n  %zu points x %s replicas = %s%zu tasks\n",
      path.c_str(), job.model->name().c_str(), static_cast<unsigned long long>(job.seed),
      job.output.c_str(), job.points.size(),
      job.replicas.adaptive() ? fmt::format("{}..{}", job.replicas.min, job.replicas.max).c_str()
                              : fmt::format("{}", job.replicas.max).c_str(),
      job.replicas.adaptive() ? "at most " : "", tasks);
  for (const auto& a : job.axes)
    for (const auto& m : a.members)
      std::printf("  axis %-16s %zu values (%s)%s\n", m.key.c_str(), m.values.size(),
                  m.units.c_str(),
                  a.members.size() > 1 ? fmt::format(" zipped in {}", a.name).c_str() : "");
  if (job.record.what != 0)
    std::printf(
        "  records    %.3g tasks x %.3g jobs: at least %.3g GB in memory until the "
        "results file is written, as much in the records journal\n",
        job.record.tasks, job.record.jobs_per_replica, job.record.bytes / 1e9);
  return 0;
}

int cmd_merge(const std::string& out, const std::vector<std::string>& inputs, bool overwrite) {
  const std::vector<std::filesystem::path> in(inputs.begin(), inputs.end());
  const auto r = sw::merge_results(out, in, overwrite);
  std::fprintf(stderr, "faultsweep: merged %zu file%s into %s: %zu of %zu tasks done, %s\n",
               in.size(), in.size() > 1 ? "s" : "", out.c_str(), r.tasks_done, r.tasks_total,
               r.complete ? "complete" : "INCOMPLETE (complete = 0: some slices are missing)");
  return sw::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  // The stop handlers are in place already (install_handlers_first, from the pre-init array).
  fs::keep_freed_memory();  // each replica reuses what the one before it freed
  CLI::App app{fmt::format(
      "faultsweep {} ({}): MPI-parallel parameter sweeps and replicated Monte Carlo runs of HPC "
      "failure and scheduling models, written to one self-describing HDF5 file.",
      fs::version(), fs::git_sha())};
  app.footer(kExitCodes);
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("faultsweep {} (git {}, {})", fs::version(),
                                                fs::git_sha(), fs::compiler()));

  bool verbose = false;
  app.add_flag("--verbose,-v", verbose,
               "details in error messages (HDF5's error stack); also FAULTSWEEP_VERBOSE=1");
  app.fallthrough();  // -v also after the subcommand: `faultsweep run job.toml -v`

  sw::RunOptions run_opt;
  auto* run = app.add_subcommand(
      "run",
      "Run a sweep from a job file. Under `mpirun -np N` rank 0 coordinates and all ranks compute; "
      "without mpirun it runs as one rank. Results stream into OUT.journal and end in OUT (HDF5), "
      "written atomically.");
  run->add_option("job", run_opt.job_path, "job file (TOML), e.g. jobs/quickstart.toml")
      ->required();
  run->add_option("--out,-o", run_opt.out, "output file (overrides sweep.output in the job)");
  run->add_flag("--resume", run_opt.resume,
                "continue an interrupted sweep from OUT.journal or a partial OUT; refuses if the "
                "job's parameters changed; starts afresh if there is nothing to resume");
  run->add_flag("--overwrite", run_opt.overwrite, "replace an existing OUT (and its journal)");
  run->add_flag("--quiet,-q", run_opt.quiet, "no progress line on stderr");
  run->add_option("--slice", run_opt.slice,
                  "i/n: run only slice i of n (0 <= i < n), e.g. one Slurm array task each; "
                  "writes a partial file (complete = 0, attribute slice = \"i/n\"; without "
                  "--out: OUTPUT.slice-i-of-n.h5) with its own journal and --resume; combine the "
                  "slices with `faultsweep merge`");
  run->footer(kExitCodes);

  std::string inspect_path;
  auto* inspect = app.add_subcommand(
      "inspect",
      "Say what a results file holds: model, points, axes, metrics, replicas done, "
      "complete or not. Given the journal an unfinished run left (OUT.journal, or its "
      "OUT.records.journal), say what a resume would find there and how to finish the run.");
  inspect->add_option("file", inspect_path, "results file (.h5), or a run's journal")->required();

  std::string model_name;
  auto* models = app.add_subcommand("models", "List the models with their parameters and metrics.");
  models->add_option("name", model_name, "only this model");
  bool models_markdown = false;
  models->add_flag("--markdown", models_markdown,
                   "print the job-file reference as Markdown (docs/reference/<model>.md is this "
                   "output)");

  std::string merge_out;
  std::vector<std::string> merge_in;
  bool merge_overwrite = false;
  auto* merge = app.add_subcommand(
      "merge",
      "Combine results files of one job (slices, partial files) into OUT: the union of their "
      "finished tasks, summaries recomputed, complete = 1 when nothing is left to run. Refuses "
      "files of different jobs and tasks whose values disagree. Run it from the folder the "
      "sweep ran in.");
  merge->add_option("out", merge_out, "merged results file (written atomically)")->required();
  merge->add_option("inputs", merge_in, "results files to combine")->required();
  merge->add_flag("--overwrite", merge_overwrite, "replace an existing OUT");

  sw::ExportOptions export_opt;
  auto* exp = app.add_subcommand(
      "export",
      "Write a recorded schedule (job file key sweep.record) as SWF with the simulated wait and "
      "run times, or as Batsim's jobs.csv (for evalys).");
  exp->add_option("file", export_opt.file, "results file (.h5)")->required();
  exp->add_option("--point", export_opt.point, "point index")->required();
  exp->add_option("--replica", export_opt.replica, "replica index")->required();
  exp->add_option("--format", export_opt.format, "swf or batsim-csv")->required();
  exp->add_option("--out,-o", export_opt.out, "output file (a new one; default: standard output)");

  std::string plan_path;
  sw::PlanOptions plan_opt;
  auto* plan = app.add_subcommand(
      "plan",
      "Estimate a job's cost: points, tasks, replicas, CPU time (core-seconds) from a short pilot "
      "run on this process, wall time on --ranks ranks and on other counts, and a suggested "
      "number of ranks and slices.");
  plan->add_option("job", plan_path, "job file (TOML)")->required();
  plan->add_option("--pilot-tasks", plan_opt.pilot_tasks,
                   "tasks to time, spread over the model's cost range (0: no pilot; at most "
                   "1000000, and never more than the job's tasks)")
      ->check(CLI::Range(0, 1000000));
  plan->add_option("--ranks", plan_opt.ranks,
                   "MPI ranks the wall time is estimated for (default 1)")
      ->check(CLI::Range(1, 1 << 24));
  plan->add_option("--pilot-seconds", plan_opt.pilot_seconds,
                   "time the pilot may take (default 5): longer tasks are cut and extrapolated "
                   "from the share of their jobs done")
      ->check(CLI::Range(0.1, 86400.0));

  std::string check_path;
  auto* check = app.add_subcommand(
      "check",
      "Validate a job file without running it, as `run` would before it starts (parameters, "
      "inputs, memory, the output's folder): points, replicas, tasks, axes.");
  check->add_option("job", check_path, "job file (TOML)")->required();
  std::string check_out;
  check->add_option("--out,-o", check_out,
                    "the output `run --out` will write (default: sweep.output); its folder must "
                    "exist");

  std::string fit_log, fit_out, fit_format = "lanl";
  std::int64_t fit_system = -1;
  bool fit_overwrite = false;
  fs::reliability::FitLogOptions fit_opt;
  auto* fit = app.add_subcommand(
      "fit",
      "Failure analysis of a log (Gottumukkala Ch. 3): per-node TTF fits of four laws with K-S "
      "p-values, best law per node, systems of k nodes, correlations; one line per system on "
      "stdout, everything in --out (HDF5, filetype faultsweep-fit).");
  fit->add_option("log", fit_log,
                  "failure log (LANL LA-UR-05-7318 CSV by default; .xz read directly)")
      ->required();
  fit->add_option("--system", fit_system,
                  "only this system (lanl: System; fta: platform_id; default: all, each one a "
                  "system)")
      ->check(integer_in<std::int64_t>(0, std::numeric_limits<std::int64_t>::max()));
  fit->add_option("--format", fit_format,
                  "lanl (default), csv (time_s,node,downtime_s), fta (Failure Trace Archive "
                  "event_trace.tab), pnnl (PNNL MPP2 log) or slurm (sacctmgr show event "
                  "--parsable2, or its CSV)");
  std::string fit_pattern;
  fit->add_option("--node-prefix", fit_opt.node_prefix,
                  "fta: only nodes whose node_name starts with this (one machine of a file "
                  "holding several)");
  auto* pattern = fit->add_option(
      "--node-pattern", fit_pattern,
      "pnnl: the Hardware Identifiers that are nodes (whole, case-insensitive, RE2 syntax; "
      "default \"(node|n) *[0-9]+\")");
  fit->add_option("--reason", fit_opt.reason,
                  "slurm: only events whose Reason matches (RE2, case-insensitive)");
  fit->add_option("--exclude-reason", fit_opt.exclude_reason,
                  "slurm: not the events whose Reason matches (RE2, case-insensitive)");
  fit->add_option("--out,-o", fit_out, "output file (.h5), written atomically");
  fit->add_option("--min-ttfs", fit_opt.min_ttfs, "fit nodes with at least this many TTFs")
      ->check(integer_in(1, std::numeric_limits<int>::max()));
  fit->add_option("--seed", fit_opt.seed, "seed of the random node orders (Table 3.3)")
      ->check(integer_in<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()));
  fit->add_option("--threads", fit_opt.threads,
                  "threads for the per-node fits (default 0: one per hardware thread); the "
                  "results do not depend on it")
      ->check(integer_in(0u, 4096u));
  fit->add_flag("--stop-on-bad", fit_opt.stop_on_bad, "a bad log line is fatal (default: skip)");
  fit->add_flag("--overwrite", fit_overwrite, "replace an existing --out file");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    sw::release_stop_handlers();
    const int code = app.exit(e);
    return code == 0 ? stdout_written(0) : sw::kExitInput;
  }
  fs::io::set_verbose_errors(verbose);
  if (!*run) sw::release_stop_handlers();
  // A bundled job (jobs/quickstart.toml) is found beside an installed binary from any folder.
  for (std::string* job : {&run_opt.job_path, &check_path, &plan_path})
    *job = fs::bundled_path(*job);
  try {
    if (*run) return sw::run_sweep(run_opt);
    if (*inspect) return stdout_written(sw::inspect_file(inspect_path, stdout));
    if (*models) return stdout_written(cmd_models(model_name, models_markdown));
    if (*check) return stdout_written(cmd_check(check_path, check_out));
    if (*plan) return stdout_written(sw::plan_job(plan_path, plan_opt, stdout));
    if (*merge) return cmd_merge(merge_out, merge_in, merge_overwrite);
    if (*exp) return sw::export_schedule(export_opt);
    if (*fit) {
      if (fit_system >= 0) fit_opt.system = fit_system;
      if (*pattern) fit_opt.node_pattern = fit_pattern;
      fs::fit_command::run_fit(fit_log, fit_format, fit_out, fit_overwrite, fit_opt, stdout);
      return stdout_written(0);
    }
  } catch (const fs::InputError& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    return sw::kExitInput;
  } catch (const fs::InternalError& e) {
    std::fprintf(stderr, "faultsweep: %s\n", e.what());
    return sw::kExitInternal;
  } catch (const fs::Error& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    return sw::kExitIo;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "faultsweep: error: %s\n", e.what());
    return sw::kExitIo;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "faultsweep: error: out of memory (see docs/limits.md)\n");
    return sw::kExitIo;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "faultsweep: internal error (a bug in faultsweep): %s\n", e.what());
    return sw::kExitInternal;
  }
  return 0;
}
