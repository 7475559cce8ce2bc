// A job's nodes change hands: taken at its start, given back at its end, released after a
// failure. Without a recorder, a long node list is done by runs of consecutive ids
// (sim/node_runs.hpp), each changed with loops over contiguous arrays and whole words of the free
// set: a run taken at a start is first checked free (the allocator may have handed out a node it
// may not); a running job's runs are its own and busy, and are not read again. The rest (short
// runs, scattered ids, a run taken that fails its check) goes node by node (engine_jobs.cpp:
// take_each, give_each), which also gives the exact error message. With a recorder, everything goes
// node by node, in list order (the order of its lines); so do short lists, for which the runs would
// cost more, and the lists of allocators that do not hand out runs (Allocator::hands_out_runs: the
// reliability-aware ones, whose id-sorted lists of short runs would pay for the search and gain
// nothing). The runs an allocator hands out are written into the job's node list only when the
// list is first read (nodes_of: a view, a move, a suspended job's repair); the engine's own walks
// use the kept runs, so most lists are never written.
#include <algorithm>
#include <cwchar>
#include <type_traits>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

namespace {
// n copies of v from p: the C library's wmemset on the 32-bit wchar_t of Linux, which picks the
// widest vector stores the machine has at run time (std::fill compiles to the 16-byte ones
// every x86-64 has), for the owners of long runs.
void fill_ids(std::int32_t* p, std::size_t n, std::int32_t v) {
  if constexpr (sizeof(wchar_t) == sizeof(std::int32_t) && std::is_signed_v<wchar_t>)
    std::wmemset(reinterpret_cast<wchar_t*>(p), static_cast<wchar_t>(v), n);
  else
    std::fill(p, p + n, v);
}

// first, first + 1, ... into p[0..count), in 32-bit lanes from locals (a store to p may alias
// the caller's run): the loop vectorises.
void write_ids(std::int32_t* p, std::int32_t first, std::int32_t count) {
  for (std::int32_t i = 0; i < count; ++i) p[i] = first + i;
}
}  // namespace

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

// Job j takes nodes a..b-1 if they are all idle and owned by no job (else false: nothing
// changed, take_each() gives the error). The free set holds exactly the idle nodes, and an idle
// node has no owner (check_invariants holds the engine to both), so one test of the free set's
// words answers for the 64 nodes of each.
bool Simulation::take_run(std::int32_t j, std::int64_t a, std::int64_t b) {
  if (a < 0 || b > cfg_.nodes) return false;
  if (!free_.contains_range(static_cast<int>(a), static_cast<int>(b))) return false;
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  const auto lo = static_cast<std::size_t>(a), hi = static_cast<std::size_t>(b);
  c.enter_run(lo, hi, NodeState::idle, NodeState::busy);
  fill_ids(owner + lo, hi - lo, j);
  free_.erase_range(static_cast<int>(a), static_cast<int>(b));
  return true;
}

// A running job gives back nodes a..b-1 of its list. They are busy and its own: the engine
// checked them free when the job took them, and a running job's nodes change only with it.
// check_invariants holds every run to that at its end (owners against the jobs' lists, the
// count of each state against the nodes' states), so they are not read again here.
void Simulation::give_run(std::size_t a, std::size_t b) {
  const NodeClocks c = clocks();
  c.enter_run(a, b, NodeState::busy, NodeState::idle);
  std::fill(node_owner_.data() + a, node_owner_.data() + b, -1);
  free_.insert_range(static_cast<int>(a), static_cast<int>(b));
}

// A long node list without a recorder: its long runs by take_run / give_run, the rest (and a
// run that fails a check) node by node. The runs found are kept with the job (as triples of list
// offsets k, e, with e < 0 for a stretch done node by node, and the first id), so its end and its
// failures need not look for them again.
void Simulation::take_all(std::int32_t j, std::span<const std::int32_t> nodes) {
  runs_found_.clear();
  for_each_run(nodes, [&](std::size_t k, std::size_t e, bool run) {
    const std::int64_t a = nodes[k];
    const bool taken = run && take_run(j, a, a + static_cast<std::int64_t>(e - k));
    if (!taken) take_each(j, nodes.subspan(k, e - k));
    found_run(k, e, taken, nodes[k]);
  });
  keep_runs(jobs_[static_cast<std::size_t>(j)]);
}

