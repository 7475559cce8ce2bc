#include "faultsweep/sweep/space.hpp"

#include <cmath>

#include "faultsweep/core/error.hpp"

namespace faultsweep::sweep {

std::vector<double> linear_values(double lo, double hi, int n) {
  FS_CHECK(n >= 1, "linear_values needs n >= 1");
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = n == 1 ? lo : lo + (hi - lo) * i / (n - 1);
  if (n > 1) v.back() = hi;
  return v;
}

std::vector<double> log_values(double lo, double hi, int n) {
  FS_CHECK(n >= 1 && lo > 0 && hi > 0, "log_values needs n >= 1 and positive ends");
  std::vector<double> v(static_cast<std::size_t>(n));
  const double a = std::log(lo), b = std::log(hi);
  for (int i = 0; i < n; ++i) v[i] = n == 1 ? lo : std::exp(a + (b - a) * i / (n - 1));
  v.front() = lo;
  if (n > 1) v.back() = hi;
  return v;
}

std::uint64_t range_count(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  FS_CHECK(step > 0, "range_count needs step > 0");
  if (hi < lo) return 0;
  // hi - lo in unsigned arithmetic cannot overflow: it is at most 2^64 - 1.
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  const std::uint64_t q = span / static_cast<std::uint64_t>(step);
  return q == UINT64_MAX ? q : q + 1;  // saturates for the full int64 range
}

std::vector<std::int64_t> range_values(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  const std::uint64_t n = range_count(lo, hi, step);
  FS_CHECK(n <= kMaxAxisValues, "range_values: too many values (check range_count first)");
  std::vector<std::int64_t> v;
  v.reserve(n);
  // By count, not by `x <= hi`: a range ending at INT64_MAX must end.
  for (std::uint64_t i = 0; i < n; ++i)
    v.push_back(static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) +
                                          i * static_cast<std::uint64_t>(step)));
  return v;
}

std::uint64_t grid_size_checked(const std::vector<std::uint64_t>& axis_sizes, std::uint64_t limit) {
  std::uint64_t n = 1;
  for (std::uint64_t a : axis_sizes) {
    if (a == 0) return 0;
    if (n > limit / a) return limit + 1;  // n * a > limit, without overflow
    n *= a;
  }
  return n;
}

std::size_t grid_size(const std::vector<Axis>& axes) {
  std::size_t n = 1;
  for (const Axis& a : axes) n *= a.size();
  return n;
}

std::vector<std::size_t> grid_coordinates(const std::vector<Axis>& axes, std::size_t p) {
  std::vector<std::size_t> c(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    c[i] = p % axes[i].size();
    p /= axes[i].size();
  }
  return c;
}

}  // namespace faultsweep::sweep
