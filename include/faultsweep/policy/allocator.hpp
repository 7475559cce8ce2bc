#pragma once
// Node allocators: which free nodes a starting job gets. Rigid jobs need `size` distinct nodes;
// down nodes are never in the free set, so they are never allocated.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/cluster_view.hpp"
#include "faultsweep/policy/node_set.hpp"

namespace faultsweep::policy {

// What an allocator may know besides the free nodes: the time, the job, and what has happened
// to every node so far (never anything after `now_s`).
struct AllocationContext {
  double now_s = 0;
  std::int32_t job = -1;
  double est_wall_s = 0;  // estimated wall time of the execution about to start
  double progress_s = 0;  // work the job has committed already (restarts)
  const failures::NodeHistory* history = nullptr;  // null only outside the engine (tests)
  // The same read-only view of the cluster that runtime strategies get (cluster_view.hpp):
  // node states and owners, running jobs, predictions. Null only outside the engine (tests).
  const ClusterView* view = nullptr;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::string_view name() const = 0;
  // True if it reads NodeHistory::failure_times_s (the engine then keeps them).
  virtual bool needs_failure_times() const { return false; }
  // True if it hands out mostly runs of consecutive ids (first fit, round robin): the engine
  // then changes a wide job's nodes run by run (sim/node_runs.hpp), else node by node.
  virtual bool hands_out_runs() const { return false; }
  // Writes out.size() distinct members of `free` to `out` (the caller removes them from the
  // set). Precondition: free.count() >= out.size(). Must not allocate memory.
  virtual void allocate(const AllocationContext& ctx, const NodeSet& free,
                        std::span<std::int32_t> out) = 0;
  // One that hands out runs may also give its choice as runs: `runs` is cleared, then holds
  // exactly the nodes, in the order, that allocate() would write for `count` nodes (with the same
  // effect on the allocator's own state, e.g. a cursor), so the caller need not search a list
  // for them. False: it has no such form (the caller uses allocate()). Must not allocate memory
  // beyond what `runs` already reserved, except to grow it.
  virtual bool allocate_runs(const AllocationContext& ctx, const NodeSet& free, std::int32_t count,
                             std::vector<NodeRun>& runs) {
    (void)ctx, (void)free, (void)count, (void)runs;
    return false;
  }
  void allocate(const NodeSet& free, std::span<std::int32_t> out) {
    allocate(AllocationContext{}, free, out);
  }
  // At the end of a replica: the metrics its registry row declares (PlacementTraits), by name.
  virtual void report(MetricSink& sink) const { (void)sink; }
};

// The lowest free node ids: reproducible, but it concentrates work (and the failures of
// skewed failure processes) on node 0 and its neighbours — Zhang et al. §4.1 show that
// artefact with alpha = 0.99.
class FirstFit final : public Allocator {
 public:
  using Allocator::allocate;
  std::string_view name() const override { return "first_fit"; }
  bool hands_out_runs() const override { return true; }
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;
  bool allocate_runs(const AllocationContext& ctx, const NodeSet& free, std::int32_t count,
                     std::vector<NodeRun>& runs) override;
};

// The next free ids after the last node handed out, wrapping around: spreads work over the
// machine (Gottumukkala Ch. 6 uses round robin as the reliability-oblivious baseline).
class RoundRobin final : public Allocator {
 public:
  using Allocator::allocate;
  std::string_view name() const override { return "round_robin"; }
  bool hands_out_runs() const override { return true; }
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;
  bool allocate_runs(const AllocationContext& ctx, const NodeSet& free, std::int32_t count,
                     std::vector<NodeRun>& runs) override;

 private:
  int cursor_ = 0;  // first node id to try next time
};

// A row of policy/registry.hpp's allocators(); throws InputError("allocator", ...) otherwise.
std::unique_ptr<Allocator> make_allocator(std::string_view name);

}  // namespace faultsweep::policy
