#include "faultsweep/sweep/stats.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::sweep {
namespace {

// Continued fraction for the regularised incomplete beta function (Lentz's method).
double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-15) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double lbt =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(lbt) * beta_cf(a, b, x) / a;
  return 1.0 - std::exp(lbt) * beta_cf(b, a, 1.0 - x) / b;
}

double student_t_cdf(double t, double df) {
  const double x = df / (df + t * t);
  const double tail = 0.5 * incomplete_beta(df / 2.0, 0.5, x);
  return t >= 0 ? 1.0 - tail : tail;
}

}  // namespace

double student_t_quantile(double p, double df) {
  FS_CHECK(p > 0 && p < 1 && df >= 1, "student_t_quantile: p in (0,1), df >= 1");
  // Bisection on the CDF: slow, deterministic, and accurate to ~1e-10 relative (the CDF itself
  // loses digits near t = 0); ample for confidence intervals.
  double lo = -1e3, hi = 1e3;
  if (df < 2) lo = -1e8, hi = 1e8;  // Cauchy tails
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
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
  // The quantile is costly (bisection); memoise it per degree of freedom.
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
