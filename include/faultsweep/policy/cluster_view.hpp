#pragma once
// The one read-only view of the running cluster that every decision maker gets: queue
// policies (QueueState::view), allocators (AllocationContext::view), size choosers
// (SizeRequest::view) and runtime strategies (every call). The engine (sim::Simulation)
// implements it; a view is valid during the call that receives it only. It shows the time,
// each node's state and owner, what has happened to each node so far, the running and waiting
// jobs with their nodes and progress, and, where a predictor is attached, its predictions —
// never a failure still to come.
#include <cstdint>
#include <span>

#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/node_set.hpp"

namespace faultsweep::policy {

// What the queue policy knows of one job (indexed by job id).
struct JobInfo {
  std::int32_t size = 1;  // nodes
  double est_wall_s = 0;  // estimated wall time of the job's next execution, from the user's
                          // estimate minus committed progress, plus checkpoint overheads
};

// `nodes` become free at `time_s` (estimated: a running job's start + estimated wall time, a
// down node's repair time). Sorted by time.
struct Release {
  double time_s = 0;
  std::int32_t nodes = 0;
  std::int32_t job = -1;  // the running job, or -1 for a repair
};

// A node's state, as the engine keeps it (sim::NodeState is this enum) and every decision
// maker reads it. `held`: allocated to a job suspended while another of its nodes is repaired
// (wait_repair). `spare`: held idle by a runtime strategy (the queue never gets it). The
// values index the engine's time-per-state array.
enum class NodeUse : std::uint8_t { idle = 0, busy = 1, held = 2, down = 3, spare = 4 };

// A running (or suspended) job as a decision maker sees it.
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
  double est_end_s = 0;     // running: its estimated end, its key in running()
  std::span<const std::int32_t> nodes;
};

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
  // With a predictor attached to the engine (a strategy whose registry row needs one): the
  // nodes it reports as going to fail in [now, now + window_s) (FARS §5.1), window_s > 0.
  // Each call is one prediction: it draws from the predictor's own random stream and counts
  // in the predictions_true / false / missed metrics, so a strategy calls it when it acts on
  // the answer (FARS at every tick over the tick period; Zhang §5.2.2 once per bucket over
  // the bucket). Empty without a predictor. The caller never sees the failures themselves,
  // only what the predictor (precision, recall) makes of them. The one call of the view that
  // is not a pure read: it advances the predictor's stream, never the failures'.
  virtual std::span<const std::int32_t> predict(double window_s) const = 0;
  // The report of the last predict() call since the last strategy tick began (empty if there
  // was none): what a failure record's `predicted` flag compares with.
  virtual std::span<const std::int32_t> predicted() const = 0;
};

}  // namespace faultsweep::policy
