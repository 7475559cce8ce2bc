// Tests of the project's own distributions (DESIGN §4).
//
// Statistical tests use fixed seeds, so they are deterministic; their tolerances are chosen so that
// a correct implementation would fail them with probability about 1e-3 (K-S) or 6e-5 (moments)
// for a random seed, while the mistakes they guard against (wrong exponent, wrong conditioning,
// wrong parameterisation) move the statistic far beyond the tolerance: the "power" test cases
// below demonstrate that on deliberately wrong samplers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "stat_support.hpp"

using faultsweep::Engine;
using faultsweep::make_stream;
using faultsweep::Purpose;
using faultsweep::dist::Dist;
using faultsweep::dist::Kind;

namespace {

using faultsweep::testing::ks_critical;
using faultsweep::testing::ks_statistic;

constexpr double kPi = 3.14159265358979323846;

// The stream every statistical test draws from: fixed seed 20240601, replica 0, keyed by the
// distribution's canonical text as a real consumer would be.
Engine stream_for(const Dist& d, std::uint64_t replica = 0) {
  return make_stream(20240601, replica, Purpose::failures, d.canonical_text());
}

std::vector<double> draws(std::size_t n, const std::function<double()>& draw) {
  std::vector<double> xs(n);
  for (auto& x : xs) x = draw();
  return xs;
}

// E[X^r], computed here from textbook formulas independent of Dist::mean/variance.
double raw_moment(const Dist& d, int r) {
  switch (d.kind()) {
    case Kind::exponential:
      return std::tgamma(r + 1.0) * std::pow(d.p1(), r);  // r! mean^r
    case Kind::weibull:
      return std::pow(d.p2(), r) * std::tgamma(1.0 + r / d.p1());  // scale^r Gamma(1 + r/k)
    case Kind::lognormal:
      return std::exp(r * d.p1() + 0.5 * r * r * d.p2() * d.p2());
    case Kind::constant:
      return std::pow(d.p1(), r);
  }
  return 0.0;
}

// Golden draws: set FAULTSWEEP_PRINT_GOLDEN=1 to print the current values for pasting.
void check_golden(const char* name, const std::vector<double>& got,
                  const std::vector<double>& golden) {
  if (std::getenv("FAULTSWEEP_PRINT_GOLDEN") != nullptr) {
    std::printf("%s:", name);
    for (double x : got) std::printf(" %.17g,", x);
    std::printf("\n");
  }
  INFO(name);
  REQUIRE(got.size() == golden.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("draw " << i);
    CHECK(got[i] == golden[i]);
  }
}

std::vector<double> first_draws(const std::function<double(Engine&)>& draw, int n = 5) {
  Engine e = make_stream(12345, 0, Purpose::failures, "golden");
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(draw(e));
  return out;
}

}  // namespace

