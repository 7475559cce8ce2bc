// RA-Opt (Gottumukkala Fig. 6.6) and ALL (§6.4.1.1) size choosers; see reliability_aware.hpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/reliability/system.hpp"

namespace faultsweep::policy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// T_c(k) = T_c(1) t(k): Amdahl (Gottumukkala Eq. 6.2) or Gustafson (Eq. 6.3), workload/job.hpp.
double runtime_at(double runtime_one_s, const workload::Speedup& speedup, int k) {
  return runtime_one_s * speedup.relative_time(k);
}

// Gottumukkala Eq. 6.1: T + (M + R) F / (1 - F), F = 1 - exp(-H) (H the system's cumulative
// hazard over T); F = 0 gives T whatever M (a system that never fails has M = inf).
double eq_6_1(double runtime_s, double hazard, double mttf_s, double recovery_s) {
  if (hazard <= 0) return runtime_s;
  const double r = std::exp(-hazard);
  return r > 0 ? runtime_s + (mttf_s + recovery_s) * (1.0 - r) / r : kInf;
}

}  // namespace

double PlanNode::at_age() const {
  return scale_s < kInf && shape != 1.0 ? std::pow(age_s / scale_s, shape) : 0.0;
}

double PlanNode::hazard(double x_s, double at_age) const {
  if (!(scale_s < kInf)) return 0;
  if (shape == 1.0) return x_s / scale_s;  // Eq. 5.3
  // Eq. 5.2: ((t + x)/eta)^beta - (t/eta)^beta.
  return std::pow((age_s + x_s) / scale_s, shape) - at_age;
}

double PlanNode::hazard(double x_s) const {
  return hazard(x_s, at_age());
}

double expected_completion(std::span<const PlanNode> nodes, int k, double runtime_one_s,
                           const workload::Speedup& speedup, double recovery_s) {
  FS_CHECK(k >= 1 && static_cast<std::size_t>(k) <= nodes.size(), "expected_completion: k");
  const auto first = nodes.first(static_cast<std::size_t>(k));
  const auto system_hazard = [&](double y) {
    double h = 0;
    for (const PlanNode& n : first) h += n.hazard(y);
    return h;
  };
  const double t = runtime_at(runtime_one_s, speedup, k);
  const double h = system_hazard(t);
  if (h <= 0) return t;
  return eq_6_1(t, h, reliability::integrate_survival(system_hazard), recovery_s);
}

namespace {

// The survival of the first k nodes at each point of one quadrature grid, times the point's
// weight, kept as a product of the nodes' own survivals exp(-H_i(y)) (Eq. 4.10), so that adding
// a node costs a multiply per point: an exponential node's factors exp(-y / scale) are made once
// per scale (the exponential nodes come in a few scales: one per failure count), a Weibull
// node's (Eq. 5.2) per node. Their sum is M = int_0^inf R_sys (Eq. 4.12).
class SurvivalProduct {
 public:
  explicit SurvivalProduct(const reliability::SurvivalGrid& grid)
      : grid_(grid), wp_(grid.w), live_(wp_.size()) {}

  // An exponential node of this scale (Eq. 5.3). Aligned to a cache line so that its loop sits
  // at the same offset within one whatever the code around it: placed with its closing compare
  // and branch across two lines it took 1.5x as long, 7 % of RA-Opt's time (x86-64, GCC 12).
  [[gnu::aligned(64)]] void add_exponential(double scale_s) {
    const double* f = factors(scale_s);
    double m[4] = {0, 0, 0, 0};
    std::size_t q = 0;
    for (; q + 4 <= live_; q += 4)
      for (std::size_t j = 0; j < 4; ++j) m[j] += wp_[q + j] *= f[q + j];
    for (; q < live_; ++q) m[0] += wp_[q] *= f[q];
    mttf_ = (m[0] + m[1]) + (m[2] + m[3]);
    drop_dead();
  }

  // A Weibull node (Eq. 5.2), given its at_age().
  void add_weibull(const PlanNode& node, double at_age) {
    weibull(node, at_age);
    mttf_ = 0;
    for (std::size_t q = 0; q < live_; ++q) mttf_ += wp_[q];
    drop_dead();
  }

  // M of the nodes added so far (0 before the first that can fail: then nothing asks).
  double mttf() const { return mttf_; }

 private:
  static constexpr double kDead = 1e-300;
  static constexpr double kSmall = 0x1p-20;
  static constexpr std::size_t kScales = 64;

