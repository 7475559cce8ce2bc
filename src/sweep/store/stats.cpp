#include "faultsweep/sweep/stats.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::sweep {
double student_t_quantile(double p, double df) {
  FS_CHECK(p > 0 && p < 1 && df >= 1, "student_t_quantile: p in (0,1), df >= 1");
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

Summary summarize(const double* values, const std::uint8_t* done, std::size_t count,
                  bool deterministic) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Summary s;
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i)
    if (done[i] && !std::isnan(values[i])) sum += values[i], ++n;
  s.n = static_cast<double>(n);
  if (n == 0) {
    s.mean = s.std = s.sem = s.ci95_lo = s.ci95_hi = nan;
    return s;
  }
  s.mean = sum / static_cast<double>(n);
  if (deterministic) {
    s.std = s.sem = 0;
    s.ci95_lo = s.ci95_hi = s.mean;
    return s;
  }
  if (n < 2) {
    s.std = s.sem = s.ci95_lo = s.ci95_hi = nan;
    return s;
  }
  double ss = 0;  // two-pass variance: stable
  for (std::size_t i = 0; i < count; ++i)
    if (done[i] && !std::isnan(values[i])) ss += (values[i] - s.mean) * (values[i] - s.mean);
  s.std = std::sqrt(ss / static_cast<double>(n - 1));
  s.sem = s.std / std::sqrt(static_cast<double>(n));
  // Memoised per degree of freedom: summaries are computed for every point at every write.
  thread_local std::vector<double> t_cache;
  if (t_cache.size() < n) t_cache.resize(n, nan);
  if (std::isnan(t_cache[n - 1]))
    t_cache[n - 1] = student_t_quantile(0.975, static_cast<double>(n - 1));
  const double t = t_cache[n - 1];
  s.ci95_lo = s.mean - t * s.sem;
  s.ci95_hi = s.mean + t * s.sem;
  return s;
}

}  // namespace faultsweep::sweep
