#include "faultsweep/policy/availability_profile.hpp"

#include <algorithm>

namespace faultsweep::policy {

namespace {
constexpr std::size_t kBlock = 8;  // steps tested at once by the scans (branch-free)
}  // namespace

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

// The first step from m on that has fewer than `nodes` free (Below) or at least `nodes`
// (!Below), or that starts at or after limit_s; the number of steps if none. Whole blocks
// with neither are skipped on the free counts alone (the test vectorises) and the block's
// last start.
template <bool Below>
std::size_t AvailabilityProfile::scan(std::size_t m, std::int32_t nodes, double limit_s) const {
  const std::size_t n = time_s_.size();
  const std::int32_t* f = free_.data();
  for (; m + kBlock <= n; m += kBlock) {
    int hit = 0;
    for (std::size_t k = 0; k < kBlock; ++k)
      hit |= static_cast<int>(Below ? f[m + k] < nodes : f[m + k] >= nodes);
    if (hit != 0 || time_s_[m + kBlock - 1] >= limit_s) break;
  }
  for (; m < n; ++m)
    if ((Below ? f[m] < nodes : f[m] >= nodes) || time_s_[m] >= limit_s) return m;
  return n;
}

// Alternates between looking for a step with enough nodes (a start) and for the next step
// without (the end of the start's run), each a scan over the steps.
double AvailabilityProfile::earliest_before(double from_s, std::int32_t nodes, double wall_s,
                                            double held_s, double starts_before_s) const {
  if (!(from_s < starts_before_s)) return kNever;
  const std::size_t n = time_s_.size();
  // From the profile's first step (the common case: a search from now) without a search.
  std::size_t m = n > 1 && time_s_[1] <= from_s ? step_of(from_s, 1) : 0;
  double start_s = from_s;
  if (free_[m] < nodes) {
    m = scan<false>(m + 1, nodes, starts_before_s);
    if (m == n || time_s_[m] >= starts_before_s) return kNever;
    start_s = time_s_[m];
  }
  for (;;) {
    // In a run from start_s: it holds the job if it lasts until its end (the sum as written)
    // or until held_s, where the job's own slot takes over.
    const double end_s = std::min(held_s, start_s + wall_s);
    const std::size_t e = scan<true>(m + 1, nodes, end_s);
    if (e == n || time_s_[e] >= end_s) return start_s;  // the last step lasts forever
    m = scan<false>(e + 1, nodes, starts_before_s);
    if (m == n || time_s_[m] >= starts_before_s) return kNever;
    start_s = time_s_[m];
  }
}

}  // namespace faultsweep::policy
