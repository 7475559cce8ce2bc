#include "faultsweep/policy/availability_profile.hpp"

#include <algorithm>

namespace faultsweep::policy {

void AvailabilityProfile::reset(double t0_s, std::int32_t nodes) {
  nodes_.clear();
  root_ = -1;
  insert(t0_s);
  apply(root_, nodes);
}

void AvailabilityProfile::apply(std::int32_t v, std::int32_t d) {
  if (v < 0) return;
  Node& n = nodes_[static_cast<std::size_t>(v)];
  n.val += d;
  n.lazy += d;
  n.lo += d;
  n.hi += d;
}

void AvailabilityProfile::push(std::int32_t v) {
  Node& n = nodes_[static_cast<std::size_t>(v)];
  if (n.lazy == 0) return;
  apply(n.left, n.lazy);
  apply(n.right, n.lazy);
  n.lazy = 0;
}

void AvailabilityProfile::pull(std::int32_t v) {
  Node& n = nodes_[static_cast<std::size_t>(v)];
  n.lo = n.hi = n.val;
  for (const std::int32_t c : {n.left, n.right}) {
    if (c < 0) continue;
    const Node& m = nodes_[static_cast<std::size_t>(c)];
    n.lo = std::min(n.lo, m.lo);
    n.hi = std::max(n.hi, m.hi);
  }
}

// Inserts node `fresh` (its key absent) into the subtree at v; returns the subtree's root. The
// path's pending adds are pushed on the way down, so the fresh value needs no correction.
std::int32_t AvailabilityProfile::insert(std::int32_t v, std::int32_t fresh) {
  if (v < 0) return fresh;
  push(v);
  Node& n = nodes_[static_cast<std::size_t>(v)];
  const bool go_left = nodes_[static_cast<std::size_t>(fresh)].key < n.key;
  const std::int32_t c = insert(go_left ? n.left : n.right, fresh);
  Node& p = nodes_[static_cast<std::size_t>(v)];
  Node& m = nodes_[static_cast<std::size_t>(c)];
  if (m.prio <= p.prio) {  // heap order holds: hang it here
    (go_left ? p.left : p.right) = c;
    pull(v);
    return v;
  }
  // Rotate c above v (c's pending add is zero: it was pushed or is fresh).
  if (go_left) {
    p.left = m.right;
    m.right = v;
  } else {
    p.right = m.left;
    m.left = v;
  }
  pull(v);
  pull(c);
  return c;
}

// Makes key_s a breakpoint (its step keeps the value of the step it splits).
void AvailabilityProfile::insert(double key_s) {
  for (std::int32_t v = root_; v >= 0;) {
    const Node& n = nodes_[static_cast<std::size_t>(v)];
    if (n.key == key_s) return;
    v = key_s < n.key ? n.left : n.right;
  }
  const std::int32_t val = root_ < 0 ? 0 : at(key_s);
  seed_ ^= seed_ << 13;  // xorshift32: the treap's priorities (any sequence balances it)
  seed_ ^= seed_ >> 17;
  seed_ ^= seed_ << 5;
  const auto v = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({key_s, val, 0, val, val, seed_, -1, -1});
  root_ = insert(root_, v);
}

// Adds d to the nodes of v's subtree with keys in [begin_s, end_s); the subtree's keys lie in
// (lo_s, hi_s).
void AvailabilityProfile::add(std::int32_t v, double lo_s, double hi_s, double begin_s,
                              double end_s, std::int32_t d) {
  if (v < 0 || hi_s <= begin_s || lo_s >= end_s) return;
  if (begin_s <= lo_s && hi_s <= end_s) {
    apply(v, d);
    return;
  }
  push(v);
  Node& n = nodes_[static_cast<std::size_t>(v)];
  if (begin_s <= n.key && n.key < end_s) n.val += d;
  add(n.left, lo_s, n.key, begin_s, end_s, d);
  add(n.right, n.key, hi_s, begin_s, end_s, d);
  pull(v);
}

void AvailabilityProfile::add(double begin_s, double end_s, std::int32_t nodes) {
  if (!(end_s > begin_s)) return;
  insert(begin_s);
  if (end_s != kNever) insert(end_s);
  add(root_, -kNever, kNever, begin_s, end_s, nodes);
}

std::int32_t AvailabilityProfile::at(double t_s) const {
  std::int32_t acc = 0, val = 0;
  for (std::int32_t v = root_; v >= 0;) {
    const Node& n = nodes_[static_cast<std::size_t>(v)];
    if (n.key <= t_s) {
      val = n.val + acc;
      v = n.right;
    } else {
      v = n.left;
    }
    acc += n.lazy;
  }
  return val;
}

std::int32_t AvailabilityProfile::next_step(double after_s, std::int32_t nodes,
                                            bool want_ge) const {
  return next_step(root_, 0, after_s, nodes, want_ge);
}

// In key order, the first node of v's subtree with key > after_s whose value (acc: the
// ancestors' pending adds) is >= nodes (want_ge) or < nodes. Subtrees whose max (min) rules
// them out are skipped, so only the search path of after_s and one descent are visited.
std::int32_t AvailabilityProfile::next_step(std::int32_t v, std::int32_t acc, double after_s,
                                            std::int32_t nodes, bool want_ge) const {
  if (v < 0) return -1;
  const Node& n = nodes_[static_cast<std::size_t>(v)];
  if (want_ge ? n.hi + acc < nodes : n.lo + acc >= nodes) return -1;
  const std::int32_t below = acc + n.lazy;
  if (n.key > after_s) {
    const std::int32_t found = next_step(n.left, below, after_s, nodes, want_ge);
    if (found >= 0) return found;
    if ((n.val + acc >= nodes) == want_ge) return v;
  }
  return next_step(n.right, below, after_s, nodes, want_ge);
}

bool AvailabilityProfile::fits(double begin_s, double end_s, std::int32_t nodes) const {
  if (at(begin_s) < nodes) return false;
  const std::int32_t short_step = next_step(begin_s, nodes, false);
  return short_step < 0 || nodes_[static_cast<std::size_t>(short_step)].key >= end_s;
}

double AvailabilityProfile::earliest(double from_s, std::int32_t nodes, double wall_s) const {
  return earliest_before(from_s, nodes, wall_s, kNever, kNever);
}

// One in-order walk over the breakpoints after from_s, alternating between looking for a step
// with enough nodes (a start) and for the next step without (the end of the start's run), and
// skipping whole subtrees that cannot end the current search: O(log P) plus the steps where
// the answer flips, never a fresh descent from the root per gap tried.
struct AvailabilityProfile::Walk {
  const AvailabilityProfile& p;
  double from_s, wall_s, held_s, last_s;
  std::int32_t nodes;
  bool in_run;  // start_s holds `nodes` so far
  double start_s;
  double answer_s = kNever;

