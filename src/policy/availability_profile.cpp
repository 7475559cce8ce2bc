#include "faultsweep/policy/availability_profile.hpp"

#include <algorithm>

namespace faultsweep::policy {

void AvailabilityProfile::reset(double t0_s, std::int32_t nodes) {
  time_s_.assign(1, t0_s);
  free_.assign(1, nodes);
}

// The last step from `first` on that starts at or before t (time_s_[first] <= t): a binary
// search without data-dependent branches, since its probes are as good as random to the
// branch predictor and a mispredicted probe costs more than the probe.
std::size_t AvailabilityProfile::step_of(double t_s, std::size_t first) const {
  const double* base = time_s_.data() + first;
  std::size_t n = time_s_.size() - first;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = base[half] <= t_s ? base + half : base;
    n -= half;
  }
  return static_cast<std::size_t>(base - time_s_.data());
}

// The index of the step that starts at t, splitting the step that holds t if needed.
std::size_t AvailabilityProfile::split_at(double t_s, std::size_t first) {
  const std::size_t k = step_of(t_s, first);
  if (time_s_[k] == t_s) return k;
  time_s_.insert(time_s_.begin() + static_cast<std::ptrdiff_t>(k + 1), t_s);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(k + 1), free_[k]);
  return k + 1;
}

// Branch-free: every step is copied, and kept only if its count differs from the last kept.
void AvailabilityProfile::forget_before(double t_s) {
  const std::size_t k = step_of(t_s, 0);
  time_s_[0] = t_s;
  free_[0] = free_[k];
  std::size_t out = 1;
  for (std::size_t m = k + 1; m < time_s_.size(); ++m) {
    time_s_[out] = time_s_[m];
    free_[out] = free_[m];
    out += static_cast<std::size_t>(free_[m] != free_[out - 1]);
  }
  time_s_.resize(out);
  free_.resize(out);
}

// The steps of the range are walked once, adding as they go; the end splits the last step
// walked (its count before the add) unless a breakpoint is there already.
void AvailabilityProfile::add(double begin_s, double end_s, std::int32_t nodes) {
  if (!(end_s > begin_s)) return;
  std::size_t m = split_at(begin_s, 0);
  const std::size_t n = time_s_.size();
  for (; m < n && time_s_[m] < end_s; ++m) free_[m] += nodes;
  if (m == n ? end_s == kNever : time_s_[m] == end_s) return;
  time_s_.insert(time_s_.begin() + static_cast<std::ptrdiff_t>(m), end_s);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(m), free_[m - 1] - nodes);
}

std::int32_t AvailabilityProfile::at(double t_s) const {
  return free_[step_of(t_s, 0)];
}

bool AvailabilityProfile::fits(double begin_s, double end_s, std::int32_t nodes) const {
  const std::size_t first = step_of(begin_s, 0);
  for (std::size_t m = first; m < time_s_.size(); ++m) {
    if (m > first && time_s_[m] >= end_s) break;
    if (free_[m] < nodes) return false;
  }
  return true;
}

double AvailabilityProfile::earliest(double from_s, std::int32_t nodes, double wall_s) const {
  return earliest_before(from_s, nodes, wall_s, kNever, kNever);
}

// One pass over the steps from from_s on, keeping the start of the run of steps with `nodes`
// free that the pass is in (infinity outside one). A step that starts where the run's job would
// end (the sum as written) or reach held_s, where the job's own slot takes over, ends the search
// with that run's start; outside a run, a step at or after starts_before_s ends it with none.
// One loop for both, not a scan to each run's start and another to its end: the profile often
// changes around the job's size from step to step (a search crosses ~11 runs of a few steps
// each on a busy machine), and a scan that stops after two or three steps costs more to set up
// than it saves.
double AvailabilityProfile::earliest_before(double from_s, std::int32_t nodes, double wall_s,
                                            double held_s, double starts_before_s) const {
  if (!(from_s < starts_before_s)) return kNever;
  const std::size_t n = time_s_.size();
  // From the profile's first step (the common case: a search from now) without a search.
  std::size_t m = n > 1 && time_s_[1] <= from_s ? step_of(from_s, 1) : 0;
  const double* t = time_s_.data();
  const std::int32_t* f = free_.data();
  double run_s = f[m] >= nodes ? from_s : kNever;
  for (std::size_t k = m + 1; k < n; ++k) {
    const double end_s = run_s == kNever ? starts_before_s : std::min(held_s, run_s + wall_s);
    if (t[k] >= end_s) return run_s;
    run_s = f[k] >= nodes ? std::min(run_s, t[k]) : kNever;  // a run keeps its start
  }
  return run_s;  // the last step lasts forever
}

}  // namespace faultsweep::policy