  // A point whose term fell below kDead stays there for every larger k (no factor exceeds 1)
  // and does not show in M: the dead points at the end of the grid are dropped.
  void drop_dead() {
    while (live_ > 0 && wp_[live_ - 1] < kDead) --live_;
  }

  // A Weibull node's factors exp(-H(y)), H(y) = ((age + y) / eta)^beta - (age / eta)^beta (Eq.
  // 5.2). Where (beta + 3) u <= 2^-16, u = y / age (most of the grid's points: it reaches far
  // below any age), H = (age / eta)^beta ((1 + u)^beta - 1) by three terms of the binomial
  // series (the rest below ((beta + 3) u)^3 / 24 < 2^-52 of H), without the cancellation of the
  // difference of powers; exp(-H) by three terms of its series where H <= 2^-20 (the rest below
  // H^3 / 6 < 2^-62).
  void weibull(const PlanNode& node, double at_age) {
    const double beta = node.shape, age = node.age_s;
    const double series_to = age > 0 ? age * 0x1p-16 / (beta + 3) : 0;
    const double c2 = (beta - 1) / 2, c3 = (beta - 2) / 3;
    for (std::size_t q = 0; q < live_; ++q) {
      const double y = grid_.y[q];
      if (y <= series_to) {
        const double u = y / age, h = at_age * beta * u * (1 + c2 * u * (1 + c3 * u));
        wp_[q] *= h <= kSmall ? 1 - h * (1 - 0.5 * h) : std::exp(-h);
      } else {
        wp_[q] *= std::exp(-node.hazard(y, at_age));
      }
    }
  }

  // An exponential scale's factors, made for the points live now (live_ only falls, so they
  // cover every later add). The refits give a few scales, one per failure count; past kScales
  // of them (a caller's own nodes may each have one) a scale's factors are made for its node
  // alone, so what is kept stays bounded.
  const double* factors(double scale_s) {
    for (const auto& [s, at] : scales_)
      if (s == scale_s) return pool_.data() + at;
    double* out = nullptr;
    if (scales_.size() < kScales) {
      const std::size_t at = pool_.size();
      pool_.resize(at + live_);
      scales_.emplace_back(scale_s, at);
      out = pool_.data() + at;
    } else {
      once_.resize(live_);
      out = once_.data();
    }
    for (std::size_t q = 0; q < live_; ++q) out[q] = std::exp(-(grid_.y[q] / scale_s));
    return out;
  }

  const reliability::SurvivalGrid& grid_;
  std::vector<double> wp_;  // w_q R_sys(y_q)
  std::size_t live_;
  double mttf_ = 0;
  std::vector<std::pair<double, std::size_t>> scales_;  // an exponential scale, its factors
  std::vector<double> pool_;
  std::vector<double> once_;  // the factors of a scale past kScales
};

// Fig. 6.6 over n nodes read one by one in order: node_at(i) for increasing i (it may produce
// the order lazily; growth usually stops long before n).
template <class NodeAt>
int grow(int n, NodeAt&& node_at, double runtime_one_s, const workload::Speedup& speedup,
         double recovery_s, std::vector<double>* trace = nullptr) {
  FS_CHECK(n >= 1, "ra_opt_grow without nodes");
  // One quadrature grid for M = int R_sys (Eq. 4.12) of every k: from 2^-30 x the median of the
  // first node that can fail (a system of k nodes of shape >= 0.5 has a median >= k^-2 times
  // its most reliable node's, k <= 2^15), to 2^40 x that median (survival_grid's margins).
  int lead = 0;
  while (lead < n && !(node_at(lead).scale_s < kInf)) ++lead;
  if (lead == n) return n;  // no node can fail: T_c(k) decreases with k
  const PlanNode ref = node_at(lead);
  const double hi = reliability::median_of([&](double y) { return ref.hazard(y); });
  const reliability::SurvivalGrid grid = reliability::survival_grid(hi * std::ldexp(1.0, -30), hi);
  SurvivalProduct survival(grid);
  // The system's hazard over T_c(k) (Eq. 4.10's exponent): the exponential nodes' rates summed
  // once, the Weibull nodes' Eq. 5.2 terms at each k's own T_c(k).
  double rate = 0;
  std::vector<std::pair<PlanNode, double>> weibull;  // a Weibull node, its at_age()
  const auto add_node = [&](const PlanNode& node) {
    if (!(node.scale_s < kInf)) return;  // never fails: survival 1, hazard 0
    if (node.shape == 1.0) {
      survival.add_exponential(node.scale_s);
      rate += 1.0 / node.scale_s;
    } else {
      weibull.emplace_back(node, node.at_age());
      survival.add_weibull(node, weibull.back().second);
    }
  };
  const auto expected = [&](int k) {
    const double t = runtime_at(runtime_one_s, speedup, k);
    double hz = t * rate;  // Eq. 5.3 summed
    for (const auto& [node, at_age] : weibull) hz += node.hazard(t, at_age);
    return hz <= 0 ? t : eq_6_1(t, hz, survival.mttf(), recovery_s);
  };
  // Fig. 6.6 lines 7-11: the most reliable node, then grow while E[T_c(k+1)] <= E[T_c(k)].
  add_node(node_at(0));
  int k = 1;
  double e = expected(1);
  if (trace != nullptr) trace->push_back(e);
  while (k < n) {
    stop_point();  // the search is O(n^2) hazards: seconds on 10^4 nodes
    add_node(node_at(k));
    const double next = expected(k + 1);
    if (trace != nullptr) trace->push_back(next);
    if (!(next <= e)) break;
    e = next;
    ++k;
  }
  return k;
}

}  // namespace

