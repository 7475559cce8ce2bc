#pragma once
// Which replicas each point needs. A fixed count is one round. A stopping rule runs `min`
// replicas everywhere, then, round after round, adds replicas to the points whose 95 % CI
// half-width is still above the target, until it is met or `max` is reached. Each decision uses
// only the finished results of earlier rounds, so it is the same on any number of ranks and
// after any interruption.
#include <cstdint>
#include <string>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

// Slice i of n of a job (`--slice i/n`), for splitting one sweep over independent runs (Slurm
// job arrays) whose files `faultsweep merge` combines. Task ids stay global (p * R + r).
struct Slice {
  int index = 0;
  int count = 1;
  bool whole() const { return count == 1; }
  std::string text() const;  // "i/n"
};
// Parses "i/n" with 0 <= i < n; throws InputError naming --slice.
Slice parse_slice(const std::string& text);

// The tasks of slice s (mask over all task ids). A fixed replica count deals the tasks out
// round-robin in order of cost (most expensive first, ties by id), so that every slice gets a
// similar share of cheap and expensive work. A stopping rule deals out whole points the same
// way: the rule decides each point's replicas from that point's own results only, so a point
// whose replicas all live in one slice gets exactly the replicas it gets in a single run, and
// the merged file equals the single run's.
std::vector<char> slice_tasks(const JobSpec& job, const Slice& s);

// Work a batch may hold, in cost units, for guided self-scheduling over `slots` workers: a quarter
// of a fair share of the `pending_cost` left (few messages for tiny tasks), but no more than about
// kBatchSeconds of work at the speed measured so far (`seconds_per_cost`), and 0 (one task) while
// no speed is known. Long tasks thus go out one at a time: a batch of several long tasks, whose
// costs the model's estimate may rank wrongly, once kept one rank busy for most of a sweep while
// the other had nothing left to do. Only the order and grouping of tasks change, never a result.
inline constexpr double kBatchSeconds = 1.0;
double batch_cost_limit(double pending_cost, int slots, double seconds_per_cost);

class RoundPlanner {
 public:
  explicit RoundPlanner(const JobSpec& job);
  // Plans only the tasks where mask[task] != 0 (a slice); empty: all tasks.
  RoundPlanner(const JobSpec& job, std::vector<char> mask);
  // The tasks of the next round that are not done yet, most expensive first (ties by id).
  // Empty when the sweep is complete. Call again only after all returned tasks are done.
  std::vector<std::uint64_t> next_round(const ResultTable& table);
  int round() const { return round_; }
  // Tasks in all rounds so far (the progress line's total).
  std::size_t planned_tasks() const;

 private:
  bool grow_targets(const ResultTable& table);
  const JobSpec& job_;
  std::vector<char> mask_;   // empty: every task
  std::vector<int> target_;  // replicas wanted per point
  int round_ = -1;
};

}  // namespace faultsweep::sweep
