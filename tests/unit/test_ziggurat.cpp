// The ziggurat's exponential draws (core/ziggurat.hpp) against Exp(1): moments, 256 bins of equal
// probability (which see the layers' wedges), and the tail beyond the base strip's end r.
// Seed 20261129, 4,000,000 draws; each bound is about 5 standard errors (the chi-square one
// p ~ 1e-5), so a correct sampler fails it about once in 10^5 runs and the seed is fixed.
// Power, measured by running each mistake in turn (this seed; the correct sampler: chi-square 257,
// 1,896 draws beyond r, largest 15.6): accepting every point of a box (no wedge test) gives
// chi-square 1,228 and moves the mean and variance; returning the point itself in the base layer
// instead of r + Exp(1) leaves the largest draw at 8.70 and the tail's mean wrong; taking the
// layer from the point's own top bits gives chi-square 2 x 10^7 and 46 draws beyond r.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/core/ziggurat.hpp"

TEST_CASE("ziggurat: exponential draws follow Exp(1) in the body, the wedges and the tail",
          "[rng]") {
  faultsweep::Engine e(20261129);
  const faultsweep::ExpZiggurat exp1;
  constexpr int kN = 4'000'000, kBins = 256;
  const double r = 7.69711747013104972;  // where the base strip ends and the tail begins
  std::vector<double> bins(kBins, 0.0);
  double sum = 0, sum2 = 0, tail = 0, tail_excess = 0, largest = 0;
  for (int k = 0; k < kN; ++k) {
    const double x = exp1(e);
    REQUIRE(x >= 0);
    REQUIRE(std::isfinite(x));
    sum += x, sum2 += x * x;
    largest = std::max(largest, x);
    // Bin j holds [-ln(1 - j / 256), -ln(1 - (j + 1) / 256)): probability 1 / 256 each.
    const double cdf = -std::expm1(-x);
    bins[static_cast<std::size_t>(std::min(kBins - 1, static_cast<int>(cdf * kBins)))] += 1;
    if (x > r) tail += 1, tail_excess += x - r;
  }
  const double n = kN, mean = sum / n, var = sum2 / n - mean * mean;
  CHECK(std::abs(mean - 1) <= 5 / std::sqrt(n));     // SE of the mean: 1 / sqrt(n)
  CHECK(std::abs(var - 1) <= 5 * std::sqrt(8 / n));  // SE of the variance: sqrt(8 / n)
  double chi2 = 0;
  for (const double c : bins) chi2 += (c - n / kBins) * (c - n / kBins) / (n / kBins);
  INFO("chi-square over 256 equiprobable bins: " << chi2);
  CHECK(chi2 < 363);  // 255 degrees of freedom: P(chi2 > 363) ~ 1e-5
  // Beyond r: probability e^-r (1,816 of 4 million expected), and Exp(1) again past r.
  const double expected_tail = n * std::exp(-r);
  INFO("draws beyond r: " << tail << " (expected " << expected_tail << "), largest " << largest);
  CHECK(std::abs(tail - expected_tail) <= 5 * std::sqrt(expected_tail));
  CHECK(std::abs(tail_excess / tail - 1) <= 5 / std::sqrt(tail));
  CHECK(largest > 9);  // past the base rectangle's X_0 = 8.70: the tail is drawn, not clipped
}

TEST_CASE("ziggurat: the same engine state gives the same draws", "[rng]") {
  const faultsweep::ExpZiggurat exp1;
  faultsweep::Engine a(7), b(7);
  for (int k = 0; k < 1000; ++k) REQUIRE(exp1(a) == exp1(b));
}