  // True once the answer is known (answer_s; kNever if there is no start before last_s).
  bool visit(std::int32_t v, std::int32_t acc) {
    if (v < 0) return false;
    const Node& n = p.nodes_[static_cast<std::size_t>(v)];
    const std::int32_t below = acc + n.lazy;
    if (n.key <= from_s) return visit(n.right, below);
    // A subtree all on one side of `nodes` cannot end the current search (and if the walk is
    // past a limit, the next step visited ends it).
    if (in_run ? n.lo + acc >= nodes : n.hi + acc < nodes) return false;
    if (visit(n.left, below)) return true;
    if (step(n.key, n.val + acc >= nodes)) return true;
    return visit(n.right, below);
  }
  bool step(double key_s, bool enough) {
    if (in_run) {
      if (key_s >= held_s || key_s >= start_s + wall_s) {
        answer_s = start_s;
        return true;
      }
      if (!enough) in_run = false;
    } else if (enough) {
      if (key_s >= last_s) return true;  // no start before last_s
      in_run = true;
      start_s = key_s;
    }
    return false;
  }
};

double AvailabilityProfile::earliest_before(double from_s, std::int32_t nodes, double wall_s,
                                            double held_s, double starts_before_s) const {
  if (!(from_s < starts_before_s)) return kNever;
  const bool enough = at(from_s) >= nodes;
  Walk w{*this, from_s, wall_s, held_s, starts_before_s, nodes, enough, from_s};
  if (w.visit(root_, 0)) return w.answer_s;
  return w.in_run ? w.start_s : kNever;  // the last step lasts forever
}

}  // namespace faultsweep::policy
