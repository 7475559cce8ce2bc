#pragma once
// Runtime strategies (DESIGN §5a): a policy that acts on the running cluster — FARS'
// prediction-driven rescheduling and spare nodes, Zhang et al.'s prediction-driven
// checkpointing and Least Failure First migration. Like a Batsim decision process it asks to
// be called back (periodically, at predicted failures, when a job ends), gets a read-only view
// of the cluster and answers with a batch of decisions; the engine checks each decision and is
// the only writer of state.
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/policy/queue.hpp"

namespace faultsweep::policy {

// What a strategy asks of the engine, once, before the run.
struct StrategyNeeds {
  // Call on_tick at offset_s + k x period_s, k = 0, 1, ... (period +inf: never).
  double period_s = std::numeric_limits<double>::infinity();
  double offset_s = 0;
  // Call on_warning lead_s before every failure the engine will inject (a perfect predictor
  // with lead time lead_s > 0; +inf: never). A warning comes at max(now, failure - lead).
  double warning_lead_s = std::numeric_limits<double>::infinity();
  // Call on_job_end after a job completes.
  bool job_ends = false;
  // Keep every failure time per node in the node history.
  bool failure_times = false;
  // With a predictor attached: each prediction covers [tick, tick + predict_window_s) (0: the
  // period) and is made at every predict_every-th tick from the first; the ticks in between
  // see an empty predicted() (Zhang §5.2.2: one prediction per bucket, checkpoints within it).
  double predict_window_s = 0;
  int predict_every = 1;
};

// A node's state, as the engine keeps it (sim::NodeState is this enum) and every decision
// maker reads it. `held`: allocated to a job suspended while another of its nodes is repaired
// (wait_repair). `spare`: held idle by a runtime strategy (the queue never gets it). The
// values index the engine's time-per-state array.
enum class NodeUse : std::uint8_t { idle = 0, busy = 1, held = 2, down = 3, spare = 4 };

// A running (or suspended) job as a strategy sees it.
struct JobView {
  std::int32_t id = -1;
  std::int32_t size = 0;
  double estimate_s = 0;    // the user's estimate of its run time (at its size)
  double elapsed_s = 0;     // wall time since its first start
  double progress_s = 0;    // work committed by checkpoints (or carried by a move)
  double exec_start_s = 0;  // start of its current execution
  double safe_point_s = 0;  // its last checkpoint (or move), or its start: what a failure keeps
  double waiting_s = 0;     // time it has spent in the queue so far
  bool running = false;     // false: suspended, waiting for a repair
  std::span<const std::int32_t> nodes;
};

// The read-only view a strategy gets (the engine implements it). Valid during the call only.
class ClusterView {
 public:
  virtual ~ClusterView() = default;
  virtual double now_s() const = 0;
  virtual int nodes() const = 0;
  virtual NodeUse node_use(std::int32_t node) const = 0;
  virtual std::int32_t node_owner(std::int32_t node) const = 0;  // job, or -1
  virtual const NodeSet& free() const = 0;                       // idle nodes
  virtual int spare_count() const = 0;
  virtual std::span<const Release> running() const = 0;  // by estimated end
  virtual JobView job(std::int32_t id) const = 0;
  virtual std::span<const std::int32_t> waiting() const = 0;  // queue order
  virtual std::span<const JobInfo> job_info() const = 0;      // by job id
  // Expected future capacity (running jobs' estimated ends, repairs), as EASY sees it.
  virtual std::span<const Release> releases() const = 0;
  virtual const failures::NodeHistory& history() const = 0;
  virtual double checkpoint_cost_s() const = 0;
  // At a tick, with a predictor attached to the engine: the nodes it reports as going to fail
  // before the next tick (FARS §5.1). Empty otherwise. The strategy never sees the failures
  // themselves, only what the predictor (precision, recall) makes of them.
  virtual std::span<const std::int32_t> predicted() const = 0;
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

// A batch of decisions, applied in this order: hold spares, moves, checkpoints, release spares.
struct Decisions {
  std::vector<std::int32_t> hold;  // idle nodes into the spare pool (the queue never sees them)
  std::vector<Move> moves;
  std::vector<std::int32_t> checkpoint;  // running jobs: checkpoint now, at the checkpoint cost
  std::vector<std::int32_t> release;     // spare nodes back to idle
  void clear() {
    hold.clear();
    moves.clear();
    checkpoint.clear();
    release.clear();
  }
  bool empty() const {
    return hold.empty() && moves.empty() && checkpoint.empty() && release.empty();
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
