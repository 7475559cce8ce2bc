#pragma once
// Job files (TOML): what to sweep. Parsed and validated once, where read; every error names
// file, line, key, value and what was expected. See docs/job-files.md.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/model.hpp"

namespace faultsweep::sweep {

// One swept parameter: its key ("a", "I", "failures.shape") and its values, already converted
// (durations in seconds).
struct AxisMember {
  std::string key;
  std::vector<Value> values;
  std::string units;  // "s" for durations, else the parameter's unit or "1"
  int line = 0;
};

// A grid dimension: one member, or several zipped members that vary together.
struct Axis {
  std::string name;  // the member's key, or the zip group's name
  std::vector<AxisMember> members;
  std::size_t size() const { return members.empty() ? 0 : members.front().values.size(); }
};

// How many replicas each point gets: a fixed count (min == max, no metric), or a stopping rule:
// add replicas until the 95 % CI half-width of `metric` is below `ci95` (absolute) or
// `rel_ci95` × |mean| (relative), between min and max.
struct ReplicaRule {
  int min = 1;
  int max = 1;
  std::string metric;
  double ci95 = 0;
  double rel_ci95 = 0;
  bool adaptive() const { return !metric.empty(); }
};

// Which tasks keep records (sim/records.hpp) and which tables: the [sweep] key
// record = { points = "all" | [indices], replicas = [indices], what = ["jobs", ...] }
// (defaults: every point, replica 0, every table). Records never change a task's results.
struct RecordSelection {
  unsigned what = 0;  // sim::RecordTable flags; 0: no records
  bool all_points = true;
  std::vector<std::uint64_t> points, replicas;  // sorted
  int line = 0;
  // Estimated at load time (record_estimate.cpp): recorded tasks, jobs of one recorded replica
  // (the mean over the recorded points) and the bytes the coordinator holds, a lower bound.
  double tasks = 0, jobs_per_replica = 0, bytes = 0;
  // The tables task (point, replica) records (0: none).
  unsigned for_task(std::uint64_t point, std::uint64_t replica) const;
  std::string text() const;  // canonical, for job_differences
};

struct JobSpec {
  std::string file;                // as given on the command line
  std::string text;                // full job file text
  std::filesystem::path base_dir;  // folder of the job file: relative paths start here
  const models::Model* model = nullptr;
  std::string description;
  std::uint64_t seed = 0;
  std::string output;   // as written in the job (relative to the current directory)
  int output_line = 0;  // where sweep.output is set (0: the default was used)
  ReplicaRule replicas;
  Params fixed;                // the same at every point (with defaults filled in)
  std::vector<Axis> axes;      // in file order; the first varies slowest
  std::vector<Params> points;  // the grid product, each validated by the model
  std::vector<double> costs;   // model->cost(point), for scheduling
  RecordSelection record;

  std::size_t metric_count() const { return model->metrics().size(); }
  int metric_index(const std::string& name) const;  // -1 if absent
};

// Size limits of a sweep, checked before any axis or point is built (docs/limits.md); besides
// these, the estimated memory must stay below half of the machine's.
inline constexpr std::uint64_t kMaxAxisValues = 10'000'000;  // values of one axis
inline constexpr std::uint64_t kMaxPoints = 10'000'000;      // points of the grid
inline constexpr std::uint64_t kMaxTasks = 1'000'000'000;    // points x replicas (max)

// Reads and validates a job file (a regular file of at most 4 MiB, UTF-8). Throws InputError
// (file:line: key = value: expected).
JobSpec load_job(const std::string& path);
// The same from text; `file` is used in messages and for base_dir. `max_points` lowers the
// point limit (the fuzz targets use it to stay small).
JobSpec parse_job(const std::string& text, const std::string& file,
                  std::uint64_t max_points = kMaxPoints);

// Differences between two jobs that matter for resume ("params.mttf: 4200 -> 4800"); empty if
// the jobs would compute the same tasks with the same results.
std::vector<std::string> job_differences(const JobSpec& before, const JobSpec& now);

// The nearest candidate by edit distance, or "" if none is close (for "did you mean").
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace faultsweep::sweep
