#pragma once
// Engine signals (as SimGrid's): what happens in a cluster simulation, told to whoever
// subscribed (Simulation::observe) right after the engine applied it, with the read-only view
// of the cluster. An Observer only watches — decisions go through a RuntimeStrategy — so a run
// with observers has the same results as one without. A metric plug-in (metrics/registry.hpp)
// is an Observer that reports what it measured at the end of a replica, by name.
#include <cstdint>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::sim {

class Observer {
 public:
  virtual ~Observer() = default;
  // An execution of `job` began on its nodes (view.job(job).nodes): its first start, or a
  // restart after a repair, a move or a checkpoint a strategy asked for.
  virtual void on_job_start(const policy::ClusterView& view, std::int32_t job) {
    (void)view, (void)job;
  }
  // `job` completed (its nodes are released).
  virtual void on_job_end(const policy::ClusterView& view, std::int32_t job) {
    (void)view, (void)job;
  }
  // `failure.node` failed; `job_hit` is the running job it interrupted, or -1.
  virtual void on_failure(const policy::ClusterView& view, const failures::FailureEvent& failure,
                          std::int32_t job_hit) {
    (void)view, (void)failure, (void)job_hit;
  }
  // `node` is repaired (its down period ended).
  virtual void on_repair(const policy::ClusterView& view, std::int32_t node) {
    (void)view, (void)node;
  }
  // A strategy's moves of `job`'s processes were applied.
  virtual void on_move(const policy::ClusterView& view, std::int32_t job) { (void)view, (void)job; }
  // A strategy asked `job` to checkpoint now; its checkpoint is being written.
  virtual void on_checkpoint(const policy::ClusterView& view, std::int32_t job) {
    (void)view, (void)job;
  }
  // At the end of a replica: what it measured, by the names it declared.
  virtual void report(MetricSink& sink) const { (void)sink; }
};

}  // namespace faultsweep::sim
