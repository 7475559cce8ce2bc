#pragma once
// Parameter spaces: generating axis values and walking the grid product of axes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "faultsweep/sweep/job.hpp"

namespace faultsweep::sweep {

// n values from lo to hi inclusive, evenly spaced (linear) or evenly spaced in log (log).
// The end points are exact. n >= 1 (n == 1 gives lo).
std::vector<double> linear_values(double lo, double hi, int n);
std::vector<double> log_values(double lo, double hi, int n);
// How many values lo, lo + step, ... <= hi has (0 if hi < lo), without overflow (step > 0).
std::uint64_t range_count(std::int64_t lo, std::int64_t hi, std::int64_t step);
// lo, lo + step, ... up to and including hi (step > 0); at most kMaxAxisValues values.
std::vector<std::int64_t> range_values(std::int64_t lo, std::int64_t hi, std::int64_t step);
// The product of the axis sizes, or limit + 1 as soon as it would exceed `limit` (no overflow).
std::uint64_t grid_size_checked(const std::vector<std::uint64_t>& axis_sizes, std::uint64_t limit);

// Number of points of the grid product (1 with no axes).
std::size_t grid_size(const std::vector<Axis>& axes);
// The index along each axis of point p; the first axis varies slowest.
std::vector<std::size_t> grid_coordinates(const std::vector<Axis>& axes, std::size_t p);

}  // namespace faultsweep::sweep
