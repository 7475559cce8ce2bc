#pragma once
// Per-node reliability learnt online from the failures seen so far (Gottumukkala §5.3.1: "the
// simulator uses the most recently available failure parameters obtained from nodes ... evaluated
// using the MLE and updated periodically every 1000 minutes").
//
// Schedule: the fits are those of the refit instant tau = floor(now / refit) x refit, using only
// the failures at or before tau (a failure between tau and now is not used until the next
// refit); before the first refit instant (tau = 0) nothing is known and every node has
// reliability 1. A refit is a deterministic function of (tau, failures <= tau), so fitting lazily
// (when an allocator asks) equals fitting at every tau.
//
// Per node, at tau, with n the node's failures at or before tau and origin the history's start
// (engine time 0):
//   exponential (Eq. 5.3): lambda = n / (tau - origin), the MLE of a Poisson process observed
//     over (origin, tau]; a node with n = 0 gets the pooled rate of the machine, (sum of n) /
//     (nodes x (tau - origin)), not the MLE 0: "never failed yet" is weak evidence after a short
//     warm-up (on LANL system 18, 755 of 1,024 nodes have no failure in 6 months), and lambda = 0
//     would make RA-Opt treat them as nodes that never fail.
//   weibull (Eq. 5.2): the MLE (reliability/fit.hpp) of the times between consecutive failures
//     (uncensored, as the thesis fits them in Ch. 3) when the node has >= min_ttfs of them and the
//     fit converges with a shape in [0.05, 20]; otherwise the exponential above as a Weibull of
//     shape 1 (too few failures to fit two parameters). Nodes refit only when n changed (the
//     same TTFs give the same MLE, or the same lack of one).
// The reliability of a job of run time x starting now on node i is the excess-life survival
// R_i(t + x | t) with t = now - last failure of i (or now - origin if it never failed): Eq. 5.2
// exp(-((t + x)/eta)^beta + (t/eta)^beta), Eq. 5.3 exp(-lambda x).
#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/failures/node_history.hpp"

namespace faultsweep::reliability {

enum class OnlineLaw { exponential, weibull };

// "exponential" | "weibull"; throws InputError("reliability_law", name, ...) otherwise.
OnlineLaw online_law_from(std::string_view name);

struct OnlineOptions {
  OnlineLaw law = OnlineLaw::weibull;
  double refit_s = 1000 * 60.0;  // §5.3.1: every 1000 minutes
  int min_ttfs = 2;              // Weibull MLE needs two or more TTFs
};

class OnlineReliability {
 public:
  // Throws InputError("refit", ...) for refit_s <= 0 or not finite.
  explicit OnlineReliability(OnlineOptions o);

  // Brings the fits to the refit instant of `now` (no-op within the same period). Reads only
  // `h` (the past): the failure times of h must be kept (NodeHistory keep_times).
  void update(const failures::NodeHistory& h, double now_s);

  // -log R_i(t + x | t): the node's cumulative hazard over the next x seconds from now.
  double hazard(const failures::NodeHistory& h, std::int32_t node, double now_s, double x_s) const;
  // hazard() of every member of a bitset of nodes (bit n % 64 of word n / 64), in id order:
  // appends the ids to `ids` and their hazards to `out` (the same values, one loop).
  void hazards(const failures::NodeHistory& h, std::span<const std::uint64_t> members, double now_s,
               double x_s, std::vector<std::int32_t>& ids, std::vector<double>& out) const;

  double refit_instant() const { return tau_s_; }
  std::int64_t refits() const { return refits_; }         // refit instants processed
  std::int64_t node_fits() const { return node_fits_; }   // per-node MLE fits run
  double refit_seconds() const { return refit_wall_s_; }  // wall time spent refitting
  // The fitted parameters of a node at the last refit instant: shape (1 for exponential) and
  // scale in seconds (+inf: never failed).
  double shape(std::int32_t node) const { return shape_[static_cast<std::size_t>(node)]; }
  double scale_s(std::int32_t node) const {
    const auto i = static_cast<std::size_t>(node);
    return fitted_n_[i] >= 0 ? scale_s_[i] : exponential_scale_s(counts_[i]);
  }
  // The scale of the exponential law of a node with n failures at or before the last refit
  // instant tau: tau / n, or the pooled scale for n = 0 (+inf: no failure anywhere yet).
  double exponential_scale_s(std::int64_t n) const {
    return n > 0 ? tau_s_ / static_cast<double>(n) : pooled_scale_s_;
  }
  // True if the node's law at the last refit instant is its own Weibull MLE; false: the
  // exponential of rate n / tau, or the pooled rate if n = 0 (n = failures(node)).
  bool own_fit(std::int32_t node) const { return fitted_n_[static_cast<std::size_t>(node)] >= 0; }
  // The node's failures at or before the last refit instant.
  std::int64_t failures(std::int32_t node) const { return counts_[static_cast<std::size_t>(node)]; }
  // The nodes whose failure count (and so possibly their law) changed at the last refit; the
  // others kept their fit (exponential ones their count n, their scale follows tau).
  std::span<const std::int32_t> changed() const { return changed_; }

 private:
  void refit_node(const failures::NodeHistory& h, std::int32_t node, std::int64_t n);

  OnlineOptions o_;
  double tau_s_ = -1;  // current refit instant; -1: none yet
  std::vector<double> shape_, scale_s_;
  std::vector<std::int64_t> fitted_n_;  // failures at the last fit of each node (-1: never)
  std::vector<std::int64_t> tried_n_;   // failures at the last MLE attempt (-1: none)
  std::vector<std::int64_t> counts_;    // failures at or before tau, per node
  std::int64_t total_ = 0;              // sum of counts_
  std::vector<std::int32_t> changed_;   // nodes whose count changed at the last refit
  double pooled_scale_s_ = 0;           // 1 / the machine's pooled rate per node
  std::vector<double> ttf_;             // scratch
  std::int64_t refits_ = 0, node_fits_ = 0;
  double refit_wall_s_ = 0;
};

}  // namespace faultsweep::reliability
