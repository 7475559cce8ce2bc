#include "faultsweep/reliability/online.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"
#include "faultsweep/reliability/fit.hpp"

namespace faultsweep::reliability {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

OnlineLaw online_law_from(std::string_view name) {
  if (name == "exponential") return OnlineLaw::exponential;
  if (name == "weibull") return OnlineLaw::weibull;
  throw InputError("reliability_law", std::string(name), "one of \"exponential\", \"weibull\"");
}

OnlineReliability::OnlineReliability(OnlineOptions o) : o_(o) {
  if (!(o_.refit_s > 0 && std::isfinite(o_.refit_s)))
    throw InputError("refit", format_duration(o_.refit_s), "a duration > 0");
  FS_CHECK(o_.min_ttfs >= 2, "OnlineReliability: min_ttfs >= 2");
}

void OnlineReliability::update(const failures::NodeHistory& h, double now_s) {
  const double tau = std::floor(now_s / o_.refit_s) * o_.refit_s;
  if (tau <= tau_s_ || tau <= 0) return;  // same period, or nothing observed yet
  FS_CHECK(h.keeps_times(), "OnlineReliability: the node history does not keep failure times");
  const auto start = std::chrono::steady_clock::now();
  const auto nodes = static_cast<std::size_t>(h.nodes());
  if (shape_.size() != nodes) {
    shape_.assign(nodes, 1.0);
    scale_s_.assign(nodes, kInf);
    fitted_n_.assign(nodes, -1);
    tried_n_.assign(nodes, -1);
    counts_.assign(nodes, 0);
    total_ = 0;
  }
  tau_s_ = tau;
  ++refits_;
  // Only the failures at or before the refit instant (the fit of tau, whenever it runs). The
  // times only grow and tau only advances, so each count moves forward from where it stood:
  // the nodes that failed since the last refit are the only ones whose data changed.
  changed_.clear();
  for (std::size_t i = 0; i < nodes; ++i) {
    const auto times = h.failure_times_s(static_cast<std::int32_t>(i));
    auto n = static_cast<std::size_t>(counts_[i]);
    if (n >= times.size() || times[n] > tau) continue;
    while (n < times.size() && times[n] <= tau) ++n;
    total_ += static_cast<std::int64_t>(n) - counts_[i];
    counts_[i] = static_cast<std::int64_t>(n);
    changed_.push_back(static_cast<std::int32_t>(i));
  }
  // A node without failures so far gets the machine's pooled rate (see the header); every
  // exponential scale follows tau (scale_s), so only the changed nodes are refitted.
  pooled_scale_s_ =
      total_ > 0 ? tau * static_cast<double>(nodes) / static_cast<double>(total_) : kInf;
  for (const std::int32_t i : changed_) {
    stop_point();  // a refit of 10^4 Weibull MLEs takes seconds
    refit_node(h, i, counts_[static_cast<std::size_t>(i)]);
  }
  refit_wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void OnlineReliability::refit_node(const failures::NodeHistory& h, std::int32_t node,
                                   std::int64_t n) {
  const auto i = static_cast<std::size_t>(node);
  // Exponential MLE over (0, tau] (Gottumukkala Eq. 5.3 needs lambda): n / tau; n = 0: pooled
  // (exponential_scale_s, evaluated when read).
  const auto exponential = [&] {
    shape_[i] = 1.0;
    fitted_n_[i] = -1;
  };
  if (o_.law == OnlineLaw::exponential || n < o_.min_ttfs + 1) return exponential();
  if (n == fitted_n_[i]) return;  // the TTFs did not change: same MLE
  if (n == tried_n_[i]) return;   // the same TTFs had no acceptable MLE
  tried_n_[i] = n;
  const auto times = h.failure_times_s(node);
  ttf_.clear();
  for (std::int64_t k = 1; k < n; ++k) {
    const double gap = times[static_cast<std::size_t>(k)] - times[static_cast<std::size_t>(k - 1)];
    // In hours, the unit fit_mle is exercised in (fit_log); failures at one instant are one.
    if (gap > 0) ttf_.push_back(gap / 3600.0);
  }
  ++node_fits_;
  bool ok = static_cast<int>(ttf_.size()) >= o_.min_ttfs;
  if (ok) {
    try {
      const Fit f = fit_mle(Law::weibull, ttf_, {}, FitOutput::estimates);  // no SEs needed
      ok = f.converged && f.p1 >= 0.05 && f.p1 <= 20 && f.p2 > 0 && std::isfinite(f.p2);
      if (ok) shape_[i] = f.p1, scale_s_[i] = f.p2 * 3600.0;
    } catch (const InputError&) {
      ok = false;  // all TTFs equal: no two-parameter MLE
    }
  }
  if (!ok) return exponential();
  fitted_n_[i] = n;
}

double OnlineReliability::hazard(const failures::NodeHistory& h, std::int32_t node, double now_s,
                                 double x_s) const {
  if (tau_s_ <= 0) return 0;  // nothing fitted yet: every node equally reliable
  const auto i = static_cast<std::size_t>(node);
  const double scale = scale_s(node);
  if (!(scale < kInf)) return 0;
  const double beta = shape_[i];
  if (beta == 1.0) return x_s / scale;  // Gottumukkala Eq. 5.3: -log R = lambda x
  const double last = h.last_failure_s(node);
  const double t = std::max(0.0, now_s - (last == failures::NodeHistory::kNever ? 0.0 : last));
  // Gottumukkala Eq. 5.2: -log R(t + x | t) = ((t + x)/eta)^beta - (t/eta)^beta.
  return std::pow((t + x_s) / scale, beta) - std::pow(t / scale, beta);
}

void OnlineReliability::hazards(const failures::NodeHistory& h,
                                std::span<const std::uint64_t> members, double now_s, double x_s,
                                std::vector<std::int32_t>& ids, std::vector<double>& out) const {
  for (std::size_t w = 0; w < members.size(); ++w)
    for (std::uint64_t bits = members[w]; bits != 0; bits &= bits - 1) {
      const auto node = static_cast<std::int32_t>(64 * w + std::countr_zero(bits));
      ids.push_back(node);
      out.push_back(hazard(h, node, now_s, x_s));
    }
}

}  // namespace faultsweep::reliability
