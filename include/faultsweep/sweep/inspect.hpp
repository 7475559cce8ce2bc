#pragma once
#include <cstdio>
#include <string>

namespace faultsweep::sweep {

// Prints what a results file holds; returns an exit code. Throws IoError for unreadable files.
int inspect_file(const std::string& path, std::FILE* out);
// The same for what an unfinished run leaves (src/sweep/store/inspect_journal.cpp): false if
// `path` is neither its journal nor its records side journal; else prints what a resume would
// find there and sets *code. A missing results file whose journal is beside it throws an IoError
// that names the journal.
bool inspect_journal(const std::string& path, std::FILE* out, int* code);

// `faultsweep plan` (src/sweep/run/plan.cpp): points, tasks and replicas of a job, its CPU time
// (core-seconds, every task's run time added up) estimated from a pilot of `pilot_tasks` tasks run
// on this process (spread over the range of the model's cost estimate, scaled to the whole job by
// cost), the wall time on `ranks` ranks and on other counts, and a suggested number of ranks and
// slices. The pilot stops after about `pilot_seconds`: a task cut short is extrapolated from how
// far it got (the cluster model reports the share of its jobs done), so a job of any size is
// planned within seconds. Returns an exit code; throws InputError for a bad job.
struct PlanOptions {
  int pilot_tasks = 8;
  int ranks = 1;
  double pilot_seconds = 5;
};
int plan_job(const std::string& path, const PlanOptions& options, std::FILE* out);

// Coordinator time per task, rounded up from the project machine's measurements (bench/README.md:
// bench_sweep 6.5-8.6 us per zero-work task end to end; bench_coordinator 1.3-3.4 us per message,
// and a sweep's tail sends one message per task). A rule of thumb, conservative against
// bench_coordinator's model: one coordinator keeps N ranks above 90 % efficiency while
// N * this <= 0.1 * the mean task time.
inline constexpr double kCoordinatorSecondsPerTask = 5e-6;

}  // namespace faultsweep::sweep
