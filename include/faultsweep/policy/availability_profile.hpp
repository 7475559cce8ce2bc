#pragma once
// The free-node profile of conservative backfilling: a step function of time, `n` nodes free
// from each breakpoint to the next (the last step lasts forever), in two sorted vectors.
// add() never merges breakpoints (equal neighbouring steps answer every query as one step
// would); forget_before() drops those and reset() drops them all. The vectors keep their capacity:
// no allocation once grown. A balanced tree (a treap with lazy range add and subtree min / max) was
// measured slower on real logs, whose profiles hold tens to a few thousand steps: the searches read
// the steps between now and a reservation either way, and contiguous counts are compared sixteen
// at a time.
#include <cstdint>
#include <limits>
#include <vector>

namespace faultsweep::policy {

class AvailabilityProfile {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // `nodes` free from `t0_s` on, forever. Times before t0_s must not be asked.
  void reset(double t0_s, std::int32_t nodes);
  // Forgets the steps before t_s (as reset() at t_s would, keeping the counts from t_s on),
  // so that searches from t_s start at the first step, and drops the breakpoints between
  // steps with the same count. Changes no answer from t_s on. Times before t_s must not be
  // asked.
  void forget_before(double t_s);
  // Adds `nodes` (negative: takes them) over [begin_s, end_s) (end_s may be kNever); nothing if
  // end_s <= begin_s.
  void add(double begin_s, double end_s, std::int32_t nodes);
  // The nodes free at t.
  std::int32_t at(double t_s) const;
  // True if `nodes` are free at begin_s and on every step that starts before end_s.
  bool fits(double begin_s, double end_s, std::int32_t nodes) const;
  // The earliest start from `from_s` on that holds `nodes` for `wall_s`: from_s itself or a
  // breakpoint c whose run of steps with at least `nodes` free reaches c + wall_s (the sum as
  // written, so that ties break as the caller's own arithmetic does). kNever if none.
  double earliest(double from_s, std::int32_t nodes, double wall_s) const;
  // earliest() for a job holding [held_s, held_s + wall_s) if it gave that slot back, asked
  // only for starts before starts_before_s (<= held_s; the slot is given back only if one is
  // found): the first start c in [from_s, starts_before_s) with `nodes` free on every step
  // that starts before min(held_s, c + wall_s), since from held_s on its own slot holds them.
  // kNever if none.
  double earliest_before(double from_s, std::int32_t nodes, double wall_s, double held_s,
                         double starts_before_s) const;
  // True if a step other than the first starts at or before t_s (forget_before would drop it).
  bool starts_before(double t_s) const { return time_s_.size() > 1 && time_s_[1] <= t_s; }
  std::size_t breakpoints() const { return time_s_.size(); }

 private:
  std::size_t split_at(double t_s);
  std::size_t step_of(double t_s, std::size_t first) const;

  // A search's answer, remembered as the step it is in: the add that takes its slot starts there.
  double found(std::size_t step, double t_s) const {
    found_ = step;
    return t_s;
  }

  std::vector<double> time_s_;      // the breakpoints, increasing
  std::vector<std::int32_t> free_;  // free_[k]: nodes free from time_s_[k] to time_s_[k + 1]
  mutable std::size_t found_ = 0;   // the step of the last search's answer (split_at's guess)
};

}  // namespace faultsweep::policy
