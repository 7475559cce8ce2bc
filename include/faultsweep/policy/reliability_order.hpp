#pragma once
// The free nodes in the order of their cumulative hazard over a job's run time x, -log R_i
// (reliability/online.hpp), ties by id, without computing every node's hazard for every job.
//
// Between two refits every node whose law is exponential has scale tau / n (n its failures at or
// before the refit instant tau) or, with n = 0, the machine's pooled scale; its hazard is x /
// scale whatever its age. Such nodes are kept in buckets of equal scale, sorted by descending
// scale: as x / scale is monotone in scale (also after rounding), the buckets come in
// non-decreasing hazard for every x, and within one bucket (equal hazards) the order is by id.
// Only nodes with their own Weibull fit, whose order depends on their age and on x, are
// visited one by one: once k exponential nodes are placed, a Weibull-fitted node whose hazard
// is certainly above theirs (a lower bound of Eq. 5.2 for one log, with a margin for rounding)
// is skipped, the others' hazards are computed. A refit moves only the nodes that failed since
// the previous one between buckets (O(changed nodes) plus sorting the few buckets by scale); a
// query costs about the free-set words of the buckets it visits plus a bound per free
// Weibull-fitted node, instead of a hazard and a sort per node.
#include <cstdint>
#include <utility>
#include <vector>

#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/reliability/online.hpp"

namespace faultsweep::policy {

// An interval [lo, hi] of width 0.05967 that holds ln y (up to 1e-12 for rounding), from y's
// exponent and mantissa without a log; valid only for positive normal finite y.
struct LogInterval {
  double lo = 0, hi = 0;
  bool valid = false;
};
LogInterval log_interval(double y);

class ReliabilityOrder {
 public:
  using Ranked = std::pair<double, std::int32_t>;  // (hazard over x, node id)

  // Brings the buckets to the model's last refit (a no-op if they are already).
  void sync(const reliability::OnlineReliability& model, int nodes);

  // Sets `out` to the k least (hazard, id) pairs of the free nodes in ascending order (k <=
  // free.count()), each hazard model.hazard(h, id, now_s, x_s): what a sort of every free node
  // gives. Requires sync() after the model's last update and a refit instant > 0.
  void least(const reliability::OnlineReliability& model, const failures::NodeHistory& h,
             const NodeSet& free, double now_s, double x_s, std::size_t k,
             std::vector<Ranked>& out);

 private:
  struct Bucket {
    std::vector<std::uint64_t> words;  // members, a bitset by id
    std::int64_t members = 0;
  };
  // Appends the free members of bucket b with the lowest ids, at most `limit`, with hazard
  // `hazard`; returns how many.
  std::size_t take_lowest(const Bucket& b, const NodeSet& free, double hazard, std::size_t limit,
                          std::vector<Ranked>& out) const;
  void rebuild(const reliability::OnlineReliability& model, int nodes);
  void place(const reliability::OnlineReliability& model, std::int32_t node);
  void remove(std::int32_t node);
  // True if the node's Weibull hazard over x certainly exceeds exp(log_level) as computed.
  bool above_level(const failures::NodeHistory& h, std::int32_t node, double now_s, double x_s,
                   double log_x, double log_level) const;

  struct Bound {  // a Weibull-fitted node's constants for above_level
    double beta = 1, log_c = 0, log_eta = 0, two_pow = 1;  // log_c = ln(beta / eta^beta)
  };
  // The same bound in the form screen() reads: ln L >= log_c + ln x + c lo, lo the bottom of
  // ln y's interval, y = t + y_x x (log_c here includes the interval's width where c < 0); and
  // r = r_per (t + x) / x.
  struct Screen {
    double c, log_c, r_per, y_x;
  };
  // Leaves in undecided_ the free Weibull-fitted nodes that above_level's bound does not settle
  // without a log (screen) or all of them (free_own_fit); returns how many.
  std::size_t screen(const failures::NodeHistory& h, const NodeSet& free, double now_s, double x_s,
                     double log_x, double log_level);
  std::size_t free_own_fit(const NodeSet& free);
  std::int64_t synced_refits_ = -1;
  std::vector<Bucket> by_count_;         // exponential nodes by failure count n
  std::vector<std::int32_t> place_;      // per node: its count n, or -1: own Weibull fit
  std::vector<std::int32_t> own_fit_;    // nodes with their own Weibull fit, any order
  std::vector<std::int32_t> own_at_;     // per node: its index in own_fit_
  std::vector<Bound> own_bound_;         // per node, if it has its own fit
  std::vector<Screen> screen_;           // parallel to own_fit_
  std::vector<std::int32_t> undecided_;  // scratch of least()
  std::vector<std::int32_t> order_;      // counts of the non-empty buckets, descending scale
  std::vector<double> order_scale_s_;    // their scales
  std::vector<Ranked> own_, merged_;     // scratch of least()
};

}  // namespace faultsweep::policy
