#pragma once
// Which replicas each point needs. A fixed count is one round. A stopping rule runs `min`
// replicas everywhere, then, round after round, adds replicas to the points whose 95 % CI
// half-width is still above the target, until it is met or `max` is reached. Each decision uses
// only the finished results of earlier rounds, so it is the same on any number of ranks and
// after any interruption.
#include <cstdint>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

class RoundPlanner {
 public:
  explicit RoundPlanner(const JobSpec& job);
  // The tasks of the next round that are not done yet, most expensive first (ties by id).
  // Empty when the sweep is complete. Call again only after all returned tasks are done.
  std::vector<std::uint64_t> next_round(const ResultTable& table);
  int round() const { return round_; }
  // Tasks in all rounds so far (the progress line's total).
  std::size_t planned_tasks() const;

 private:
  bool grow_targets(const ResultTable& table);
  const JobSpec& job_;
  std::vector<int> target_;  // replicas wanted per point
  int round_ = -1;
};

}  // namespace faultsweep::sweep