// These values change only if the stream definition (core/rng, core/hash), uniform01 or a sampling
// algorithm here changes; any such change breaks reproducibility of stored results and must be
// deliberate. To regenerate: FAULTSWEEP_PRINT_GOLDEN=1 faultsweep_tests "[golden]" and paste.
TEST_CASE("Dist: the first five draws of each kind from a fixed stream are pinned",
          "[dist][golden]") {
  Catch::StringMaker<double>::precision = 17;
  const Dist exp = Dist::exponential(4200);
  check_golden("exponential(4200)", first_draws([&](Engine& e) { return exp.sample(e); }),
               {3453.7725118244457, 2146.0992189586541, 789.71042365325491, 177.91652680109775,
                2103.1470700670329});
  const Dist w07 = Dist::weibull(0.7, 18000);
  check_golden("weibull(0.7, 18000)", first_draws([&](Engine& e) { return w07.sample(e); }),
               {13611.544801073513, 6897.6602580959443, 1653.6435649321988, 196.69657281661554,
                6701.2947995559789});
  const Dist w15 = Dist::weibull(1.5, 18000);
  check_golden("weibull(1.5, 18000)", first_draws([&](Engine& e) { return w15.sample(e); }),
               {15799.213356768836, 11504.634943198253, 5907.6971695728107, 2187.3444209706404,
                11350.615363736842});
  const Dist ln = Dist::lognormal(8, 1.2);
  check_golden("lognormal(8, 1.2)", first_draws([&](Engine& e) { return ln.sample(e); }),
               {664.77779452768789, 28465.756323789377, 6717.129833564898, 4178.479231351841,
                3218.299495313061});
  const Dist c = Dist::constant(4500);
  check_golden("constant(4500)", first_draws([&](Engine& e) { return c.sample(e); }),
               {4500, 4500, 4500, 4500, 4500});
  check_golden("standard_normal",
               first_draws([](Engine& e) { return faultsweep::dist::standard_normal(e); }),
               {-1.2504559656249448, 1.8803809261160158, 0.67701352848340846, 0.28141886589116777,
                0.063840326662649771});
  check_golden("weibull(0.7, 18000) excess at 36000",
               first_draws([&](Engine& e) { return w07.sample_excess(e, 36000); }),
               {28628.070038446123, 17208.449756305337, 6097.0572810039175, 1348.5237095598879,
                16844.805953627896});
  check_golden("lognormal(8, 1.2) excess at 36000",
               first_draws([&](Engine& e) { return ln.sample_excess(e, 36000); }),
               {16746.808410908998, 9868.8140653198352, 3436.7075638798415, 755.2215411637153,
                9654.4514915022446});
}

TEST_CASE("Dist: exact mean, variance, cdf, pdf and hazard at known points", "[dist]") {
  SECTION("exponential: F(mean) = 1 - 1/e, constant hazard 1/mean") {
    const Dist d = Dist::exponential(4200);
    CHECK(d.mean() == 4200);
    CHECK(d.variance() == 4200.0 * 4200.0);
    CHECK(d.cdf(4200) == Approx(1 - std::exp(-1.0)).epsilon(1e-15));
    CHECK(d.pdf(4200) == Approx(std::exp(-1.0) / 4200).epsilon(1e-15));
    CHECK(d.hazard(1e9) == Approx(1 / 4200.0).epsilon(1e-15));
    CHECK(d.cdf(-1) == 0);
    CHECK(d.pdf(-1) == 0);
  }
  SECTION("weibull: F(scale) = 1 - 1/e for every shape; shape 2 moments in closed form") {
    for (double k : {0.7, 1.0, 1.5, 2.0}) {
      const Dist d = Dist::weibull(k, 100);
      CHECK(d.cdf(100) == Approx(1 - std::exp(-1.0)).epsilon(1e-15));
      CHECK(d.hazard(100) == Approx(k / 100).epsilon(1e-14));  // (k/lambda) (x/lambda)^(k-1)
      CHECK(d.pdf(100) == Approx(k / 100 * std::exp(-1.0)).epsilon(1e-14));
    }
    const Dist r = Dist::weibull(2, 100);  // Rayleigh
    CHECK(r.mean() == Approx(100 * std::sqrt(kPi) / 2).epsilon(1e-15));
    CHECK(r.variance() == Approx(100.0 * 100.0 * (1 - kPi / 4)).epsilon(1e-14));
    const Dist e = Dist::weibull(1, 50);  // exponential
    CHECK(e.mean() == Approx(50).epsilon(1e-15));
    CHECK(e.variance() == Approx(2500).epsilon(1e-14));
    // Hazard at 0: infinite (infant mortality) for k < 1, 1/scale for k = 1, 0 for k > 1.
    CHECK(std::isinf(Dist::weibull(0.7, 100).hazard(0)));
    CHECK(e.hazard(0) == Approx(1 / 50.0));
    CHECK(r.hazard(0) == 0);
  }
  SECTION("lognormal: F(e^mu) = 1/2, mean exp(mu + s^2/2), variance (e^{s^2} - 1) e^{2 mu + s^2}") {
    const Dist d = Dist::lognormal(8, 1.2);
    CHECK(d.cdf(std::exp(8.0)) == Approx(0.5).epsilon(1e-15));
    CHECK(d.pdf(std::exp(8.0)) == Approx(1 / (std::exp(8.0) * 1.2 * std::sqrt(2 * kPi))));
    CHECK(d.mean() == Approx(std::exp(8 + 0.72)).epsilon(1e-14));
    CHECK(d.variance() == Approx((std::exp(1.44) - 1) * std::exp(16 + 1.44)).epsilon(1e-13));
    CHECK(d.cdf(0) == 0);
    CHECK(d.pdf(0) == 0);
    CHECK(d.hazard(0) == 0);
  }
  SECTION("constant: a point mass") {
    const Dist d = Dist::constant(4500);
    CHECK(d.mean() == 4500);
    CHECK(d.variance() == 0);
    CHECK(d.cdf(4499.9) == 0);
    CHECK(d.cdf(4500) == 1);
    CHECK(d.survival(4500) == 0);
    CHECK(d.hazard(4499.9) == 0);
  }
  SECTION("mean and variance agree with the raw moments E[X], E[X^2]") {
    for (const Dist& d : {Dist::exponential(7), Dist::weibull(0.7, 18000), Dist::weibull(3.1, 5),
                          Dist::lognormal(-1, 0.4)}) {
      INFO(d.canonical_text());
      const double m1 = raw_moment(d, 1), m2 = raw_moment(d, 2);
      CHECK(d.mean() == Approx(m1).epsilon(1e-13));
      CHECK(d.variance() == Approx(m2 - m1 * m1).epsilon(1e-10));
    }
  }
}

