#include "faultsweep/sweep/rounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "faultsweep/core/error.hpp"

#include "faultsweep/sweep/stats.hpp"

namespace faultsweep::sweep {

std::string Slice::text() const {
  return fmt::format("{}/{}", index, count);
}

Slice parse_slice(const std::string& text) {
  Slice s;
  const auto slash = text.find('/');
  const auto number = [&](std::size_t from, std::size_t to, int* v) {
    const char* b = text.data() + from;
    const char* e = text.data() + to;
    const auto r = std::from_chars(b, e, *v);
    return from < to && r.ec == std::errc() && r.ptr == e;
  };
  if (slash == std::string::npos || !number(0, slash, &s.index) ||
      !number(slash + 1, text.size(), &s.count) || s.count < 1 || s.index < 0 || s.index >= s.count)
    throw InputError("--slice", text,
                     "expected i/n with 0 <= i < n <= 2147483647, e.g. 0/4 for the first of "
                     "four slices");
  return s;
}

std::vector<char> slice_tasks(const JobSpec& job, const Slice& s) {
  const std::size_t P = job.points.size(), R = static_cast<std::size_t>(job.replicas.max);
  std::vector<char> mask(P * R, 0);
  const bool by_point = job.replicas.adaptive();
  std::vector<std::uint64_t> order(by_point ? P : P * R);
  std::iota(order.begin(), order.end(), 0);
  const auto cost = [&](std::uint64_t u) { return job.costs[by_point ? u : u / R]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint64_t a, std::uint64_t b) { return cost(a) > cost(b); });
  const auto n = static_cast<std::size_t>(s.count), i = static_cast<std::size_t>(s.index);
  for (std::size_t k = i; k < order.size(); k += n) {
    if (!by_point) {
      mask[order[k]] = 1;
      continue;
    }
    for (std::size_t r = 0; r < R; ++r) mask[order[k] * R + r] = 1;
  }
  return mask;
}

double batch_cost_limit(double pending_cost, int slots, double seconds_per_cost) {
  if (!(seconds_per_cost > 0) || !std::isfinite(seconds_per_cost)) return 0;
  const double share = pending_cost / (4.0 * std::max(slots, 1));
  return std::min(share, kBatchSeconds / seconds_per_cost);
}

RoundPlanner::RoundPlanner(const JobSpec& job) : job_(job) {}
RoundPlanner::RoundPlanner(const JobSpec& job, std::vector<char> mask)
    : job_(job), mask_(std::move(mask)) {}

std::size_t RoundPlanner::planned_tasks() const {
  const std::size_t R = static_cast<std::size_t>(job_.replicas.max);
  std::size_t n = 0;
  for (std::size_t p = 0; p < target_.size(); ++p)
    for (std::size_t r = 0; r < static_cast<std::size_t>(target_[p]); ++r)
      n += mask_.empty() || mask_[p * R + r];
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
        if (!table.done[p * R + r] && (mask_.empty() || mask_[p * R + r]))
          tasks.push_back(p * R + r);
    if (tasks.empty()) continue;  // finished before an interruption: decide the next round
    std::stable_sort(tasks.begin(), tasks.end(), [&](std::uint64_t a, std::uint64_t b) {
      return job_.costs[a / R] > job_.costs[b / R];
    });
    return tasks;
  }
}

}  // namespace faultsweep::sweep
