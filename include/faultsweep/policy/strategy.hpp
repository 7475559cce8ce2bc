#pragma once
// Runtime strategies (DESIGN §5a): a policy that acts on the running cluster — FARS'
// prediction-driven rescheduling and spare nodes, Zhang et al.'s prediction-driven
// checkpointing and Least Failure First migration. Like a Batsim decision process it asks to
// be called back (periodically, at times it names, at predicted failures, after failures, when
// a job ends), gets the read-only view of the cluster that every decision maker gets
// (cluster_view.hpp) and answers with a batch of decisions; the engine checks each decision and
// is the only writer of state.
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/cluster_view.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/policy/queue.hpp"

namespace faultsweep::policy {

// What a strategy asks of the engine, once, before the run.
struct StrategyNeeds {
  // Call on_tick at offset_s + k x period_s, k = 0, 1, ... (period +inf: never).
  double period_s = std::numeric_limits<double>::infinity();
  double offset_s = 0;
  // Call on_call first at this time (+inf: never; a time before the start: at the start); at
  // any call the strategy may ask for more (Decisions::call_at_s).
  double first_call_s = std::numeric_limits<double>::infinity();
  // Call on_warning lead_s before every failure the engine will inject (a perfect predictor
  // with lead time lead_s > 0; +inf: never). A warning comes at max(now, failure - lead).
  double warning_lead_s = std::numeric_limits<double>::infinity();
  // Call on_job_end after a job completes.
  bool job_ends = false;
  // Call on_failure after the engine has applied every failure (off: runs without it do not
  // pay for the call).
  bool failures = false;
  // Keep every failure time per node in the node history.
  bool failure_times = false;
};

// Move one process of `job` from node `from` to node `to` (idle or spare). All moves of one
// job in a batch are applied together: the job's execution stops, keeps all work done so far
// and restarts on the new node set after `overhead_s` (the largest of its moves'), like a
// checkpoint-and-restart (FARS §4.1 O_F) or a live migration. With `hold_from` the node left
// becomes a spare (the queue does not get it back) until the strategy releases it.
struct Move {
  std::int32_t job = -1;
  std::int32_t from = -1;
  std::int32_t to = -1;
  double overhead_s = 0;
  bool hold_from = false;
};

// A batch of decisions, applied in this order: hold spares, moves, checkpoints, release spares;
// then the calls asked for are scheduled.
struct Decisions {
  std::vector<std::int32_t> hold;  // idle nodes into the spare pool (the queue never sees them)
  std::vector<Move> moves;
  std::vector<std::int32_t> checkpoint;  // running jobs: checkpoint now, at the checkpoint cost
  std::vector<std::int32_t> release;     // spare nodes back to idle
  // "Call me at t": on_call at each of these times (>= now; one call per entry, also for
  // equal times). A call at the current time comes after every other event of this instant.
  std::vector<double> call_at_s;
  void clear() {
    hold.clear();
    moves.clear();
    checkpoint.clear();
    release.clear();
    call_at_s.clear();
  }
  bool empty() const {
    return hold.empty() && moves.empty() && checkpoint.empty() && release.empty() &&
           call_at_s.empty();
  }
};

class RuntimeStrategy {
 public:
  virtual ~RuntimeStrategy() = default;
  virtual std::string_view name() const = 0;
  virtual StrategyNeeds needs() const = 0;
  virtual void on_tick(const ClusterView& view, Decisions& out) { (void)view, (void)out; }
  // `failure` is what will happen (node, time); only strategies that model a perfect
  // predictor may ask for warnings.
  virtual void on_warning(const ClusterView& view, const failures::FailureEvent& failure,
                          Decisions& out) {
    (void)view, (void)failure, (void)out;
  }
  virtual void on_job_end(const ClusterView& view, std::int32_t job, Decisions& out) {
    (void)view, (void)job, (void)out;
  }
  // At a time the strategy asked for (Decisions::call_at_s).
  virtual void on_call(const ClusterView& view, Decisions& out) { (void)view, (void)out; }
  // With StrategyNeeds::failures: after the engine applied `failure` (the node is down, the
  // job it interrupted requeued or suspended). `job_hit`: the job that was running on the
  // node, or -1 (the node was idle, spare, already down, or held by a suspended job).
  virtual void on_failure(const ClusterView& view, const failures::FailureEvent& failure,
                          std::int32_t job_hit, Decisions& out) {
    (void)view, (void)failure, (void)job_hit, (void)out;
  }
  // At the end of a replica: the metrics of its own (StrategyTraits::metrics), by name
  // (core/metric_sink.hpp).
  virtual void report(MetricSink& sink) const { (void)sink; }
};

// The default: does nothing, asks for nothing.
class NoStrategy final : public RuntimeStrategy {
 public:
  std::string_view name() const override { return "none"; }
  StrategyNeeds needs() const override { return {}; }
};

}  // namespace faultsweep::policy