TEST_CASE("Dist: pdf is the derivative of cdf and hazard is pdf / survival", "[dist]") {
  for (const Dist& d : {Dist::exponential(3), Dist::weibull(0.7, 2), Dist::weibull(1.5, 2),
                        Dist::lognormal(0.3, 0.8)}) {
    INFO(d.canonical_text());
    for (double x : {0.05, 0.3, 1.0, 2.5, 7.0}) {
      INFO("x = " << x);
      const double h = 1e-5 * x;
      CHECK((d.cdf(x + h) - d.cdf(x - h)) / (2 * h) == Approx(d.pdf(x)).epsilon(1e-6));
      CHECK(d.hazard(x) == Approx(d.pdf(x) / (1 - d.cdf(x))).epsilon(1e-12));
      CHECK(d.survival(x) == Approx(1 - d.cdf(x)).epsilon(1e-14));
    }
  }
}

TEST_CASE("Dist: hazard stays finite and correct far in the upper tail", "[dist]") {
  // Lognormal: the survival underflows near z = 38, but hazard ~ z / (x sigma) (Mills' ratio).
  const Dist ln = Dist::lognormal(0, 1);
  for (double z : {10.0, 29.999, 30.0, 40.0, 100.0}) {
    INFO("z = " << z);
    const double x = std::exp(z);
    const double h = ln.hazard(x) * x;  // = 1 / Mills ratio, in (z, z + 1/z)
    CHECK(std::isfinite(h));
    CHECK(h > z);
    CHECK(h < z + 1 / z);
  }
  // Continuous across the switch to the continued fraction at z = 30.
  CHECK(ln.hazard(std::exp(30.0) * (1 - 1e-12)) ==
        Approx(ln.hazard(std::exp(30.0))).epsilon(1e-11));
  // Weibull: pdf underflows to 0 (not NaN) while the hazard stays the closed form.
  const Dist w = Dist::weibull(1.5, 1);
  CHECK(w.pdf(1e6) == 0);
  CHECK(w.hazard(1e6) == Approx(1.5 * 1e3).epsilon(1e-13));
  CHECK(Dist::exponential(2).survival(1e6) == 0);
  CHECK(Dist::exponential(2).hazard(1e6) == 0.5);
}

