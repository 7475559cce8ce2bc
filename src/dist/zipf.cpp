#include "faultsweep/dist/zipf.hpp"

#include <fmt/format.h>

#include <cmath>

#include "faultsweep/core/error.hpp"

namespace faultsweep::dist {

Zipf::Zipf(double alpha, std::int64_t n) : alpha_(alpha), n_(n) {
  FS_CHECK(alpha >= 0 && std::isfinite(alpha), fmt::format("zipf alpha = {}", alpha));
  FS_CHECK(n >= 1, fmt::format("zipf n = {}", n));
  const auto size = static_cast<std::size_t>(n);
  pmf_.resize(size);
  cdf_.resize(size);
  // Summed from the smallest term up, so the normalising constant H(n, alpha) loses nothing to
  // the large first terms.
  double h = 0.0;
  for (std::int64_t k = n; k >= 1; --k) h += std::pow(static_cast<double>(k), -alpha);
  double acc = 0.0;
  for (std::size_t i = 0; i < size; ++i) {
    pmf_[i] = std::pow(static_cast<double>(i + 1), -alpha) / h;
    acc += pmf_[i];
    cdf_[i] = acc;
  }
  for (std::size_t i = 0; i < size; ++i) cdf_[i] /= acc;  // cdf(n) == 1 exactly
  cdf_[size - 1] = 1.0;

  // Vose (1991): scaled probabilities n p_i split into "small" (< 1) and "large" (>= 1) columns;
  // each small column is topped up from a large one, which becomes its alias.
  prob_.resize(size);
  alias_.resize(size);
  std::vector<double> scaled(size);
  std::vector<std::size_t> small, large;
  small.reserve(size);
  large.reserve(size);
  for (std::size_t i = 0; i < size; ++i) {
    scaled[i] = pmf_[i] * static_cast<double>(n) / acc;
    (scaled[i] < 1.0 ? small : large).push_back(i);
  }
  while (!small.empty() && !large.empty()) {
    const std::size_t s = small.back(), l = large.back();
    small.pop_back();
    large.pop_back();
    prob_[s] = scaled[s];
    alias_[s] = static_cast<std::int64_t>(l);
    scaled[l] = (scaled[l] + scaled[s]) - 1.0;
    (scaled[l] < 1.0 ? small : large).push_back(l);
  }
  // What remains is 1 up to rounding.
  for (const std::size_t i : large) prob_[i] = 1.0, alias_[i] = static_cast<std::int64_t>(i);
  for (const std::size_t i : small) prob_[i] = 1.0, alias_[i] = static_cast<std::int64_t>(i);
}

std::int64_t Zipf::sample(Engine& e) const {
  // One uniform: its integer part (times n) picks the column, its fractional part decides
  // between the column and its alias. 52 random bits leave 52 - log2(n) bits for the fraction.
  const double x = uniform01(e) * static_cast<double>(n_);
  auto i = static_cast<std::int64_t>(x);
  if (i >= n_) i = n_ - 1;  // guards rounding of u * n up to n
  const double f = x - static_cast<double>(i);
  const auto idx = static_cast<std::size_t>(i);
  return 1 + (f < prob_[idx] ? i : alias_[idx]);
}

double Zipf::pmf(std::int64_t k) const {
  if (k < 1 || k > n_) return 0.0;
  return pmf_[static_cast<std::size_t>(k - 1)];
}

double Zipf::cdf(std::int64_t k) const {
  if (k < 1) return 0.0;
  if (k >= n_) return 1.0;
  return cdf_[static_cast<std::size_t>(k - 1)];
}

}  // namespace faultsweep::dist
