// Tests of the Zipf distribution (Zhang et al. §3.2, failure locations).
//
// Statistical tests draw from a fixed stream (seed 20240601, replica 0) and compare the
// empirical cdf with Zipf::cdf by the K-S distance D_n = max_k |F_n(k) - F(k)| against
// 1.95 / sqrt(n), the asymptotic 0.1 % critical value for a continuous law (conservative for a
// discrete one, so a correct sampler fails with probability < 1e-3 for a random seed).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/zipf.hpp"

using faultsweep::Engine;
using faultsweep::make_stream;
using faultsweep::Purpose;
using faultsweep::dist::Zipf;

namespace {

double zipf_ks(const Zipf& z, std::size_t n_draws, std::uint64_t replica = 0) {
  Engine e =
      make_stream(20240601, replica, Purpose::locations, "zipf alpha=" + std::to_string(z.alpha()));
  std::vector<std::size_t> counts(static_cast<std::size_t>(z.n()) + 1, 0);
  for (std::size_t i = 0; i < n_draws; ++i) {
    const std::int64_t k = z.sample(e);
    REQUIRE(k >= 1);
    REQUIRE(k <= z.n());
    ++counts[static_cast<std::size_t>(k)];
  }
  double d = 0.0, acc = 0.0;
  for (std::int64_t k = 1; k <= z.n(); ++k) {
    acc += static_cast<double>(counts[static_cast<std::size_t>(k)]);
    d = std::max(d, std::abs(acc / static_cast<double>(n_draws) - z.cdf(k)));
  }
  return d;
}

}  // namespace

TEST_CASE("Zipf: the pmf is k^-alpha normalised over 1..n and the cdf accumulates it", "[zipf]") {
  for (const double alpha : {0.0, 0.01, 0.5, 0.99, 1.0, 2.5}) {
    INFO("alpha = " << alpha);
    const Zipf z(alpha, 320);
    double h = 0.0;
    for (int k = 1; k <= 320; ++k) h += std::pow(k, -alpha);
    double sum = 0.0;
    for (int k = 1; k <= 320; ++k) {
      CHECK(z.pmf(k) == Approx(std::pow(k, -alpha) / h).epsilon(1e-12));
      sum += z.pmf(k);
      CHECK(z.cdf(k) == Approx(sum).epsilon(1e-12));
    }
    CHECK(sum == Approx(1.0).epsilon(1e-12));
    CHECK(z.cdf(320) == 1.0);
    CHECK(z.cdf(0) == 0.0);
    CHECK(z.pmf(0) == 0.0);
    CHECK(z.pmf(321) == 0.0);
  }
  // alpha = 0 is uniform; a skewed law puts its largest mass on rank 1.
  CHECK(Zipf(0.0, 10).pmf(7) == Approx(0.1));
  CHECK(Zipf(0.99, 320).pmf(1) > 30 * Zipf(0.99, 320).pmf(320));
}

TEST_CASE("Zipf: alias sampling matches the cdf (K-S, seed 20240601, 0.1 % level)",
          "[zipf][statistical]") {
  const std::size_t n = 200000;
  for (const double alpha : {0.01, 0.5, 0.99, 1.5}) {
    for (const std::int64_t ranks :
         {std::int64_t{1}, std::int64_t{7}, std::int64_t{320}, std::int64_t{5000}}) {
      INFO("alpha = " << alpha << ", n = " << ranks);
      const Zipf z(alpha, ranks);
      CHECK(zipf_ks(z, n) < 1.95 / std::sqrt(static_cast<double>(n)));
    }
  }
}

TEST_CASE("Zipf: the K-S check has power: a uniform law fails against Zipf(0.5)",
          "[zipf][statistical]") {
  // A sampler that ignored alpha would draw Zipf(0, n); its distance to Zipf(0.5, n) is large.
  const Zipf uniform(0.0, 320), skewed(0.5, 320);
  Engine e = make_stream(20240601, 0, Purpose::locations, "power");
  const std::size_t n = 20000;
  std::vector<double> counts(321, 0.0);
  for (std::size_t i = 0; i < n; ++i) counts[static_cast<std::size_t>(uniform.sample(e))] += 1;
  double d = 0, acc = 0;
  for (int k = 1; k <= 320; ++k) {
    acc += counts[static_cast<std::size_t>(k)] / static_cast<double>(n);
    d = std::max(d, std::abs(acc - skewed.cdf(k)));
  }
  CHECK(d > 10 * 1.95 / std::sqrt(static_cast<double>(n)));
}

TEST_CASE("Zipf: rank 1's frequency matches pmf(1) for Zhang's alphas", "[zipf][statistical]") {
  const std::size_t n = 100000;
  for (const double alpha : {0.01, 0.5, 0.99}) {
    const Zipf z(alpha, 320);
    Engine e = make_stream(20240601, 1, Purpose::locations, "rank1");
    std::size_t ones = 0;
    for (std::size_t i = 0; i < n; ++i) ones += z.sample(e) == 1;
    const double p = z.pmf(1);
    const double sd = std::sqrt(p * (1 - p) / static_cast<double>(n));
    INFO("alpha = " << alpha << ", p = " << p);
    CHECK(std::abs(static_cast<double>(ones) / static_cast<double>(n) - p) < 4.5 * sd);
  }
}

TEST_CASE("Zipf: the same stream gives the same ranks", "[zipf]") {
  const Zipf z(0.99, 320);
  Engine a = make_stream(7, 3, Purpose::locations, "same"), b = a;
  for (int i = 0; i < 1000; ++i) REQUIRE(z.sample(a) == z.sample(b));
}
