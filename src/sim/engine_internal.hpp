#pragma once
// Helpers shared by the engine's source files (not a public header).
#include <algorithm>
#include <cmath>

#include "faultsweep/policy/queue.hpp"

namespace faultsweep::sim::detail {

inline bool release_before(const policy::Release& a, const policy::Release& b) {
  return a.time_s != b.time_s ? a.time_s < b.time_s : a.job < b.job;
}

// Relative tolerance for the time-accounting invariants (sums of many doubles).
inline bool close(double a, double b, double scale) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(scale)) + 1e-6;
}

}  // namespace faultsweep::sim::detail
