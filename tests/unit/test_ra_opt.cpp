// RA-Opt (Gottumukkala Fig. 6.6): Table 6.1's k = 14; the k it grows to against the argmin of
// Eq. 6.1 by brute force; and E[T_c(k)] as ra_opt_grow computes it, node by node, against the
// same quadrature written out from scratch for each k: M = sum_q w_q exp(-sum_i H_i(y_q))
// (Eqs. 4.10, 4.12) over every point of the grid, F = 1 - exp(-sum_i H_i(T_c(k))). Steep Weibull
// fits (shapes up to 18, as the Ch. 6 traces' per-node fits give) drop from survival 1 to 0
// within one of the grid's doubling intervals, so a grid cut short at the first point past a
// threshold loses points that still count; moderate shapes and exponential nodes of a few scales
// beside them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/reliability/system.hpp"

using namespace faultsweep;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// E[T_c(k)] of the first k nodes, every sum taken afresh in node order.
double reference(const std::vector<policy::PlanNode>& nodes, int k, double one_s,
                 const workload::Speedup& speedup, double recovery_s) {
  std::size_t lead = 0;
  while (!(nodes[lead].scale_s < kInf)) ++lead;
  const policy::PlanNode ref = nodes[lead];
  const double hi = reliability::median_of([&](double y) { return ref.hazard(y); });
  const reliability::SurvivalGrid grid = reliability::survival_grid(hi * std::ldexp(1.0, -30), hi);
  const auto system_hazard = [&](double y) {
    double h = 0;
    for (int i = 0; i < k; ++i) h += nodes[static_cast<std::size_t>(i)].hazard(y);
    return h;
  };
  double m = 0;
  for (std::size_t q = 0; q < grid.y.size(); ++q)
    m += grid.w[q] * std::exp(-system_hazard(grid.y[q]));
  const double t = one_s * speedup.relative_time(k);
  const double h = system_hazard(t);
  if (h <= 0) return t;
  const double r = std::exp(-h);
  return t + (m + recovery_s) * (1 - r) / r;
}

}  // namespace

TEST_CASE("RA-Opt: Table 6.1 gives k = 14, E = 392.9122 h", "[reliability_alloc]") {
  const double c[] = {1, 1, 1, 2, 2, 3, 6, 8, 10, 12, 12, 16, 18, 20, 30};
  std::vector<policy::PlanNode> nodes;
  for (const double ci : c) nodes.push_back({1.0, 35040.0 / ci, 0});
  for (const double r : {0.0011, 0.0012, 0.0013, 0.0014, 0.0014}) nodes.push_back({1.0, 1 / r, 0});
  // p = 0.895: serial fraction 0.105, T_c(1) = 1000 h, R = 0 (times in hours here).
  CHECK(policy::ra_opt_grow(nodes, 1000, workload::Speedup{0.105}, 0) == 14);
  CHECK(policy::expected_completion(nodes, 14, 1000, workload::Speedup{0.105}, 0) ==
        Approx(392.9122).margin(5e-3));
}

TEST_CASE(
    "RA-Opt's k is the argmin of E[T_c(k)] over k for its node order (brute force), "
    "under Amdahl's and Gustafson's laws",
    "[reliability_alloc]") {
  Engine rng = make_stream(7, 0, Purpose::failures, "ra_opt");
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + static_cast<int>(uniform01(rng) * 30);
    std::vector<policy::PlanNode> nodes;
    for (int i = 0; i < n; ++i)
      nodes.push_back(
          {0.5 + uniform01(rng), 2000 * std::exp(3 * uniform01(rng)), 500 * uniform01(rng)});
    const double one = 50 + 2000 * uniform01(rng);
    // Odd trials: Gustafson's law (Eq. 6.3), even: Amdahl's (Eq. 6.2).
    const workload::Speedup f{0.2 * uniform01(rng), trial % 2 == 1 ? workload::SpeedupLaw::gustafson
                                                                   : workload::SpeedupLaw::amdahl};
    std::sort(nodes.begin(), nodes.end(),
              [&](const auto& x, const auto& y) { return x.hazard(one) < y.hazard(one); });
    std::vector<double> e;
    for (int k = 1; k <= n; ++k) e.push_back(policy::expected_completion(nodes, k, one, f, 10));
    const int argmin = static_cast<int>(std::min_element(e.begin(), e.end()) - e.begin()) + 1;
    // Fig. 6.6 stops at the first increase: it is the argmin where E is unimodal.
    bool unimodal = true;
    for (int k = argmin; k < n; ++k) unimodal = unimodal && e[k] >= e[k - 1];
    for (int k = 1; k < argmin; ++k) unimodal = unimodal && e[k] <= e[k - 1];
    if (!unimodal) continue;
    ++checked;
    INFO("trial " << trial << " n " << n);
    CHECK(policy::ra_opt_grow(nodes, one, f, 10) == argmin);
  }
  CHECK(checked >= 30);
}