// Sample mean and variance of n = 200,000 draws must lie within 4 standard errors of the exact
// values, where SE(mean) = sqrt(Var / n) and SE(variance) = sqrt((mu_4 - Var^2) / n) with the
// exact fourth central moment mu_4 (from raw moments). Two-sided 4-sigma: p ~ 6e-5 per check.
TEST_CASE("Dist: sample mean and variance within 4 standard errors (n = 200k, fixed seed)",
          "[dist][stat]") {
  constexpr std::size_t n = 200'000;
  for (const Dist& d : {Dist::exponential(4200), Dist::weibull(0.7, 18000),
                        Dist::weibull(1.5, 18000), Dist::lognormal(8, 0.5)}) {
    INFO(d.canonical_text());
    Engine e = stream_for(d);
    const std::vector<double> xs = draws(n, [&] { return d.sample(e); });
    double mean = 0;
    for (double x : xs) mean += x;
    mean /= n;
    double var = 0;
    for (double x : xs) var += (x - mean) * (x - mean);
    var /= (n - 1);

    const double m1 = raw_moment(d, 1), m2 = raw_moment(d, 2), m3 = raw_moment(d, 3),
                 m4 = raw_moment(d, 4);
    const double mu4 = m4 - 4 * m1 * m3 + 6 * m1 * m1 * m2 - 3 * m1 * m1 * m1 * m1;
    const double se_mean = std::sqrt(d.variance() / n);
    const double se_var = std::sqrt((mu4 - d.variance() * d.variance()) / n);
    INFO("sample mean " << mean << " exact " << d.mean() << " se " << se_mean);
    INFO("sample var " << var << " exact " << d.variance() << " se " << se_var);
    CHECK(std::fabs(mean - d.mean()) < 4 * se_mean);
    CHECK(std::fabs(var - d.variance()) < 4 * se_var);
  }
  const Dist c = Dist::constant(4500);
  Engine e = stream_for(c);
  for (int i = 0; i < 100; ++i) CHECK(c.sample(e) == 4500);
}

// K-S against the exact cdf: D_n < 1.95 / sqrt(n) (0.1% critical value), n = 200k, fixed seed.
TEST_CASE("Dist: draws pass a Kolmogorov-Smirnov test against cdf (n = 200k, fixed seed)",
          "[dist][stat]") {
  constexpr std::size_t n = 200'000;
  for (const Dist& d :
       {Dist::exponential(4200), Dist::weibull(0.7, 18000), Dist::weibull(1.5, 18000),
        Dist::lognormal(8, 1.2), Dist::lognormal(-2, 0.3)}) {
    INFO(d.canonical_text());
    Engine e = stream_for(d);
    const double stat =
        ks_statistic(draws(n, [&] { return d.sample(e); }), [&](double x) { return d.cdf(x); });
    INFO("D = " << stat << ", critical " << ks_critical(n));
    CHECK(stat < ks_critical(n));
  }
  SECTION("standard_normal against Phi") {
    Engine e = make_stream(20240601, 0, Purpose::failures, "standard_normal");
    const double stat = ks_statistic(draws(n, [&] { return faultsweep::dist::standard_normal(e); }),
                                     [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); });
    CHECK(stat < ks_critical(n));
  }
}

// The K-S check above can fail: a Weibull sampler that used the exponent k instead of 1/k draws
// from Weibull(1/k) (both cdfs equal 1 - 1/e at x = scale, but for k = 0.7 they differ by ~0.2
// elsewhere), and one whose scale is 5% off shifts the cdf by ~0.05/e ~ 0.018; both are many
// times the critical value 0.0044 at n = 200k.
TEST_CASE("Dist: the K-S check rejects deliberately wrong samplers (power)", "[dist][stat]") {
  constexpr std::size_t n = 200'000;
  const Dist d = Dist::weibull(0.7, 18000);
  const auto cdf = [&](double x) { return d.cdf(x); };
  Engine e = stream_for(d);
  const double wrong_exponent = ks_statistic(
      draws(n, [&] { return 18000 * std::pow(-std::log(faultsweep::uniform01(e)), 0.7); }), cdf);
  CHECK(wrong_exponent > 10 * ks_critical(n));
  const Dist off = Dist::weibull(0.7, 18000 * 1.05);
  const double wrong_scale = ks_statistic(draws(n, [&] { return off.sample(e); }), cdf);
  CHECK(wrong_scale > 2 * ks_critical(n));
  // Ignoring the age in excess-life sampling (treating an aged Weibull(1.5) unit as new) fails.
  const Dist w = Dist::weibull(1.5, 18000);
  const double age = 18000;
  const double ignore_age = ks_statistic(draws(n, [&] { return w.sample(e); }), [&](double x) {
    return 1 - w.survival(age + x) / w.survival(age);
  });
  CHECK(ignore_age > 10 * ks_critical(n));
}

