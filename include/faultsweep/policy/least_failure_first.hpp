#pragma once
// Least Failure First (Zhang, Squillante, Sivasubramaniam & Sahoo, JSSPP 2004, §5.2.3, Fig. 11):
// nodes that have failed more are less safe.
//
// Initial assignment — the allocator `lff`: a starting job gets the free nodes with the fewest
// failures so far (failures::NodeHistory, which the engine writes when a failure happens: never
// a failure of the future), ties by the lower node id (so with no failures yet it is first fit).
//
// Migration — the strategy `lff_migrate`: when a job J finishes, the running jobs that started
// after J (first start later than J's) may move processes from less safe nodes to safer idle
// nodes: the busy node with the most failures is paired with the idle node with the fewest, and
// so on, while failures(from) - failures(to) > lff_threshold (the `zhang` table; an integer >= 0,
// default 1: the paper's threshold is not printed). Each moved job keeps all its work and
// restarts after migration_overhead (checkpoint on the old nodes, restart on the new ones: 5 min
// in the paper); a job still in such an overhead is not moved again. Migrations are counted in
// the `migrations` metric.
#include <cstdint>
#include <string_view>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::policy {

class LeastFailureFirst final : public Allocator {
 public:
  using Allocator::allocate;
  std::string_view name() const override { return "lff"; }
  // Allocates memory only when a node reaches a failure count that no node had before.
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;

 private:
  // Brings the buckets to the history's counts (a pass over the nodes only if failures happened
  // since the last call).
  void sync(const failures::NodeHistory& h);

  // Every node in the bucket of its failure count (a bitset by id, and its size), so that the k
  // safest free nodes are the free members of the first buckets in id order, without a sort.
  struct Bucket {
    std::vector<std::uint64_t> words;
    std::int64_t size = 0;
  };
  std::vector<Bucket> by_count_;
  std::vector<std::int64_t> count_of_;  // the bucket of each node
  std::int64_t synced_total_ = -1;
};

class LffMigration final : public RuntimeStrategy {
 public:
  explicit LffMigration(const Params& point);
  std::string_view name() const override { return "lff_migrate"; }
  StrategyNeeds needs() const override;
  void on_job_end(const ClusterView& view, std::int32_t job, Decisions& out) override;

 private:
  struct Slot {
    std::int64_t failures;
    std::int32_t node;
    std::int32_t job;  // -1: an idle node
  };
  std::int64_t threshold_;
  double overhead_s_;
  std::vector<Slot> idle_, busy_;
  std::vector<double> moving_until_s_;  // by job: the end of its migration overhead
};

}  // namespace faultsweep::policy
