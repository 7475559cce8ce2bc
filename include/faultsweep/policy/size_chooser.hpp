#pragma once
// Size choice for moldable jobs (rigid jobs: size from the workload; moldable jobs: size chosen
// when they start, up to the size they request; Gottumukkala Ch. 6). The queue policy asks
// at the point where a job would start in queue order (FCFS, and the queue-order prefix of
// EASY); the answer is a pure function of (requested size, free nodes), so the engine can
// recompute it for the jobs the policy started.
#include <cstdint>
#include <memory>
#include <string_view>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/cluster_view.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::policy {

// What a size chooser may know: the request, the free nodes, the time, the job and the nodes'
// history so far. The engine asks once per start and applies that answer.
struct SizeRequest {
  std::int32_t requested = 1;
  int free_nodes = 0;
  double now_s = 0;
  std::int32_t job = -1;
  double estimate_s = 0;  // at the requested size
  const failures::NodeHistory* history = nullptr;
  // The free set when the pass began (it may hold nodes that jobs started earlier in the same
  // pass take: free->count() - free_nodes of them) and the machine size; null / 0 in tests.
  const NodeSet* free = nullptr;
  int machine_nodes = 0;
  // The run's speedup law (how run time shrinks with size; workload/job.hpp); null in tests.
  const workload::Speedup* speedup = nullptr;
  // The same read-only view of the cluster that runtime strategies get (cluster_view.hpp):
  // node states, running and waiting jobs. Null only outside the engine (tests).
  const ClusterView* view = nullptr;
};

class SizeChooser {
 public:
  virtual ~SizeChooser() = default;
  virtual std::string_view name() const = 0;
  // True if it reads NodeHistory::failure_times_s (the engine then keeps them).
  virtual bool needs_failure_times() const { return false; }
  // True if its answer may exceed the requested size (up to free_nodes; Gottumukkala RA-Opt
  // and ALL): the run time then shrinks by the workload's speedup law.
  virtual bool may_exceed_request() const { return false; }
  // The size a moldable job requesting `requested` nodes starts with when `free_nodes` are
  // free, in 1 .. min(requested, free_nodes); 0: it waits.
  virtual std::int32_t choose(const SizeRequest& r) const = 0;
  // At the end of a replica: the metrics its registry row declares (PlacementTraits), by name.
  virtual void report(MetricSink& sink) const { (void)sink; }
  std::int32_t choose(std::int32_t requested, int free_nodes) const {
    SizeRequest r;
    r.requested = requested;
    r.free_nodes = free_nodes;
    return choose(r);
  }
};

// Always the requested size: moldable jobs behave exactly like rigid ones.
class MaxSize final : public SizeChooser {
 public:
  using SizeChooser::choose;
  std::string_view name() const override { return "max"; }
  std::int32_t choose(const SizeRequest& r) const override;
};

// min(requested, free) if that is at least min_fraction x requested (and >= 1), else wait:
// with min_fraction = 0.5, a job requesting 4 starts on 2, 3 or 4 free nodes.
class FreeSize final : public SizeChooser {
 public:
  explicit FreeSize(double min_fraction) : min_fraction_(min_fraction) {}
  using SizeChooser::choose;
  std::string_view name() const override { return "free"; }
  std::int32_t choose(const SizeRequest& r) const override;

 private:
  double min_fraction_;
};

// "max" | "free" (with min_fraction in (0, 1]); throws InputError("moldable_size" or
// "moldable_min_fraction", ...) otherwise.
std::unique_ptr<SizeChooser> make_size_chooser(std::string_view name, double min_fraction);

}  // namespace faultsweep::policy
