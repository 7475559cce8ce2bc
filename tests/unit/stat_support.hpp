#pragma once
// Goodness-of-fit helpers shared by the statistical tests.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace faultsweep::testing {

// One-sample Kolmogorov-Smirnov statistic D_n = sup_x |F_n(x) - F(x)|, valid for continuous and
// discrete F: at every distinct sample value v it compares F(v) with F_n(v) and the left limit
// F(v-) with F_n(v-) (F_n is flat between sample values and F is monotone, so the supremum is
// attained at one of these).
template <class Cdf>
double ks_statistic(std::vector<double> x, Cdf cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  std::size_t i = 0;
  while (i < x.size()) {
    std::size_t j = i;
    while (j < x.size() && x[j] == x[i]) ++j;
    const double left = cdf(std::nextafter(x[i], -std::numeric_limits<double>::infinity()));
    d = std::max({d, std::abs(cdf(x[i]) - static_cast<double>(j) / n),
                  std::abs(left - static_cast<double>(i) / n)});
    i = j;
  }
  return d;
}

// Asymptotic critical value of D_n at the 0.1 % level (Kolmogorov distribution: 1.9495/sqrt(n));
// conservative for a discrete law.
inline double ks_critical(std::size_t n) {
  return 1.95 / std::sqrt(static_cast<double>(n));
}

}  // namespace faultsweep::testing
