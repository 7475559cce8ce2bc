#pragma once
// The free-node profile of conservative backfilling: a step function of time, `n` nodes free
// from each breakpoint to the next (the last step lasts forever). Kept in a treap keyed by the
// breakpoints, with lazy range add and subtree min / max, so that adding a reservation, testing
// that one fits and finding the next step above or below a size cost O(log P) for P
// breakpoints. Breakpoints are never merged (equal neighbouring steps answer every query as
// one step would); reset() drops them all. The nodes live in one reused vector: no allocation
// once it has grown.
#include <cstdint>
#include <limits>
#include <vector>

namespace faultsweep::policy {

class AvailabilityProfile {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // `nodes` free from `t0_s` on, forever. Times before t0_s must not be asked.
  void reset(double t0_s, std::int32_t nodes);
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
  std::size_t breakpoints() const { return nodes_.size(); }

 private:
  struct Walk;
  struct Node {
    double key;           // the step's start
    std::int32_t val;     // nodes free on the step (ancestors' pending adds excluded)
    std::int32_t lazy;    // pending add for both subtrees
    std::int32_t lo, hi;  // min and max of val over the subtree (same exclusion)
    std::uint32_t prio;
    std::int32_t left, right;
  };
  // The first breakpoint after `after_s` whose step has >= nodes free (want_ge) or < nodes,
  // or -1.
  std::int32_t next_step(double after_s, std::int32_t nodes, bool want_ge) const;
  std::int32_t next_step(std::int32_t v, std::int32_t acc, double after_s, std::int32_t nodes,
                         bool want_ge) const;
  void insert(double key_s);
  std::int32_t insert(std::int32_t v, std::int32_t fresh);
  void add(std::int32_t v, double lo_s, double hi_s, double begin_s, double end_s, std::int32_t d);
  void apply(std::int32_t v, std::int32_t d);
  void push(std::int32_t v);
  void pull(std::int32_t v);

  std::vector<Node> nodes_;
  std::int32_t root_ = -1;
  std::uint32_t seed_ = 0x9e3779b9u;
};

}  // namespace faultsweep::policy