int ra_opt_grow(std::span<const PlanNode> nodes, double runtime_one_s,
                const workload::Speedup& speedup, double recovery_s,
                std::vector<double>* expected) {
  return grow(
      static_cast<int>(nodes.size()),
      [&](int i) -> const PlanNode& { return nodes[static_cast<std::size_t>(i)]; }, runtime_one_s,
      speedup, recovery_s, expected);
}

RaOptSize::RaOptSize(reliability::OnlineOptions options, double recovery_s)
    : model_(options), recovery_s_(recovery_s) {}

std::int32_t RaOptSize::choose(const SizeRequest& r) const {
  FS_CHECK(r.free != nullptr && r.history != nullptr && r.speedup != nullptr,
           "ra_opt: needs the free set, history and speedup law");
  if (r.free_nodes <= 0) return 0;
  const workload::Speedup& speedup = *r.speedup;
  model_.update(*r.history, r.now_s);
  // T_c(1) from the estimate at the requested size (Eq. 6.2 or 6.3).
  const double one_s = r.estimate_s / speedup.relative_time(r.requested);
  // Before the first refit every node is alike and never fails: T_c(k) decreases with k.
  if (!(model_.refit_instant() > 0)) return r.free_nodes;
  // Fig. 6.6 lines 2-5: R(i) over the one-node run time, sorted descending (hazard ascending).
  // Jobs started earlier in this pass (allocator "ra") took the most reliable of the free set.
  // Growing k reads the order only up to where it stops, so the order is produced for a prefix
  // of the nodes, doubled whenever the growth reads past it.
  order_nodes_.sync(model_, r.history->nodes());
  const auto skip = static_cast<std::size_t>(r.free->count() - r.free_nodes);
  const auto all = static_cast<std::size_t>(r.free_nodes);
  const auto extend = [&](std::size_t m) {
    order_nodes_.least(model_, *r.history, *r.free, r.now_s, one_s, skip + m, order_);
    const auto end = order_.end();
    plan_.clear();
    for (auto it = order_.begin() + static_cast<std::ptrdiff_t>(skip); it != end; ++it) {
      const std::int32_t n = it->second;
      const double last = r.history->last_failure_s(n);
      const double age =
          std::max(0.0, r.now_s - (last == failures::NodeHistory::kNever ? 0 : last));
      plan_.push_back({model_.shape(n), model_.scale_s(n), age});
    }
  };
  extend(std::min<std::size_t>(64, all));
  const auto node_at = [&](int i) {
    const auto at = static_cast<std::size_t>(i);
    if (at >= plan_.size()) extend(std::min(std::max(2 * plan_.size(), at + 1), all));
    return plan_[at];
  };
  return grow(static_cast<int>(all), node_at, one_s, speedup, recovery_s_);
}

std::int32_t AllSize::choose(const SizeRequest& r) const {
  FS_CHECK(r.free != nullptr && r.history != nullptr, "all: needs the free set and history");
  // Every up node (§6.4.1.1), once no job holds any: a node is down between a failure and its
  // repair (last failure after last repair).
  int up = 0;
  for (int n = 0; n < r.machine_nodes; ++n)
    if (!(r.history->last_failure_s(n) > r.history->last_repair_s(n))) ++up;
  return r.free_nodes > 0 && r.free_nodes >= up ? r.free_nodes : 0;
}

}  // namespace faultsweep::policy
