#pragma once
// The engine's per-node arrays seen run by run. First fit and round robin hand out mostly
// contiguous runs of node ids, and all the nodes of a job are in one known state when it starts
// or ends, so a job's nodes are changed run by run with loops over contiguous arrays that the
// compiler vectorises, with the same result as one node at a time. Time is not kept per node
// (StateTotals), so a node's change of state has no floating-point operation.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "faultsweep/policy/cluster_view.hpp"

namespace faultsweep::sim {

// Runs shorter than this go node by node: the set-up of the checks and loops would cost more
// than it saves (at 128 nodes, whose jobs hold ~14 nodes, the node-by-node loop is as fast).
inline constexpr std::size_t kMinRun = 32;
// A run an allocator hands out (Allocator::allocate_runs) costs no search, so it is taken whole
// from this length on. On a 93,312-node machine whose failures scatter the free nodes, a replica
// taking runs from 2, 3 or 4 nodes on whole takes 0.71 of the CPU time it takes when runs
// shorter than kMinRun go node by node (from 8 on: 0.76; from 16 on: 0.82).
inline constexpr std::size_t kMinHandedRun = 4;
// Node lists shorter than this go node by node without looking for runs: on small machines
// (SDSC-SP2's 128 nodes) the lists are short and often scattered, and the search would cost
// more than the runs save.
inline constexpr std::size_t kMinList = 128;

// Calls f(k, e, run) over ns[k..e), in list order, covering the list: run == true for each
// maximal run of at least kMinRun consecutive ids (ns[i + 1] == ns[i] + 1), run == false for the
// stretches between them (shorter runs, scattered ids), to be done node by node in one call. A
// list shorter than kMinRun is one stretch at once.
template <class F>
void for_each_run(std::span<const std::int32_t> ns, F&& f) {
  if (ns.size() < kMinRun) {
    if (!ns.empty()) f(std::size_t{0}, ns.size(), false);
    return;
  }
  std::size_t k = 0, loose = 0;  // ns[loose..k) is a stretch not yet reported
  while (k < ns.size()) {
    std::size_t e = k + 1;
    // ns[i] == ns[k] + (i - k): id by id for the first 8, then 64 and 8 ids at a time as one
    // or of differences in wrapping unsigned arithmetic (the loops vectorise; node ids are far
    // from the wrap), then id by id up to the end of the run.
    const std::uint32_t base = static_cast<std::uint32_t>(ns[k]) - static_cast<std::uint32_t>(k);
    const auto follows = [&](std::size_t from, std::size_t count) {
      // 32-bit lanes throughout (a 64-bit index would halve the vector width).
      const std::int32_t* const p = ns.data() + from;
      const std::uint32_t first = base + static_cast<std::uint32_t>(from);
      const auto n = static_cast<std::uint32_t>(count);
      std::uint32_t off = 0;
      for (std::uint32_t i = 0; i < n; ++i) off |= static_cast<std::uint32_t>(p[i]) ^ (first + i);
      return off == 0;
    };
    const auto step = [&] { return e < ns.size() && std::int64_t{ns[e]} - ns[e - 1] == 1; };
    while (e - k < 8 && step()) ++e;  // scattered ids cost one test each
    if (e - k == 8) {
      while (e + 64 <= ns.size() && follows(e, 64)) e += 64;
      while (e + 8 <= ns.size() && follows(e, 8)) e += 8;
      while (step()) ++e;
    }
    if (e - k >= kMinRun) {
      if (loose < k) f(loose, k, false);
      f(k, e, true);
      loose = e;
    }
    k = e;
  }
  if (loose < ns.size()) f(loose, ns.size(), false);
}

// Node lifecycle state (policy::NodeUse); the engine keeps time per state.
using NodeState = policy::NodeUse;
inline constexpr int kNodeStates = 5;

// Node-seconds by state, kept per run of the machine rather than per node: how many nodes are in
// each state, and the time they have spent there up to `since_s`. A state change moves counts
// (integers, exact in any order); time enters only when the clock moves, as each state's count
// times the time since the last change. Keeping the time thus costs the same however many nodes
// change state (their states and owners are still set node by node), and the totals are those of
// adding up every node's own time, up to the order of the sums (the last bits).
struct StateTotals {
  std::array<std::int64_t, kNodeStates> count{};
  std::array<double, kNodeStates> node_s{};
  double since_s = 0;
  // The time up to now_s enters every state's total (nothing to do if the clock has not moved).
  void advance(double now_s) {
    if (now_s == since_s) return;
    const double dt = now_s - since_s;
    for (std::size_t s = 0; s < count.size(); ++s) node_s[s] += static_cast<double>(count[s]) * dt;
    since_s = now_s;
  }
  void move(NodeState from, NodeState to, std::int64_t n) {
    count[static_cast<std::size_t>(from)] -= n;
    count[static_cast<std::size_t>(to)] += n;
  }
};

// The engine's per-node states as a raw pointer, loaded once per loop over a job's nodes (a
// store through a NodeState, a byte, may alias anything, so the compiler would otherwise reload
// the array's address per node), and the per-state totals, brought up to now.
struct NodeClocks {
  NodeState* state;
  StateTotals* totals;
  // Node i enters state s now.
  void enter(std::size_t i, NodeState s) const {
    totals->move(state[i], s, 1);
    state[i] = s;
  }
  // Node i enters state s now, counted in n instead if it was in state `usual`: the loop over a
  // job's nodes then moves them all at once (count_moved), without a store to the same total
  // from one node to the next.
  void enter_counted(std::size_t i, NodeState s, NodeState usual, std::int64_t& n) const {
    const NodeState from = state[i];
    if (from == usual) [[likely]]
      ++n;
    else
      totals->move(from, s, 1);
    state[i] = s;
  }
  void count_moved(NodeState usual, NodeState s, std::int64_t n) const {
    totals->move(usual, s, n);
  }
  // Nodes [a, b), all in state `from`, enter state `to` now.
  void enter_run(std::size_t a, std::size_t b, NodeState from, NodeState to) const {
    totals->move(from, to, static_cast<std::int64_t>(b - a));
    std::fill(state + a, state + b, to);
  }
};

}  // namespace faultsweep::sim
