// The fits recover known parameters, censoring changes them where it must, and bad samples are
// refused. Statistical cases state their seed; a correct fit lands within 3 SE of the truth in
// each (about 99.7 % per parameter), while the biased alternatives miss by tens of SEs.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/dist/gamma.hpp"
#include "faultsweep/reliability/fit.hpp"
#include "faultsweep/reliability/gof.hpp"

using namespace faultsweep;
using namespace faultsweep::reliability;

namespace {

constexpr int kDraws = 10000;

template <class Law>
std::vector<double> draws(const Law& law, std::uint64_t seed) {
  Engine e = make_stream(seed, 0, Purpose::failures, "test_reliability");
  std::vector<double> x(kDraws);
  for (double& v : x) v = law.sample(e);
  return x;
}

void check_within_3se(const Fit& f, double p1, double p2) {
  INFO(law_name(f.law) << ": p1 = " << f.p1 << " +- " << f.se1 << " (true " << p1
                       << "), p2 = " << f.p2 << " +- " << f.se2 << " (true " << p2 << ")");
  CHECK(std::abs(f.p1 - p1) < 3 * f.se1);
  if (!std::isnan(p2)) CHECK(std::abs(f.p2 - p2) < 3 * f.se2);
}

}  // namespace

TEST_CASE("Each law's fit recovers the parameters of 10^4 draws within 3 SE (seed 11)",
          "[reliability]") {
  check_within_3se(fit_mle(Law::exponential, draws(dist::Dist::exponential(300.0), 11)), 300.0,
                   NAN);
  check_within_3se(fit_mle(Law::weibull, draws(dist::Dist::weibull(0.7, 1000.0), 11)), 0.7, 1000.0);
  check_within_3se(fit_mle(Law::gamma, draws(dist::Gamma(0.8, 500.0), 11)), 0.8, 500.0);
  check_within_3se(fit_mle(Law::lognormal, draws(dist::Dist::lognormal(5.0, 1.2), 11)), 5.0, 1.2);
}

TEST_CASE(
    "With type-I censoring at 800 h the censored fit recovers the law, the failures alone "
    "do not (seed 12)",
    "[reliability]") {
  // Weibull(0.8, 1000): about 55 % of the draws fail before 800 h.
  const std::vector<double> x = draws(dist::Dist::weibull(0.8, 1000.0), 12);
  std::vector<double> fail, cens;
  for (const double v : x) (v < 800 ? fail : cens).push_back(v < 800 ? v : 800.0);
  for (const Law law : {Law::weibull, Law::gamma, Law::lognormal}) {
    const Fit with = fit_mle(law, fail, cens);
    const Fit without = fit_mle(law, fail);
    INFO(law_name(law));
    CHECK(with.censored == static_cast<int>(cens.size()));
    // The failures alone, all below 800 h, put the mean far lower than any censored fit.
    CHECK(without.mean() < 0.5 * with.mean());
    if (law == Law::weibull) {
      // The right law with the survivals: the parameters, and the mean (1133 h) within 6 %.
      check_within_3se(with, 0.8, 1000.0);
      CHECK(with.mean() == Approx(dist::Dist::weibull(0.8, 1000.0).mean()).epsilon(0.06));
    }
  }
  // Survivals of length 0 carry no information: the fit is the uncensored one.
  const Fit zero = fit_mle(Law::weibull, fail, std::vector<double>(5, 0.0));
  const Fit none = fit_mle(Law::weibull, fail);
  CHECK(zero.p1 == none.p1);
  CHECK(zero.censored == 0);
}

TEST_CASE("Fits refuse samples without an MLE and times that are not failures", "[reliability]") {
  CHECK_THROWS_AS(fit_mle(Law::weibull, {}), InputError);
  CHECK_THROWS_AS(fit_mle(Law::exponential, {1.0, 0.0, 2.0}), InputError);  // same-minute TTF
  CHECK_THROWS_AS(fit_mle(Law::gamma, {1.0, -3.0}), InputError);
  CHECK_THROWS_AS(fit_mle(Law::weibull, {5.0, 5.0, 5.0}), InputError);  // all equal
  CHECK_THROWS_AS(fit_mle(Law::gamma, {5.0, 5.0}), InputError);
  // Two times one rounding step apart: Newton's slope underflows (the digamma of +inf threw).
  CHECK_THROWS_AS(fit_mle(Law::gamma, {0.99944444444444458, 0.99944444444444436}), InputError);
  CHECK_THROWS_AS(fit_mle(Law::lognormal, {5.0, 5.0}), InputError);
  CHECK_THROWS_AS(fit_mle(Law::weibull, {1.0, 2.0}, {-1.0}), InputError);
  // Two failures and three units still up after 1e300 s: the Weibull scale, 1e300 times
  // (sum t^k / r)^(1/k) with k near 0.002, is beyond a double; no finite MLE, so an input error
  // rather than a distribution that cannot be built.
  CHECK_THROWS_AS(fit_mle(Law::weibull, {100.0, 150.0}, {1e300, 1e300, 1e300}), InputError);
  // One failure time: the exponential exists (mean = the time), with SE = mean.
  const Fit one = fit_mle(Law::exponential, {42.0});
  CHECK(one.p1 == 42.0);
  CHECK(one.se1 == 42.0);
}

TEST_CASE("The K-S test rejects the wrong law and keeps the right one (seed 13)", "[reliability]") {
  const std::vector<double> x = draws(dist::Dist::weibull(0.5, 100.0), 13);
  std::vector<double> small(x.begin(), x.begin() + 2000);
  const KsResult right = ks_test(small, fit_mle(Law::weibull, small));
  const KsResult wrong = ks_test(small, fit_mle(Law::exponential, small));
  CHECK_FALSE(right.exact);
  CHECK(right.p > 0.01);
  CHECK(wrong.p < 1e-10);  // shape 0.5 is far from exponential at n = 2000
}

TEST_CASE("Autocorrelation and Durbin-Watson tell an alternating series from a trend",
          "[reliability]") {
  std::vector<double> alt, trend;
  for (int i = 0; i < 50; ++i) alt.push_back(i % 2 ? 1.0 : -1.0), trend.push_back(i);
  CHECK(autocorrelation(alt, 1) == Approx(-0.98));  // 49/50 of -1
  CHECK(durbin_watson(alt) == Approx(4.0 * 49 / 50));
  CHECK(durbin_watson(trend) < 0.01);
  CHECK(autocorrelation(trend, 0) == Approx(1.0));
  CHECK(std::isnan(durbin_watson({3.0})));
  CHECK(spearman({1, 2, 3, 4}, {10, 20, 20, 40}) == Approx(0.9486832980505138));  // ties: avg
}
