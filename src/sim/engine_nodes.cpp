// A job's nodes change hands: taken at its start, given back at its end, released after a
// failure. Without a recorder, the job's node list is done by maximal runs of consecutive ids
// (sim/node_runs.hpp): a run whose nodes are all in the expected state and owner is changed with
// loops over contiguous arrays and whole words of the free set; any other run (short, or one
// that fails a check) goes node by node, which also gives the exact error message. With a
// recorder, everything goes node by node, in list order (the order of its lines).
#include <algorithm>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

void Simulation::record_node(std::int32_t n, NodeState s) {
  const auto i = static_cast<std::size_t>(n);
  if (s != node_state_[i])
    rec_->node(now_, n, static_cast<std::uint8_t>(node_state_[i]), static_cast<std::uint8_t>(s),
               node_owner_[i]);
}

void Simulation::set_node_state(std::int32_t n, NodeState s) {
  if (rec_ != nullptr) [[unlikely]]
    record_node(n, s);
  clocks().enter(static_cast<std::size_t>(n), s);
}

// Job j takes the nodes of `run`, checked: in range, idle, owned by no job.
void Simulation::take_nodes(std::int32_t j, std::span<const std::int32_t> run) {
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  const std::int64_t a = run.front(), b = a + static_cast<std::int64_t>(run.size());
  if (rec_ == nullptr && run.size() >= kMinRun && a >= 0 && b <= cfg_.nodes) {
    const auto lo = static_cast<std::size_t>(a), hi = static_cast<std::size_t>(b);
    if (all_owned(owner, lo, hi, -1) && c.all_in(lo, hi, NodeState::idle)) {
      c.enter_run(lo, hi, NodeState::idle, NodeState::busy);
      std::fill(owner + lo, owner + hi, j);
      free_.erase_range(static_cast<int>(a), static_cast<int>(b));
      return;
    }
  }
  for (const std::int32_t n : run) {
    const auto i = static_cast<std::size_t>(n);
    FS_CHECK(n >= 0 && n < cfg_.nodes, "allocator returned a node out of range");
    // No node is ever held by two jobs, and down nodes are never allocated.
    FS_CHECK(owner[i] == -1 && c.state[i] == NodeState::idle,
             fmt::format("node {} allocated to job {} while owned by job {} (state {})", n, j,
                         owner[i], static_cast<int>(c.state[i])));
    owner[i] = j;
    if (rec_ != nullptr) [[unlikely]]
      record_node(n, NodeState::busy);
    c.enter(i, NodeState::busy);
  }
  free_.erase_all(run);
}

// Job j, completing, gives back the nodes of `run`: idle, free, owned by no job.
void Simulation::give_nodes(std::int32_t j, std::span<const std::int32_t> run) {
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  const auto a = static_cast<std::size_t>(run.front()), b = a + run.size();
  if (rec_ == nullptr && run.size() >= kMinRun && all_owned(owner, a, b, j) &&
      c.all_in(a, b, NodeState::busy)) {
    c.enter_run(a, b, NodeState::busy, NodeState::idle);
    std::fill(owner + a, owner + b, -1);
    free_.insert_range(static_cast<int>(a), static_cast<int>(b));
    return;
  }
  for (const std::int32_t n : run) {
    const auto i = static_cast<std::size_t>(n);
    FS_CHECK(owner[i] == j, "completing job does not own node");
    owner[i] = -1;
    if (rec_ != nullptr) [[unlikely]]
      record_node(n, NodeState::idle);
    c.enter(i, NodeState::idle);
  }
  free_.insert_all(run);
}

// Calls f(run) for each run of the job's node list: by maximal runs of consecutive ids, or, with
// a recorder, the whole list at once (node by node in list order).
template <class F>
void Simulation::by_runs(std::span<const std::int32_t> nodes, F&& f) {
  if (rec_ != nullptr) [[unlikely]] {
    f(nodes);
    return;
  }
  for_each_run(nodes, [&](std::size_t k, std::size_t e) { f(nodes.subspan(k, e - k)); });
}

void Simulation::take_all(std::int32_t j, std::span<const std::int32_t> nodes) {
  by_runs(nodes, [&](std::span<const std::int32_t> run) { take_nodes(j, run); });
}

void Simulation::give_all(std::int32_t j) {
  by_runs(nodes_of(j), [&](std::span<const std::int32_t> run) { give_nodes(j, run); });
}

// Nodes a..b-1 of a job hit by a failure (not the failed node) enter state `to`; with !keep
// they lose their owner and become free.
void Simulation::release_range(std::size_t a, std::size_t b, NodeState to, bool keep) {
  if (a >= b) return;
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  if (b - a >= kMinRun && c.all_in(a, b, NodeState::busy)) {
    c.enter_run(a, b, NodeState::busy, to);
  } else {
    for (std::size_t i = a; i < b; ++i) c.enter(i, to);
  }
  if (keep) return;
  std::fill(owner + a, owner + b, -1);
  free_.insert_range(static_cast<int>(a), static_cast<int>(b));
}

// After a failure of `failed_node`: it goes down (until up_s), the job's other nodes become
// `to` (held by the suspended job, or idle and free with no owner).
void Simulation::release_nodes(std::int32_t j, std::int32_t failed_node, double up_s,
                               NodeState to) {
  const bool keep = to == NodeState::held;
  std::int32_t* const owner = node_owner_.data();
  if (rec_ != nullptr) [[unlikely]] {  // node by node, in list order
    const NodeClocks c = clocks();
    for (const std::int32_t m : nodes_of(j)) {
      const auto i = static_cast<std::size_t>(m);
      if (!keep) owner[i] = -1;
      if (m == failed_node) {
        take_down(m, up_s);
        continue;
      }
      record_node(m, to);
      c.enter(i, to);
    }
    if (keep) return;
    // The failed node was busy, so not free: inserting all and erasing it frees exactly the
    // others.
    free_.insert_all(nodes_of(j));
    free_.erase(failed_node);
    return;
  }
  // Each node changes on its own, so the failed node may go first and the runs skip it.
  if (!keep) owner[static_cast<std::size_t>(failed_node)] = -1;
  take_down(failed_node, up_s);
  const auto f = static_cast<std::size_t>(failed_node);
  const std::span<const std::int32_t> nodes = nodes_of(j);
  for_each_run(nodes, [&](std::size_t k, std::size_t e) {
    const auto a = static_cast<std::size_t>(nodes[k]), b = a + (e - k);
    if (f < a || f >= b) return release_range(a, b, to, keep);
    release_range(a, f, to, keep);
    release_range(f + 1, b, to, keep);
  });
}

}  // namespace faultsweep::sim