// The runs an allocator handed out (allocated_) become job j's node list, taken run by run
// (a run shorter than kMinHandedRun node by node), and are kept as take_all keeps the runs it
// finds. A run taken whole is not written into the list: the list is pending until it is first
// read (nodes_of), which for most jobs is never, and the kept runs say what it holds.
void Simulation::take_runs(std::int32_t j, std::span<std::int32_t> nodes) {
  runs_found_.clear();
  bool pending = false;
  std::size_t k = 0;
  for (const policy::NodeRun& u : allocated_) {
    FS_CHECK(u.count >= 1 && k + static_cast<std::size_t>(u.count) <= nodes.size(),
             fmt::format("allocator {}: its runs do not make the job's {} nodes", allocator_.name(),
                         nodes.size()));
    const std::size_t e = k + static_cast<std::size_t>(u.count);
    const std::int32_t first = u.first, count = u.count;
    const bool taken = e - k >= kMinHandedRun && take_run(j, first, std::int64_t{first} + count);
    if (!taken) {
      write_ids(nodes.data() + k, first, count);
      take_each(j, nodes.subspan(k, e - k));
    }
    pending = pending || taken;
    found_run(k, e, taken, first);
    k = e;
  }
  FS_CHECK(k == nodes.size(), fmt::format("allocator {}: its runs make {} of the job's {} nodes",
                                          allocator_.name(), k, nodes.size()));
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  keep_runs(r);
  r.list_pending = pending;
}

// List offsets k..e-1 (ids from `first` on, if a run) were taken as one run (taken) or node by
// node; a stretch done node by node that continues the one before joins it.
void Simulation::found_run(std::size_t k, std::size_t e, bool taken, std::int32_t first) {
  const auto end = static_cast<std::int32_t>(e);
  const std::size_t n = runs_found_.size();
  if (!taken && n > 0 && runs_found_[n - 2] == -static_cast<std::int32_t>(k)) {
    runs_found_[n - 2] = -end;
    return;
  }
  runs_found_.push_back(static_cast<std::int32_t>(k));
  runs_found_.push_back(taken ? end : -end);
  runs_found_.push_back(first);
}

void Simulation::keep_runs(JobRecord& r) {
  r.runs = static_cast<std::int32_t>(runs_found_.size() / 3);
  r.runs_offset = job_runs_.take(static_cast<std::int32_t>(runs_found_.size()));
  std::copy(runs_found_.begin(), runs_found_.end(), job_runs_.data() + r.runs_offset);
}

void Simulation::drop_runs(JobRecord& r) {
  if (r.runs_offset < 0) return;
  FS_CHECK(!r.list_pending, "the runs of a node list dropped before they were written into it");
  job_runs_.give(r.runs_offset, 3 * r.runs);
  r.runs_offset = -1;
  r.runs = 0;
}

// Calls f(k, e, run, first) over the runs kept for job j's list (take_all, take_runs), or, if
// none are kept (a move changed the list, which was written before), over those for_each_run
// finds in its stored list. A stretch done node by node (!run) is always in the stored list.
template <class F>
void Simulation::for_each_kept_run(std::int32_t j, std::span<const std::int32_t> list,
                                   F&& f) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (r.runs_offset < 0)
    return for_each_run(list,
                        [&](std::size_t k, std::size_t e, bool run) { f(k, e, run, list[k]); });
  const std::int32_t* const kept = job_runs_.data() + r.runs_offset;
  for (std::int32_t i = 0; i < r.runs; ++i) {
    const std::int32_t k = kept[3 * i], e = kept[3 * i + 1], first = kept[3 * i + 2];
    f(static_cast<std::size_t>(k), static_cast<std::size_t>(e < 0 ? -e : e), e > 0, first);
  }
}

