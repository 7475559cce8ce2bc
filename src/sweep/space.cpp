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

std::vector<std::int64_t> range_values(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  FS_CHECK(step > 0, "range_values needs step > 0");
  std::vector<std::int64_t> v;
  for (std::int64_t x = lo; x <= hi; x += step) v.push_back(x);
  return v;
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