// X - age given X > age has cdf G(x) = (F(age + x) - F(age)) / (1 - F(age))
//                                    = 1 - S(age + x) / S(age), tested by K-S at n = 100k.
TEST_CASE("Dist: excess-life draws follow the conditional distribution (K-S, n = 100k)",
          "[dist][stat]") {
  constexpr std::size_t n = 100'000;
  struct Case {
    Dist d;
    double age;
  };
  const std::vector<Case> cases = {
      // Weibull both sides of k = 1; very young (t = (age/scale)^k negligible), young, old.
      {Dist::weibull(0.7, 18000), 18000 * 1e-25},
      {Dist::weibull(0.7, 18000), 900},
      {Dist::weibull(0.7, 18000), 18000},
      {Dist::weibull(0.7, 18000), 20 * 18000},
      {Dist::weibull(1.5, 18000), 18000 * 1e-25},
      {Dist::weibull(1.5, 18000), 900},
      {Dist::weibull(1.5, 18000), 18000},
      {Dist::weibull(1.5, 18000), 5 * 18000},
      // Lognormal with z0 = (log age - mu) / sigma = -2, 0, 2, 4.9 (inversion) and 5.1, 9 (tail).
      {Dist::lognormal(8, 1.2), std::exp(8 - 2 * 1.2)},
      {Dist::lognormal(8, 1.2), std::exp(8.0)},
      {Dist::lognormal(8, 1.2), std::exp(8 + 2 * 1.2)},
      {Dist::lognormal(8, 1.2), std::exp(8 + 4.9 * 1.2)},
      {Dist::lognormal(8, 1.2), std::exp(8 + 5.1 * 1.2)},
      {Dist::lognormal(8, 1.2), std::exp(8 + 9 * 1.2)},
      // Exponential: memoryless, the excess is the unconditional distribution.
      {Dist::exponential(4200), 1e5},
  };
  for (const Case& c : cases) {
    INFO(c.d.canonical_text() << " at age " << c.age);
    Engine e = stream_for(c.d, 7);
    const double s_age = c.d.survival(c.age);
    REQUIRE(s_age > 0);
    const double stat = ks_statistic(draws(n, [&] { return c.d.sample_excess(e, c.age); }),
                                     [&](double x) { return 1 - c.d.survival(c.age + x) / s_age; });
    INFO("D = " << stat << ", critical " << ks_critical(n));
    CHECK(stat < ks_critical(n));
  }
}

TEST_CASE("Dist: excess-life edge cases", "[dist]") {
  SECTION("age 0 draws exactly what sample draws") {
    for (const Dist& d : {Dist::exponential(3), Dist::weibull(0.7, 2), Dist::lognormal(1, 2)}) {
      Engine a = stream_for(d), b = stream_for(d);
      for (int i = 0; i < 100; ++i) CHECK(d.sample_excess(a, 0) == d.sample(b));
    }
  }
  SECTION("constant: the time left, never negative") {
    Engine e = make_stream(1, 0, Purpose::failures, "c");
    CHECK(Dist::constant(10).sample_excess(e, 4) == 6);
    CHECK(Dist::constant(10).sample_excess(e, 12) == 0);
  }
  SECTION("excess draws are finite and non-negative deep in the tails") {
    Engine e = make_stream(1, 0, Purpose::failures, "tails");
    const Dist ln = Dist::lognormal(0, 1);
    const Dist w = Dist::weibull(0.5, 1);
    for (int i = 0; i < 1000; ++i) {
      const double x = ln.sample_excess(e, std::exp(40.0));  // survival underflows to 0
      CHECK(std::isfinite(x));
      CHECK(x >= 0);
      const double y = w.sample_excess(e, 1e30);
      CHECK(std::isfinite(y));
      CHECK(y >= 0);
    }
  }
}
