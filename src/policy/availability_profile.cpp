#include "faultsweep/policy/availability_profile.hpp"

#include <algorithm>

namespace faultsweep::policy {

void AvailabilityProfile::reset(double t0_s, std::int32_t nodes) {
  time_s_.assign(1, t0_s);
  free_.assign(1, nodes);
}

// The step that holds t (t >= the first breakpoint).
std::size_t AvailabilityProfile::step_of(double t_s) const {
  return static_cast<std::size_t>(std::upper_bound(time_s_.begin(), time_s_.end(), t_s) -
                                  time_s_.begin() - 1);
}

// The index of the step that starts at t, splitting the step that holds t if needed.
std::size_t AvailabilityProfile::split_at(double t_s) {
  const std::size_t k = step_of(t_s);
  if (time_s_[k] == t_s) return k;
  time_s_.insert(time_s_.begin() + static_cast<std::ptrdiff_t>(k + 1), t_s);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(k + 1), free_[k]);
  return k + 1;
}

void AvailabilityProfile::add(double begin_s, double end_s, std::int32_t nodes) {
  if (!(end_s > begin_s)) return;
  const std::size_t k = split_at(begin_s);
  const std::size_t end = end_s == kNever ? time_s_.size() : split_at(end_s);
  for (std::size_t m = k; m < end; ++m) free_[m] += nodes;
}

std::int32_t AvailabilityProfile::at(double t_s) const {
  return free_[step_of(t_s)];
}

bool AvailabilityProfile::fits(double begin_s, double end_s, std::int32_t nodes) const {
  const std::size_t first = step_of(begin_s);
  for (std::size_t m = first; m < time_s_.size(); ++m) {
    if (m > first && time_s_[m] >= end_s) break;
    if (free_[m] < nodes) return false;
  }
  return true;
}

double AvailabilityProfile::earliest(double from_s, std::int32_t nodes, double wall_s) const {
  return earliest_before(from_s, nodes, wall_s, kNever, kNever);
}

// One pass over the steps after from_s, alternating between looking for a step with enough
// nodes (a start) and for the next step without (the end of the start's run).
double AvailabilityProfile::earliest_before(double from_s, std::int32_t nodes, double wall_s,
                                            double held_s, double starts_before_s) const {
  if (!(from_s < starts_before_s)) return kNever;
  std::size_t m = step_of(from_s);
  bool in_run = free_[m] >= nodes;
  double start_s = from_s;
  for (++m; m < time_s_.size(); ++m) {
    const double key_s = time_s_[m];
    if (in_run) {
      if (key_s >= held_s || key_s >= start_s + wall_s) return start_s;
      if (free_[m] < nodes) in_run = false;
    } else if (free_[m] >= nodes) {
      if (key_s >= starts_before_s) return kNever;
      in_run = true;
      start_s = key_s;
    }
  }
  return in_run ? start_s : kNever;  // the last step lasts forever
}

}  // namespace faultsweep::policy