TEST_CASE("RA-Opt: E[T_c(k)] node by node = the grid's quadrature from scratch at every k",
          "[reliability_alloc]") {
  Engine rng = make_stream(11, 0, Purpose::failures, "ra_opt_quadrature");
  double worst = 0;
  int values = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const bool steep = trial % 2 == 0;
    const int n = 20 + static_cast<int>(uniform01(rng) * 60);
    std::vector<policy::PlanNode> nodes;
    for (int i = 0; i < n; ++i) {
      const double u = uniform01(rng);
      if (u < 0.3) {  // exponential, one of three scales (the refits' failure-count buckets)
        nodes.push_back(
            {1.0, (steep ? 2e7 : 3000) * (1 + static_cast<int>(3 * uniform01(rng))), 0});
      } else if (steep) {  // as the Ch. 6 traces' fits: shape 2-18, scale ~80 d, age 0-20 d
        nodes.push_back(
            {2 + 16 * uniform01(rng), 5.3e6 + 2.8e6 * uniform01(rng), 1.7e6 * uniform01(rng)});
      } else {
        nodes.push_back({0.5 + 2.5 * uniform01(rng), 2000 * std::exp(3 * uniform01(rng)),
                         500 * uniform01(rng)});
      }
    }
    if (trial % 5 == 0) nodes.insert(nodes.begin(), {1.0, kInf, 0});  // a node that never fails
    const double one_s = steep ? 3.36e6 : 50 + 2000 * uniform01(rng);
    const workload::Speedup speedup{steep ? 0.01 : 0.2 * uniform01(rng)};
    const double recovery_s = trial % 3 == 0 ? 0 : 600;
    std::sort(nodes.begin(), nodes.end(),
              [&](const auto& x, const auto& y) { return x.hazard(one_s) < y.hazard(one_s); });
    std::vector<double> e;
    const int k = policy::ra_opt_grow(nodes, one_s, speedup, recovery_s, &e);
    REQUIRE(e.size() == static_cast<std::size_t>(std::min(k + 1, n)));
    for (std::size_t i = 0; i < e.size(); ++i) {
      const double want = reference(nodes, static_cast<int>(i) + 1, one_s, speedup, recovery_s);
      INFO("trial " << trial << ", k " << i + 1);
      // The two differ only in rounding: products against sums of up to 80 terms per point.
      CHECK(std::abs(e[i] - want) <= 1e-12 * want);
      worst = std::max(worst, std::abs(e[i] - want) / want);
      ++values;
    }
  }
  CHECK(values > 200);
  WARN("largest relative difference " << worst << " over " << values << " values of E");
}

TEST_CASE(
    "RA-Opt: E[T_c(k)] with a hundred exponential scales (past those it keeps) = from scratch",
    "[reliability_alloc]") {
  // Very reliable nodes, each of its own scale, and a job that speeds up almost linearly:
  // Fig. 6.6 grows k through all of them.
  std::vector<policy::PlanNode> nodes;
  for (int i = 0; i < 100; ++i) nodes.push_back({1.0, 2e9 / (1 + 0.01 * i), 0});
  nodes.push_back({1.5, 4e8, 1e6});  // and one Weibull node last
  const double one_s = 1e5;
  const workload::Speedup speedup{0.001};
  std::vector<double> e;
  const int k = policy::ra_opt_grow(nodes, one_s, speedup, 600, &e);
  REQUIRE(k > 90);
  for (std::size_t i = 0; i < e.size(); ++i) {
    INFO("k " << i + 1);
    const double want = reference(nodes, static_cast<int>(i) + 1, one_s, speedup, 600);
    CHECK(std::abs(e[i] - want) <= 1e-12 * want);
  }
}
