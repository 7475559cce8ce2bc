#include "faultsweep/sweep/rounds.hpp"

#include <algorithm>
#include <cmath>

#include "faultsweep/sweep/stats.hpp"

namespace faultsweep::sweep {

RoundPlanner::RoundPlanner(const JobSpec& job) : job_(job) {}

std::size_t RoundPlanner::planned_tasks() const {
  std::size_t n = 0;
  for (int t : target_) n += static_cast<std::size_t>(t);
  return n;
}

bool RoundPlanner::grow_targets(const ResultTable& table) {
  const ReplicaRule& rule = job_.replicas;
  if (!rule.adaptive()) return false;
  const int m = job_.metric_index(rule.metric);
  const std::size_t R = table.replicas_max;
  bool grew = false;
  for (std::size_t p = 0; p < target_.size(); ++p) {
    const int n = target_[p];
    if (n >= rule.max) continue;
    const std::size_t first = p * R;
    const Summary s =
        summarize(table.values.data() + static_cast<std::size_t>(m) * table.tasks() + first,
                  table.done.data() + first, static_cast<std::size_t>(n), false);
    if (!std::isfinite(s.mean) || !std::isfinite(s.ci95_hi)) continue;  // cannot converge
    const double half = 0.5 * (s.ci95_hi - s.ci95_lo);
    const double goal = rule.ci95 > 0 ? rule.ci95 : rule.rel_ci95 * std::fabs(s.mean);
    if (half <= goal) continue;
    // The half-width shrinks like 1/sqrt(n): aim 20 % past the estimate, at most doubling.
    const double want = goal > 0 ? 1.2 * n * (half / goal) * (half / goal) : 2.0 * n;
    const int next =
        std::min({rule.max, 2 * n, std::max(n + 1, static_cast<int>(std::ceil(want)))});
    target_[p] = next;
    grew = true;
  }
  return grew;
}

std::vector<std::uint64_t> RoundPlanner::next_round(const ResultTable& table) {
  const std::size_t R = table.replicas_max;
  for (;;) {
    bool changed;
    if (round_ < 0) {
      target_.assign(job_.points.size(), job_.replicas.min);
      changed = true;
    } else {
      changed = grow_targets(table);
    }
    ++round_;
    if (!changed) return {};
    std::vector<std::uint64_t> tasks;
    for (std::size_t p = 0; p < target_.size(); ++p)
      for (std::size_t r = 0; r < static_cast<std::size_t>(target_[p]); ++r)
        if (!table.done[p * R + r]) tasks.push_back(p * R + r);
    if (tasks.empty()) continue;  // finished before an interruption: decide the next round
    std::stable_sort(tasks.begin(), tasks.end(), [&](std::uint64_t a, std::uint64_t b) {
      return job_.costs[a / R] > job_.costs[b / R];
    });
    return tasks;
  }
}

}  // namespace faultsweep::sweep