// The runs of job j's pending list go into it (what take_runs left out), once.
void Simulation::write_pending(std::int32_t j) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (!r.list_pending) return;
  const std::span<std::int32_t> list = stored_list(r);
  for_each_kept_run(j, list, [&](std::size_t k, std::size_t e, bool run, std::int32_t first) {
    // A stretch done node by node (!run) was written at the start.
    if (run) write_ids(list.data() + k, first, static_cast<std::int32_t>(e - k));
  });
  r.list_pending = false;
}

void Simulation::give_all(std::int32_t j) {
  const std::span<const std::int32_t> list = stored_list(jobs_[static_cast<std::size_t>(j)]);
  for_each_kept_run(j, list, [&](std::size_t k, std::size_t e, bool run, std::int32_t first) {
    const auto a = static_cast<std::size_t>(first);
    if (run) return give_run(a, a + (e - k));
    give_each(j, list.subspan(k, e - k));
  });
}

// Nodes a..b-1 of a running job hit by a failure (not the failed node), all busy (as in
// give_run), enter state `to`; with !keep they lose their owner and become free.
void Simulation::release_range(std::size_t a, std::size_t b, NodeState to, bool keep) {
  if (a >= b) return;
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  c.enter_run(a, b, NodeState::busy, to);
  if (keep) return;
  std::fill(owner + a, owner + b, -1);
  free_.insert_range(static_cast<int>(a), static_cast<int>(b));
}

// After a failure of `failed_node`: it goes down (until up_s), the job's other nodes become
// `to` (held by the suspended job, or idle and free with no owner). Each node changes on its
// own, so without a recorder the failed node may go first and the runs skip it.
void Simulation::release_nodes(std::int32_t j, std::int32_t failed_node, double up_s,
                               NodeState to) {
  const bool keep = to == NodeState::held;
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (!by_runs_ || rec_ != nullptr || r.size < static_cast<std::int32_t>(kMinList)) {
    release_part(nodes_of(j), failed_node, up_s, to, true);  // node by node, in list order
    return;
  }
  const std::span<const std::int32_t> list = stored_list(r);
  if (!keep) node_owner_[static_cast<std::size_t>(failed_node)] = -1;
  take_down(failed_node, up_s);
  const auto f = static_cast<std::size_t>(failed_node);
  const auto run = [&](std::size_t a, std::size_t b) {  // a run of the job's nodes, f skipped
    if (f < a || f >= b) return release_range(a, b, to, keep);
    release_range(a, f, to, keep);
    release_range(f + 1, b, to, keep);
  };
  for_each_kept_run(j, list,
                    [&](std::size_t k, std::size_t e, bool contiguous, std::int32_t first) {
                      if (!contiguous)
                        return release_part(list.subspan(k, e - k), failed_node, up_s, to, false);
                      const auto a = static_cast<std::size_t>(first);
                      run(a, a + (e - k));
                    });
}

// Node by node: the nodes of `part` enter `to`, losing their owner and becoming free unless
// held; `failed_node`, if among them, goes down instead (now if down_now, else it went already).
void Simulation::release_part(std::span<const std::int32_t> part, std::int32_t failed_node,
                              double up_s, NodeState to, bool down_now) {
  const bool keep = to == NodeState::held;
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  bool failed_here = false;
  std::int64_t moved = 0;
  for (const std::int32_t m : part) {
    const auto i = static_cast<std::size_t>(m);
    if (!keep) owner[i] = -1;
    if (m == failed_node) {
      if (down_now) take_down(m, up_s);
      failed_here = true;
      continue;
    }
    if (rec_ != nullptr) [[unlikely]]
      record_node(m, to);
    c.enter_counted(i, to, NodeState::busy, moved);
  }
  c.count_moved(NodeState::busy, to, moved);
  if (keep) return;
  // The failed node is down, so not free: inserting all and erasing it frees exactly the others.
  free_.insert_all(part);
  if (failed_here) free_.erase(failed_node);
}

}  // namespace faultsweep::sim
