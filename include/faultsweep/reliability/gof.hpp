#pragma once
// Goodness of fit (Gottumukkala §3.3.1, §4.3) and dependence between TTF series (§3.5, §3.6).
#include <functional>
#include <vector>

#include "faultsweep/reliability/fit.hpp"

namespace faultsweep::reliability {

struct KsResult {
  double d = 0;       // sup |F_n(x) - F(x)|
  double p = 1;       // P(D_n >= d), see ks_pvalue (special.hpp)
  bool exact = true;  // exact (n <= kKsExactMaxN) or asymptotic
};

// One-sample Kolmogorov-Smirnov test of `sample` against `cdf` (Gottumukkala §3.3.1). As in the
// thesis, the law's parameters are estimated from the same sample, which makes the p-value
// conservative (Lilliefors); it ranks laws, it is not an exact test then.
KsResult ks_test(std::vector<double> sample, const std::function<double(double)>& cdf);
KsResult ks_test(const std::vector<double>& sample, const Fit& fit);
// The same on a sample already sorted ascending (a log's many per-node tests sort once).
KsResult ks_test_sorted(const std::vector<double>& sorted, const Fit& fit);

struct ChiSquareResult {
  double statistic = 0;
  int dof = 0;  // bins - 1 - estimated parameters (Gottumukkala §4.3: m - c - 1)
  double p = 1;
  std::vector<double> observed, expected;
};

// Pearson's chi-square test on the bins [edges[i], edges[i+1]) (the last bin closed; values
// outside all bins are not counted), expected counts n (F(b) - F(a)) with n the number of values
// inside the bins. Throws InputError for fewer than two bins, unsorted edges or dof < 1.
ChiSquareResult chi_square_test(const std::vector<double>& sample, const std::vector<double>& edges,
                                const std::function<double(double)>& cdf, int estimated_params);

double pearson(const std::vector<double>& x, const std::vector<double>& y);
// Pearson's r of the ranks (ties get their average rank), Gottumukkala §3.5.
double spearman(const std::vector<double>& x, const std::vector<double>& y);
// Sample autocorrelation at `lag` (the usual estimator: lagged covariance over n times the
// variance). NaN if the series is shorter than lag + 2 or constant.
double autocorrelation(const std::vector<double>& x, int lag);
// Durbin-Watson statistic of the deviations from the mean (Gottumukkala §3.6): about 2 without
// lag-1 autocorrelation, towards 0 positive, towards 4 negative. NaN if fewer than 2 values.
double durbin_watson(const std::vector<double>& x);

}  // namespace faultsweep::reliability
