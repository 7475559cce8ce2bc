#include "faultsweep/reliability/gof.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "faultsweep/core/error.hpp"
#include "faultsweep/reliability/special.hpp"

namespace faultsweep::reliability {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<std::size_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && x[idx[j + 1]] == x[idx[i]]) ++j;
    const double avg = 0.5 * static_cast<double>(i + j) + 1.0;
    for (std::size_t t = i; t <= j; ++t) r[idx[t]] = avg;
    i = j + 1;
  }
  return r;
}

}  // namespace

namespace {

template <class Cdf>
KsResult ks_of_sorted(const std::vector<double>& sample, const Cdf& cdf) {
  FS_CHECK(!sample.empty(), "K-S test of an empty sample");
  const double n = static_cast<double>(sample.size());
  double d = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, (static_cast<double>(i) + 1) / n - f, f - static_cast<double>(i) / n});
  }
  KsResult r;
  r.d = d;
  const int ni = static_cast<int>(sample.size());
  r.exact = ni <= kKsExactMaxN;
  r.p = ks_pvalue(ni, d);
  return r;
}

}  // namespace

KsResult ks_test(std::vector<double> sample, const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  return ks_of_sorted(sample, cdf);
}

KsResult ks_test(const std::vector<double>& sample, const Fit& fit) {
  std::vector<double> sorted = sample;
  std::sort(sorted.begin(), sorted.end());
  return ks_test_sorted(sorted, fit);
}

KsResult ks_test_sorted(const std::vector<double>& sorted, const Fit& fit) {
  FS_CHECK(std::is_sorted(sorted.begin(), sorted.end()), "ks_test_sorted of an unsorted sample");
  return ks_of_sorted(sorted, [&fit](double x) { return fit.cdf(x); });
}

ChiSquareResult chi_square_test(const std::vector<double>& sample, const std::vector<double>& edges,
                                const std::function<double(double)>& cdf, int estimated_params) {
  if (edges.size() < 3)
    throw InputError("edges", fmt::format("{} values", edges.size()), "at least 3 (two bins)");
  for (std::size_t i = 1; i < edges.size(); ++i)
    if (!(edges[i] > edges[i - 1]))
      throw InputError("edges", fmt::format("{}", edges[i]), "strictly increasing bin edges");
  ChiSquareResult r;
  const std::size_t m = edges.size() - 1;
  r.dof = static_cast<int>(m) - 1 - estimated_params;
  if (r.dof < 1)
    throw InputError("estimated parameters", fmt::format("{}", estimated_params),
                     fmt::format("fewer than {} with {} bins (dof = m - c - 1 >= 1)", m - 1, m));
  r.observed.assign(m, 0.0);
  double n = 0;
  for (const double x : sample) {
    if (x < edges.front() || x > edges.back()) continue;
    auto it = std::upper_bound(edges.begin(), edges.end(), x);
    std::size_t bin = static_cast<std::size_t>(it - edges.begin()) - 1;
    if (bin == m) bin = m - 1;  // x == last edge
    r.observed[bin] += 1, n += 1;
  }
  r.expected.resize(m);
  for (std::size_t i = 0; i < m; ++i) {
    r.expected[i] = n * (cdf(edges[i + 1]) - cdf(edges[i]));  // Gottumukkala Eq. 4.16
    if (r.expected[i] > 0)
      r.statistic +=
          (r.observed[i] - r.expected[i]) * (r.observed[i] - r.expected[i]) / r.expected[i];
  }
  r.p = chi_square_sf(r.statistic, r.dof);
  return r;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  FS_CHECK(x.size() == y.size(), "pearson: series of different lengths");
  const double n = static_cast<double>(x.size());
  if (x.size() < 2) return kNaN;
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0 && syy > 0)) return kNaN;
  return sxy / std::sqrt(sxx * syy);
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  return pearson(ranks(x), ranks(y));
}

double autocorrelation(const std::vector<double>& x, int lag) {
  FS_CHECK(lag >= 0, "autocorrelation: negative lag");
  const std::size_t l = static_cast<std::size_t>(lag);
  if (x.size() < l + 2) return kNaN;
  const double n = static_cast<double>(x.size());
  const double m = std::accumulate(x.begin(), x.end(), 0.0) / n;
  double c0 = 0, cl = 0;
  for (std::size_t i = 0; i < x.size(); ++i) c0 += (x[i] - m) * (x[i] - m);
  for (std::size_t i = l; i < x.size(); ++i) cl += (x[i] - m) * (x[i - l] - m);
  return c0 > 0 ? cl / c0 : kNaN;
}

double durbin_watson(const std::vector<double>& x) {
  if (x.size() < 2) return kNaN;
  const double m = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    den += (x[i] - m) * (x[i] - m);
    if (i > 0) num += (x[i] - x[i - 1]) * (x[i] - x[i - 1]);
  }
  return den > 0 ? num / den : kNaN;
}

}  // namespace faultsweep::reliability
