#include "faultsweep/dist/empirical.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::dist {

Empirical::Empirical(std::vector<double> samples) : sorted_(std::move(samples)) {
  if (sorted_.empty()) throw InputError("samples", "[]", "at least one value");
  for (double x : sorted_)
    if (!std::isfinite(x)) throw InputError("samples", std::to_string(x), "finite values");
  std::sort(sorted_.begin(), sorted_.end());
  double s = 0;
  for (double x : sorted_) s += x;
  mean_ = s / sorted_.size();
  double ss = 0;
  for (double x : sorted_) ss += (x - mean_) * (x - mean_);
  variance_ = ss / sorted_.size();
}

double Empirical::quantile(double u) const {
  // The smallest x with F_n(x) >= u: x_(ceil(u n)), 1-based.
  const double n = static_cast<double>(sorted_.size());
  const double k = std::ceil(u * n);
  const std::size_t i = k < 1 ? 0 : std::min(sorted_.size() - 1, static_cast<std::size_t>(k) - 1);
  return sorted_[i];
}

double Empirical::sample(Engine& e) const {
  return quantile(uniform01(e));
}

double Empirical::cdf(double x) const {
  const auto it = std::upper_bound(sorted_.begin(), sorted_.end(), x);
  return static_cast<double>(it - sorted_.begin()) / sorted_.size();
}

}  // namespace faultsweep::dist
