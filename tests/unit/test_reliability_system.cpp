// Systems of k nodes (Gottumukkala Ch. 4): the §4.4 numerical example to the printed digits,
// the system-TTF algorithm of Fig. 4.1, and the §4.3 chi-square validation of the excess-life
// model by simulation.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/reliability/gof.hpp"
#include "faultsweep/reliability/system.hpp"

using namespace faultsweep;
using namespace faultsweep::reliability;

namespace {

std::vector<Node> three_nodes(double t) {
  // §4.4: alpha = 1542 (scale), beta = 0.8606 (shape), every node survived t.
  return std::vector<Node>(3, Node{dist::Dist::weibull(0.8606, 1542.0), t});
}

}  // namespace

TEST_CASE("§4.4: R_sys, failure rate and MTTF of the four (t, x) cases to the printed digits",
          "[reliability][gottumukkala]") {
  struct Case {
    double t, x, R, rate, mttf;
  };
  // Figs. 4.4-4.7: R to 4 decimals, failure rate to 4 decimals, MTTF to 4 decimals.
  const Case cases[] = {{0, 100, 0.7521, 0.0025, 464.4902},
                        {300, 500, 0.3782, 0.0018, 536.8430},
                        {200, 350, 0.4877, 0.0019, 522.4005},
                        {50, 150, 0.6974, 0.0022, 489.5752}};
  for (const Case& c : cases) {
    INFO("t = " << c.t << ", x = " << c.x);
    const auto nodes = three_nodes(c.t);
    CHECK(std::round(system_reliability(nodes, c.x) * 1e4) / 1e4 == c.R);
    CHECK(std::round((1 - system_reliability(nodes, c.x)) * 1e4) / 1e4 == Approx(1 - c.R));
    CHECK(std::round(system_failure_rate(nodes, c.x) * 1e4) / 1e4 == c.rate);
    CHECK(std::round(system_mttf(nodes) * 1e4) / 1e4 == Approx(c.mttf).margin(1e-9));
  }
}

TEST_CASE("The MTTF integral is exact where a closed form exists", "[reliability]") {
  // Three fresh Weibull nodes form a Weibull of scale alpha / 3^(1/beta).
  const double b = 0.8606, a = 1542.0;
  const double exact = a / std::pow(3.0, 1 / b) * std::tgamma(1 + 1 / b);
  CHECK(system_mttf(three_nodes(0)) == Approx(exact).epsilon(1e-10));
  // Mixed exponential nodes: 1 / sum of rates.
  const std::vector<Node> ex = {{dist::Dist::exponential(100.0), 0},
                                {dist::Dist::exponential(50.0), 7}};
  CHECK(system_mttf(ex) == Approx(100.0 / 3));
  // A lognormal and a Weibull node through the general integral against a fine Riemann sum.
  const std::vector<Node> mix = {{dist::Dist::lognormal(5.0, 1.0), 20},
                                 {dist::Dist::weibull(1.5, 300.0), 0}};
  double riemann = 0;
  for (double y = 0.005; y < 5000; y += 0.01) riemann += 0.01 * system_reliability(mix, y);
  CHECK(system_mttf(mix) == Approx(riemann).epsilon(1e-6));
}

TEST_CASE("Fig. 4.1: system TTFs are the gaps of the merged failure times", "[reliability]") {
  // Fig. 4.2's example shape: node 1 fails at 10, 40, 70; node 2 at 25, 55; simultaneous failures
  // at 70 (node 2 again) count once.
  const auto ttf = system_ttfs({{10, 40, 70}, {25, 55, 70}});
  CHECK(ttf == std::vector<double>{15, 15, 15, 15});
  CHECK(system_ttfs({{5}}).empty());
  // Table 4.1's first failures: system failures at 1114, 1503, 1667, 2347 (nodes 2, 3, 1, 2).
  const auto t41 = system_ttfs({{1667, 6472}, {1114, 2347}, {1503, 3875}});
  CHECK(t41 == std::vector<double>{389, 164, 680, 1528, 2597});
}

TEST_CASE(
    "§4.3: system TTFs simulated by Eq. 4.14 pass the chi-square test against Eq. 4.10, "
    "the same draws fail against fresh nodes (seed 43)",
    "[reliability][gottumukkala]") {
  // Two nodes, alpha = 1000, beta = 0.8 as in §4.3, survived t = 300 and 50.
  const std::vector<Node> nodes = {{dist::Dist::weibull(0.8, 1000.0), 300},
                                   {dist::Dist::weibull(0.8, 1000.0), 50}};
  Engine e = make_stream(43, 0, Purpose::failures, "test_reliability_system");
  std::vector<double> ttf(20000);
  for (double& x : ttf) x = sample_system_ttf(nodes, e);
  const std::vector<double> edges = {0, 50, 100, 200, 400, 600, 800, 1000, 1500, 2500, 1e7};
  const auto cdf = [&](double x) { return 1 - system_reliability(nodes, x); };
  const ChiSquareResult right = chi_square_test(ttf, edges, cdf, 0);
  CHECK(right.dof == 9);
  CHECK(right.p > 0.001);
  const std::vector<Node> fresh = {{dist::Dist::weibull(0.8, 1000.0), 0},
                                   {dist::Dist::weibull(0.8, 1000.0), 0}};
  const ChiSquareResult wrong = chi_square_test(
      ttf, edges, [&](double x) { return 1 - system_reliability(fresh, x); }, 0);
  CHECK(wrong.p < 1e-12);
  // Estimated parameters lower the degrees of freedom (m - c - 1, §4.3).
  CHECK(chi_square_test(ttf, edges, cdf, 2).dof == 7);
}
