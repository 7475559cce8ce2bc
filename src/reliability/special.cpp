#include "faultsweep/reliability/special.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>

#include "faultsweep/core/error.hpp"

namespace faultsweep::reliability {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Q^e with Q m x m, keeping a decimal exponent aside so that entries stay in range
// (Marsaglia, Tsang & Wang 2003, mPower).
void matrix_power(const Eigen::MatrixXd& a, int ea, Eigen::MatrixXd& v, int& ev, int n) {
  if (n == 1) {
    v = a, ev = ea;
    return;
  }
  matrix_power(a, ea, v, ev, n / 2);
  Eigen::MatrixXd b = v * v;
  int eb = 2 * ev;
  if (n % 2 == 1) {
    b = (a * b).eval();
    eb += ea;
  }
  const Eigen::Index mid = b.rows() / 2;
  if (b(mid, mid) > 1e140) {
    b *= 1e-140;
    eb += 140;
  }
  v = std::move(b), ev = eb;
}

}  // namespace

// Boost.Math (digamma, trigamma, the regularised upper incomplete gamma Q); the checks keep the
// domains this code always had (Boost would also accept negative non-integers).
double digamma(double x) {
  FS_CHECK(x > 0, "digamma of a non-positive argument");
  return boost::math::digamma(x);
}

double trigamma(double x) {
  FS_CHECK(x > 0, "trigamma of a non-positive argument");
  return boost::math::trigamma(x);
}

double chi_square_sf(double x, double dof) {
  if (!(x > 0)) return 1.0;
  if (std::isinf(x)) return 0.0;
  // Q directly (1 - P lost the far tail); Boost's best value rather than an exception where a
  // series stops short of its precision goal.
  // In double, not Boost's default long double: a log's per-node K-S tests call it millions of
  // times, and long double's pow/log cost three quarters of `fit`'s time for a few ulps.
  using Policy = boost::math::policies::policy<
      boost::math::policies::evaluation_error<boost::math::policies::ignore_error>,
      boost::math::policies::promote_double<false>>;
  return std::clamp(boost::math::gamma_q(dof / 2, x / 2, Policy()), 0.0, 1.0);
}

double kolmogorov_sf(double lambda) {
  if (!(lambda > 0)) return 1.0;
  if (lambda < 1.0) {
    // P(K <= l) = sqrt(2 pi)/l sum_j exp(-(2j-1)^2 pi^2 / (8 l^2)), converging fast for small l.
    double s = 0;
    for (int j = 1; j <= 20; ++j)
      s += std::exp(-(2 * j - 1) * (2 * j - 1) * kPi * kPi / (8 * lambda * lambda));
    return 1.0 - std::sqrt(2 * kPi) / lambda * s;
  }
  double s = 0;
  for (int j = 1; j <= 100; ++j) {
    const double term = std::exp(-2.0 * j * j * lambda * lambda);
    s += (j % 2 == 1 ? term : -term);
    if (term < 1e-300) break;
  }
  return 2 * s;
}

double ks_pvalue_exact(int n, double d) {
  FS_CHECK(n >= 1, "K-S p-value of an empty sample");
  if (!(d > 0)) return 1.0;
  if (d >= 1) return 0.0;
  const double s = d * d * n;
  if (s > 7.24 || (s > 3.76 && n > 99))
    return 2 * std::exp(-(2.000071 + .331 / std::sqrt(n) + 1.409 / n) * s);
  const int k = static_cast<int>(n * d) + 1;
  const int m = 2 * k - 1;
  const double h = k - n * d;
  Eigen::MatrixXd H(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) H(i, j) = (i - j + 1 < 0) ? 0.0 : 1.0;
  for (int i = 0; i < m; ++i) {
    H(i, 0) -= std::pow(h, i + 1);
    H(m - 1, i) -= std::pow(h, m - i);
  }
  H(m - 1, 0) += (2 * h - 1 > 0 ? std::pow(2 * h - 1, m) : 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      if (i - j + 1 > 0)
        for (int g = 1; g <= i - j + 1; ++g) H(i, j) /= g;
  Eigen::MatrixXd Q;
  int eq = 0;
  matrix_power(H, 0, Q, eq, n);
  double p = Q(k - 1, k - 1);
  for (int i = 1; i <= n; ++i) {
    p = p * i / n;
    if (p < 1e-140) p *= 1e140, eq -= 140;
  }
  const double cdf = p * std::pow(10.0, eq);
  return std::clamp(1.0 - cdf, 0.0, 1.0);
}

double ks_pvalue(int n, double d) {
  return n <= kKsExactMaxN ? ks_pvalue_exact(n, d) : kolmogorov_sf(std::sqrt(n) * d);
}

}  // namespace faultsweep::reliability
