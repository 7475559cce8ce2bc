#include "faultsweep/reliability/system.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"

namespace faultsweep::reliability {
namespace {

constexpr int kGaussPoints = 20;
constexpr double kPi = 3.14159265358979323846;

struct GaussLegendre {
  std::array<double, kGaussPoints> x{}, w{};
  GaussLegendre() {
    // Roots of P_n by Newton from Tricomi's approximation; weights 2 / ((1 - x^2) P_n'(x)^2).
    const int n = kGaussPoints;
    for (int i = 0; i < n; ++i) {
      double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
      double dp = 0;
      for (int it = 0; it < 100; ++it) {
        double p0 = 1, p1 = z;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
          p0 = p1, p1 = p2;
        }
        dp = n * (z * p1 - p0) / (z * z - 1);
        const double dz = p1 / dp;
        z -= dz;
        if (std::abs(dz) < 1e-16) break;
      }
      x[i] = z;
      w[i] = 2 / ((1 - z * z) * dp * dp);
    }
  }
};

const GaussLegendre& gauss() {
  static const GaussLegendre g;
  return g;
}

}  // namespace

std::vector<double> system_ttfs(const std::vector<std::vector<double>>& node_failure_times) {
  std::vector<double> all;
  for (const auto& node : node_failure_times) all.insert(all.end(), node.begin(), node.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());  // simultaneous: one interruption
  std::vector<double> ttf;
  for (std::size_t i = 1; i < all.size(); ++i) ttf.push_back(all[i] - all[i - 1]);
  return ttf;
}

double excess_cumulative_hazard(const Node& n, double x) {
  const dist::Dist& d = n.law;
  if (d.kind() == dist::Kind::exponential) return x / d.p1();
  if (d.kind() == dist::Kind::weibull) {
    // Gottumukkala Eq. 4.3: H(t + x | t) = 1 - exp((t^beta - (t + x)^beta) / alpha^beta).
    return std::pow((n.age + x) / d.p2(), d.p1()) - std::pow(n.age / d.p2(), d.p1());
  }
  return std::log(d.survival(n.age)) - std::log(d.survival(n.age + x));
}

double system_reliability(const std::vector<Node>& nodes, double x) {
  double h = 0;
  for (const Node& n : nodes) h += excess_cumulative_hazard(n, x);
  return std::exp(-h);  // Gottumukkala Eq. 4.10: prod (1 - F_i)
}

double system_failure_rate(const std::vector<Node>& nodes, double x) {
  double rate = 0;
  for (const Node& n : nodes) rate += n.law.hazard(n.age + x);  // Eq. 4.11: s_j / (1 - S_j)
  return rate;
}

double median_of(const std::function<double(double)>& cumulative_hazard) {
  // Within a factor 2: enough to place a grid of doubling intervals.
  double m = 1.0;
  for (int i = 0; i < 2000 && cumulative_hazard(m) < std::log(2.0); ++i) m *= 2;
  for (int i = 0; i < 2000 && cumulative_hazard(m) > std::log(2.0); ++i) m /= 2;
  return m;
}

SurvivalGrid survival_grid(double lo_median, double hi_median) {
  // [0, lo 2^-40], then doubling intervals up to hi 2^40, 20 Gauss-Legendre points each.
  const GaussLegendre& g = gauss();
  SurvivalGrid grid;
  double lo = 0, hi = lo_median * std::ldexp(1.0, -40);
  const double end = hi_median * std::ldexp(1.0, 40);
  while (lo < end) {
    const double half = 0.5 * (hi - lo), mid = 0.5 * (hi + lo);
    for (int i = 0; i < kGaussPoints; ++i) {
      grid.y.push_back(mid + half * g.x[i]);
      grid.w.push_back(half * g.w[i]);
    }
    lo = hi, hi *= 2;
  }
  return grid;
}

double integrate_survival(const std::function<double(double)>& cumulative_hazard) {
  // The median m sets the grid: [0, m 2^-40], then doubling intervals up to m 2^40 or until
  // the survival is negligible.
  const double m = median_of(cumulative_hazard);
  const GaussLegendre& g = gauss();
  double total = 0, lo = 0, hi = m * std::ldexp(1.0, -40);
  for (int j = 0; j < 200; ++j) {
    double part = 0;
    const double half = 0.5 * (hi - lo), mid = 0.5 * (hi + lo);
    for (int i = 0; i < kGaussPoints; ++i)
      part += g.w[i] * std::exp(-cumulative_hazard(mid + half * g.x[i]));
    total += half * part;
    if (j > 40 && std::exp(-cumulative_hazard(hi)) * hi < 1e-18 * total) break;
    lo = hi, hi *= 2;
  }
  return total;
}

double system_mttf(const std::vector<Node>& nodes) {
  FS_CHECK(!nodes.empty(), "system_mttf of no nodes");
  bool all_exponential = true;
  double rate = 0;
  for (const Node& n : nodes) {
    all_exponential = all_exponential && n.law.kind() == dist::Kind::exponential;
    if (all_exponential) rate += 1.0 / n.law.p1();
  }
  if (all_exponential) return 1.0 / rate;  // memoryless: the series system is exponential
  // Gottumukkala Eq. 4.12, E[x] = int x s(x) dx = int R_sys(x) dx (by parts).
  return integrate_survival([&](double y) {
    double h = 0;
    for (const Node& n : nodes) h += excess_cumulative_hazard(n, y);
    return h;
  });
}

double sample_system_ttf(const std::vector<Node>& nodes, Engine& e) {
  double best = std::numeric_limits<double>::infinity();
  for (const Node& n : nodes) best = std::min(best, n.law.sample_excess(e, n.age));  // Eq. 4.14
  return best;
}

}  // namespace faultsweep::reliability
