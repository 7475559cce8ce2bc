#include "faultsweep/reliability/completion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"

namespace faultsweep::reliability {

double speedup(Scaling scaling, double p, int k) {
  FS_CHECK(k >= 1 && p >= 0 && p <= 1, "speedup: k >= 1 and 0 <= p <= 1");
  if (scaling == Scaling::amdahl) return 1.0 / (p / k + (1.0 - p));  // Gottumukkala Eq. 6.2
  return (1.0 - p) + k * p;                                          // Gottumukkala Eq. 6.3
}

KNodePlanner::KNodePlanner(std::vector<Node> nodes, CompletionJob job)
    : nodes_(std::move(nodes)), job_(job) {
  FS_CHECK(!nodes_.empty(), "KNodePlanner without nodes");
  // Fig. 6.6 lines 2-5: R(i) for every node, sorted descending (by cumulative hazard ascending).
  std::vector<std::pair<double, std::size_t>> key(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    key[i] = {excess_cumulative_hazard(nodes_[i], job_.runtime_one), i};
  std::stable_sort(key.begin(), key.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Node> sorted;
  sorted.reserve(nodes_.size());
  for (const auto& [h, i] : key) sorted.push_back(nodes_[i]);
  nodes_ = std::move(sorted);

  const auto& first = nodes_.front().law;
  bool expo = true, weib = first.kind() == dist::Kind::weibull;
  for (const Node& n : nodes_) {
    expo = expo && n.law.kind() == dist::Kind::exponential;
    weib = weib && n.law.kind() == dist::Kind::weibull && n.law.p1() == first.p1() && n.age == 0;
  }
  if (expo || weib) {
    path_ = expo ? Path::exponential : Path::weibull_common;
    prefix_.resize(nodes_.size() + 1, 0.0);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto& d = nodes_[i].law;
      prefix_[i + 1] = prefix_[i] + (expo ? 1.0 / d.p1() : std::pow(d.p2(), -d.p1()));
    }
  }
}

CompletionPoint KNodePlanner::at(int k) const {
  FS_CHECK(k >= 1 && k <= nodes(), "KNodePlanner::at: k out of range");
  CompletionPoint c;
  c.k = k;
  c.speedup = speedup(job_.scaling, job_.p, k);
  c.runtime = job_.runtime_one / c.speedup;
  const double T = c.runtime;
  if (path_ == Path::exponential) {
    const double rate = prefix_[k];
    c.reliability = std::exp(-rate * T);
    c.failure_rate = rate;
    c.mttf = 1.0 / rate;
  } else if (path_ == Path::weibull_common) {
    // k Weibull nodes of one shape b, age 0: a Weibull of shape b, scale (sum a_i^-b)^(-1/b).
    const double b = nodes_.front().law.p1();
    const double scale = std::pow(prefix_[k], -1.0 / b);
    const dist::Dist sys = dist::Dist::weibull(b, scale);
    c.reliability = sys.survival(T);
    c.failure_rate = sys.hazard(T);
    c.mttf = sys.mean();
  } else {
    const std::vector<Node> chosen(nodes_.begin(), nodes_.begin() + k);
    c.reliability = system_reliability(chosen, T);
    c.failure_rate = system_failure_rate(chosen, T);
    c.mttf = system_mttf(chosen);
  }
  c.expected = expected(T, c.reliability, c.mttf);
  return c;
}

double KNodePlanner::expected(double runtime, double reliability, double mttf) const {
  if (!job_.with_reliability) return runtime;
  // Gottumukkala Eq. 6.1: T_c(k) + (M + R) F / (1 - F).
  return reliability > 0 ? runtime + (mttf + job_.recovery) * (1.0 - reliability) / reliability
                         : std::numeric_limits<double>::infinity();
}

int KNodePlanner::optimum_general(int k_max) const {
  // The k-node MTTF (Eq. 4.12) on one grid for every k, the cumulative hazard at its points
  // accumulated node by node: O(k_max * grid) instead of an integral over k nodes at every k.
  // R_sys at T_c(k) still sums over the k nodes: O(k_max^2) hazard evaluations.
  const std::vector<Node> all(nodes_.begin(), nodes_.begin() + k_max);
  const double lo = median_of([&](double y) {
    double h = 0;
    for (const Node& n : all) h += excess_cumulative_hazard(n, y);
    return h;
  });
  const double hi = median_of([&](double y) { return excess_cumulative_hazard(nodes_[0], y); });
  const SurvivalGrid grid = survival_grid(lo, hi);
  // Weibull nodes: H(age + x) - H(age) with H(age) computed once per node (Eq. 4.3).
  std::vector<double> at_age(static_cast<std::size_t>(k_max));
  for (int i = 0; i < k_max; ++i) {
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    at_age[i] = n.law.kind() == dist::Kind::weibull ? std::pow(n.age / n.law.p2(), n.law.p1()) : 0;
  }
  auto excess = [&](int i, double x) {
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    if (n.law.kind() != dist::Kind::weibull) return excess_cumulative_hazard(n, x);
    return std::pow((n.age + x) / n.law.p2(), n.law.p1()) - at_age[i];
  };
  std::vector<double> h(grid.y.size(), 0.0);
  int best_k = 1;
  double best = std::numeric_limits<double>::infinity();
  for (int k = 1; k <= k_max; ++k) {
    double mttf = 0;
    for (std::size_t q = 0; q < h.size(); ++q) {
      h[q] += excess(k - 1, grid.y[q]);
      mttf += grid.w[q] * std::exp(-h[q]);
    }
    const double T = job_.runtime_one / speedup(job_.scaling, job_.p, k);
    double hazard = 0;
    for (int i = 0; i < k; ++i) hazard += excess(i, T);
    const double e = expected(T, std::exp(-hazard), mttf);
    if (e < best) best = e, best_k = k;
  }
  return best_k;
}

CompletionPoint KNodePlanner::optimum(int k_max) const {
  k_max = std::min(k_max, nodes());
  if (path_ == Path::general) return at(optimum_general(k_max));
  CompletionPoint best = at(1);
  for (int k = 2; k <= k_max; ++k) {
    const CompletionPoint c = at(k);
    if (c.expected < best.expected) best = c;
  }
  return best;
}

}  // namespace faultsweep::reliability
