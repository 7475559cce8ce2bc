#pragma once
// The discrete-event engine of the cluster simulator (DESIGN §5): N nodes, one job per node at
// a time, rigid and moldable jobs from a workload, node failures from a FailureSource, a queue
// policy and an allocator from policy/, periodic checkpointing, and what happens to a job hit by a
// failure (FARS §5.1; Zhang et al. §3-§5.1).
//
// Time starts at min(0, first submit). A failure of a busy node interrupts its job: the job's
// committed progress is its last completed checkpoint; the wall time since then is lost. The
// job is then requeued (at the head of the queue, or at its original place in arrival order)
// or, with wait_repair, suspended on its nodes until the failed node is repaired (FARS §5.1),
// and restarted from the checkpoint. Down nodes are never allocatable.
//
// A moldable job (Job::moldable) gets its size from a policy::SizeChooser when it first starts
// (FCFS, and EASY's queue-order prefix; see policy/queue.hpp); its runtime and estimate are
// scaled by SimConfig::speedup to that size, and size and runtime stay fixed from then on
// (restarts after failures keep them).
//
// A runtime strategy (policy/strategy.hpp, DESIGN §5a) may be attached: the engine calls it
// at the times it asks for (periodic ticks, times it names, warnings ahead of failures, after
// failures, job ends) with a read-only view (ClusterView, implemented here, and given to the
// queue policy, allocator and size chooser too) and applies its batch of decisions, checking
// each: hold / release spare nodes (NodeState::spare: the queue never sees them), move
// processes of a running job to idle or spare nodes (the job keeps all its work and restarts
// after the move's overhead), checkpoint a running job now. Failures come through a
// failures::Lookahead (the same stream, whoever looks ahead); failures::NodeHistory records
// what has happened to each node, for allocators, size choosers and strategies.
//
// One Simulation object owns all its state (no globals); run() once. The hot loop does not
// allocate: every container is reserved in the constructor, and a completion made void by a
// failure is recognised by the job's generation counter when it pops.
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/failures/lookahead.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/policy/on_failure.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/policy/strategy.hpp"
#include "faultsweep/sim/checkpoint.hpp"
#include "faultsweep/sim/event_queue.hpp"
#include "faultsweep/sim/node_runs.hpp"
#include "faultsweep/sim/node_slots.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sim/signals.hpp"
#include "faultsweep/sim/waste.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::sim {

// The on-failure rule lives in policy/on_failure.hpp; these names stay for callers.
using policy::on_failure_from;
using policy::OnFailure;

struct SimConfig {
  int nodes = 1;
  OnFailure on_failure = OnFailure::requeue_head;
  // The checkpoint policy (policy/checkpoint_policy.hpp), described by its settings.
  CheckpointMode checkpoint = CheckpointMode::none;
  double checkpoint_interval_s = std::numeric_limits<double>::infinity();  // periodic only
  double checkpoint_cost_s = 0;
  // young / daly: a job of `size` nodes fails at rate size / node_mtbf_s (M = node MTBF / size).
  double node_mtbf_s = std::numeric_limits<double>::infinity();
  double horizon_s = std::numeric_limits<double>::infinity();  // the run stops here
  // No failure after this time is injected (the horizon, or the failure source's generation
  // bound when the run has no horizon).
  double failure_stop_s = std::numeric_limits<double>::infinity();
  workload::Speedup speedup;  // run time of moldable jobs vs their size
  // Metrics::mean_slowdown_above_floor counts only jobs whose failure-free run time is at least
  // this many seconds (the cluster model's `slowdown_floor`).
  double slowdown_floor_s = 3600.0;
};

struct JobRecord {
  double submit_s = 0, runtime_s = 0, estimate_s = 0;
  std::int32_t size = 1;  // the size it runs with (a moldable job's chosen size once started)
  std::int32_t requested_size = 1;  // from the workload (a moldable job's maximum)
  bool moldable = false;
  JobState state = JobState::pending;
  double first_start_s = std::numeric_limits<double>::quiet_NaN();
  double finish_s = std::numeric_limits<double>::quiet_NaN();
  double waiting_s = 0, running_s = 0, suspended_s = 0;  // time per state
  double progress_s = 0;  // work committed (by checkpoints, or the whole job when done)
  double lost_s = 0;      // wall time of executions rolled back by failures
  double interval_s = std::numeric_limits<double>::infinity();  // checkpoint interval (work)
  std::int32_t failures = 0;         // executions interrupted by a failure
  std::int32_t moves = 0;            // migrations applied (each moves one or more processes)
  std::int32_t checkpoints_now = 0;  // checkpoints a strategy asked for
  double overhead_s = 0;             // wall time of completed move / checkpoint-now overheads
  double checkpoint_s = 0;  // wall time writing checkpoints (periodic, on demand; cut ones too)
  std::int32_t checkpoints_written = 0;  // checkpoints completed (periodic and on demand)
  bool lead_checkpoint = false;          // the current lead is a checkpoint (not a move)
  // Engine: the runs of consecutive ids found in its node list when it took its nodes
  // (take_all), kept so that giving them back and releasing them need not look again; a move of
  // one of its nodes drops them. runs_offset: in the engine's NodeSlots of runs (-1: none).
  std::int64_t runs_offset = -1;
  std::int32_t runs = 0;
  // Runs handed out by the allocator are written into the node list only when the list is
  // first read (nodes_of): most lists are never read before the job gives its nodes back.
  mutable bool list_pending = false;
  // Engine bookkeeping.
  double since_s = 0;             // entered the current state
  double exec_start_s = 0;        // current execution
  double exec_work_s = 0;         // work left when the current execution started
  double exec_lead_s = 0;         // overhead at its start (a move, a checkpoint now): no work
  double carry_s = 0;             // work done before it, committed once its lead completes
  double carry_wall_s = 0;        // the wall time that work took (lost if the lead fails)
  double est_end_s = 0;           // by the estimate: the running set's sort key
  std::int64_t node_offset = -1;  // its node list in the engine's NodeSlots (-1: no nodes)
  std::int64_t queue_key = 0;     // waiting order: arrival index, or negative for head requeues
  std::uint32_t generation = 0;   // bumped when an execution ends early: its completion is void
  std::int32_t down_nodes = 0;    // suspended: nodes of the job still down
};

// Metrics of one run (the `cluster` model documents each; sim/metrics in its MetricSpecs).
struct Metrics {
  double makespan_s = 0;  // last completion (or the horizon) - first submit
  double utilization = 0;
  double mean_response_s = 0, mean_wait_s = 0, mean_slowdown = 0, mean_bounded_slowdown = 0;
  double work_loss_ratio = 0, sul_node_hours = 0, jfr = 0, fsd = 0;
  double throughput_per_h = 0, mct_s = 0, mwt_s = 0;
  std::int64_t failures = 0, job_failures = 0;
  std::int64_t jobs = 0, completed = 0, unfinished = 0, rejected = 0;
  std::int64_t events = 0, stale_events = 0;
  std::int64_t migrations = 0, checkpoints_now = 0;  // decisions of a runtime strategy applied
  double spare_node_hours = 0;                       // node time in the spare pool
  // With a predictor (set_predictor): nodes reported that then failed in the interval, false
  // alarms, and really-failing nodes not reported (FARS §5.1; counted per interval).
  std::int64_t predicted_true = 0, predicted_false = 0, predicted_missed = 0;
  // Chosen / requested size, mean over the moldable jobs that started (NaN if none).
  double mean_moldable_size_fraction = std::numeric_limits<double>::quiet_NaN();
  // Zhang §5.1 Figs. 5(c)/6(c): per job, wall time writing checkpoints / execution time, mean
  // over completed jobs; checkpoints completed by all jobs.
  double checkpoint_overhead_ratio = 0;
  std::int64_t checkpoints = 0;
  // response / runtime, mean over completed jobs with runtime >= SimConfig::slowdown_floor_s
  // (NaN if none).
  double mean_slowdown_above_floor = std::numeric_limits<double>::quiet_NaN();
  // The failure stream ended (SimConfig::failure_stop_s, a synthetic process's generation
  // bound) before the last job completed: the jobs after it ran failure-free.
  bool failures_truncated = false;
  WasteBreakdown waste;  // by run length and size (Gottumukkala Ch. 5, §6.4.5; sim/waste.hpp)
};

// No job completing in this many events: the run cannot progress (an InputError naming the
// likely cause), instead of running for hours. Healthy runs see thousands at most.
inline constexpr std::int64_t kNoProgressEvents = std::int64_t{1} << 25;

class Simulation final : private policy::ReleaseSource,
                         private policy::StartSizes,
                         private policy::ClusterView {
 public:
  // `jobs` sorted by submit time; jobs wider than the machine (or of size < 1) are rejected
  // (counted, never started). The referenced objects must outlive the Simulation. Without a
  // size chooser, moldable jobs start at their requested size (as with policy::MaxSize);
  // without a strategy, nothing acts on running jobs.
  Simulation(const SimConfig& config, std::span<const workload::Job> jobs,
             failures::FailureSource& failures, policy::QueuePolicy& queue,
             policy::Allocator& allocator, const policy::SizeChooser* sizes = nullptr,
             policy::RuntimeStrategy* strategy = nullptr);

  // Runs to the end (all jobs done, or the horizon), checks the invariants (FS_CHECK) and
  // returns the metrics. `stop` (SIGTERM) is polled about every 65,536 events: a stopped run
  // throws Interrupted. A run in which no job completes for 2^25 events throws InputError.
  Metrics run(const std::atomic<bool>* stop = nullptr);

  const std::vector<JobRecord>& jobs() const { return jobs_; }
  // Node-seconds per NodeState over the run, summed over nodes.
  std::array<double, kNodeStates> node_time_s() const;
  double end_s() const { return now_; }
  const failures::NodeHistory& node_history() const { return history_; }
  // Entries of the node-list store: bounded by the nodes in use, not by the jobs of the log.
  std::size_t node_list_entries() const { return job_nodes_.capacity_entries(); }
  // A failure predictor (FARS §5.1), asked by the strategy through ClusterView::predict over
  // the failures of a window (from the lookahead), drawing from `rng` (Purpose::predictor)
  // only. Call before run().
  void set_predictor(failures::Predictor* predictor, Engine rng) {
    predictor_ = predictor;
    predictor_rng_ = rng;
  }
  // Records of the run (sim/records.hpp) go to `recorder`; null (the default) records nothing.
  // Call before run(); the Recorder must outlive the run.
  void set_recorder(Recorder* recorder) { rec_ = recorder; }
  // Tell `observer` every engine signal (sim/signals.hpp), after the observers added before
  // it. Call before run(); the Observer must outlive the run.
  void observe(Observer* observer) { observers_.push_back(observer); }

 private:
  // Event handlers, one per EventType (engine.cpp dispatches).
  void dispatch(const Event& e);
  void check_progress() const;  // periodic: the progress line, a run that cannot progress
  void on_submit(std::int32_t j);
  void on_complete(std::int32_t j);
  void on_failure();
  void on_repair(std::int32_t n);
  void on_horizon();
  void on_tick();
  void on_warning();
  void on_call();

  // Jobs (engine_jobs.cpp).
  void start_job(std::int32_t j, std::int32_t size);
  double interval_for(std::int32_t size) const;
  void begin_execution(std::int32_t j);
  void restart_execution(std::int32_t j, double lead_s);
  struct Settled {
    double committed_s = 0, uncommitted_s = 0, uncommitted_wall_s = 0;
  };
  Settled settle(JobRecord& r);
  void interrupt(std::int32_t j, std::int32_t failed_node, double up_s);
  void enqueue(std::int32_t j);
  void set_job_state(JobRecord& r, JobState s);

  // A job's nodes change hands: node by node (engine_jobs.cpp), or by runs of consecutive ids
  // (engine_nodes.cpp).
  void set_node_state(std::int32_t n, NodeState s);
  void record_node(std::int32_t n, NodeState s);  // the recorder's line of a state change
  void take_each(std::int32_t j, std::span<const std::int32_t> part);  // at its start
  void give_each(std::int32_t j, std::span<const std::int32_t> part);  // at its completion
  void take_all(std::int32_t j, std::span<const std::int32_t> nodes);
  bool take_run(std::int32_t j, std::int64_t a, std::int64_t b);
  void give_all(std::int32_t j);
  void take_runs(std::int32_t j, std::span<std::int32_t> nodes);
  void found_run(std::size_t k, std::size_t e, bool taken, std::int32_t first);  // to runs_found_
  // The job's node list as stored: the runs of a pending list (JobRecord::list_pending) are not
  // in it yet. nodes_of() writes them first.
  std::span<std::int32_t> stored_list(const JobRecord& r) const;
  void write_pending(std::int32_t j) const;
  void keep_runs(JobRecord& r);  // runs_found_ are the runs of its list
  void drop_runs(JobRecord& r);  // its runs are no longer those of its list
  template <class F>
  void for_each_kept_run(std::int32_t j, std::span<const std::int32_t> list, F&& f) const;
  void give_run(std::size_t a, std::size_t b);
  void release_nodes(std::int32_t j, std::int32_t failed_node, double up_s, NodeState to);
  void release_range(std::size_t a, std::size_t b, NodeState to, bool keep);
  void release_part(std::span<const std::int32_t> part, std::int32_t failed_node, double up_s,
                    NodeState to, bool down_now);
  // The node states as a raw pointer, and the per-state totals brought up to the time now
  // (sim/node_runs.hpp): every change of a node's state goes through this.
  NodeClocks clocks() {
    state_totals_.advance(now_);
    return {node_state_.data(), &state_totals_};
  }
  void running_insert(std::int32_t j);
  void running_erase(std::int32_t j);
  double est_wall_s(const JobRecord& r) const;
  std::span<std::int32_t> nodes_of(std::int32_t j);
  void drop_node_list(JobRecord& r);  // the job released its nodes: its slot is reused
  std::span<const std::int32_t> nodes_of(std::int32_t j) const;

  // Failures and repairs (engine_failures.cpp).
  void pull_failure();
  void fail_node(std::int32_t n, double up_s);
  void take_down(std::int32_t n, double up_s);
  void make_failure_arrays();
  void schedule_warning();

  // Scheduling (engine_schedule.cpp).
  void schedule();
  // Nothing is left to happen with jobs outstanding: an error naming the queue policy or size
  // chooser whose answers left a job that fits waiting (engine_schedule.cpp), else a bug.
  [[noreturn]] void stalled() const;
  std::span<const policy::Release> releases() const override;
  std::int32_t start_size(std::int32_t j, int free_nodes) const override;
  double est_wall_at_s(std::int32_t j, std::int32_t size) const override;
  bool sized_at_start(std::int32_t j) const override;
  std::int32_t size_if_started(std::int32_t j) const override;

  // Runtime strategy: the view and the decisions (engine_actions.cpp).
  void apply(policy::Decisions& d, DecisionCause cause);
  // Every decision maker's view (QueueState, AllocationContext, SizeRequest, strategies).
  const policy::ClusterView* view() const { return this; }
  void move_job(std::int32_t j, std::span<const policy::Move> moves);
  void checkpoint_now(std::int32_t j);
  double now_s() const override { return now_; }
  int nodes() const override { return cfg_.nodes; }
  policy::NodeUse node_use(std::int32_t node) const override;
  std::int32_t node_owner(std::int32_t node) const override;
  const policy::NodeSet& free() const override { return free_; }
  int spare_count() const override { return spare_count_; }
  std::span<const policy::Release> running() const override { return running_; }
  policy::JobView job(std::int32_t id) const override;
  std::span<const std::int32_t> waiting() const override { return waiting_; }
  std::span<const policy::JobInfo> job_info() const override { return info_; }
  const failures::NodeHistory& history() const override { return history_; }
  double checkpoint_cost_s() const override { return cfg_.checkpoint_cost_s; }
  std::span<const std::int32_t> predict(double window_s) const override;
  std::span<const std::int32_t> make_prediction(double window_s);
  std::span<const std::int32_t> predicted() const override { return predicted_; }

  // End of the run (accounting.cpp).
  void check_invariants() const;
  Metrics metrics() const;
  void finish_records();  // engine_records.cpp

  SimConfig cfg_;
  policy::CheckpointPolicy checkpoints_;
  std::span<const workload::Job> input_;
  failures::Lookahead failures_;
  policy::QueuePolicy& queue_;
  policy::Allocator& allocator_;
  const policy::SizeChooser* sizes_;
  policy::NoStrategy none_;  // when no strategy is given
  policy::RuntimeStrategy* strategy_;
  policy::StrategyNeeds needs_;
  policy::Decisions decisions_;
  failures::NodeHistory history_;
  failures::Predictor* predictor_ = nullptr;
  Engine predictor_rng_;
  std::vector<std::int32_t> failing_, predicted_;
  Recorder* rec_ = nullptr;
  std::vector<Observer*> observers_;
  // Calls f(observer) for each observer, in order (nothing to do, and one branch, without).
  template <class F>
  void signal(F&& f) {
    for (Observer* o : observers_) f(*o);
  }

  std::vector<JobRecord> jobs_;
  std::vector<policy::JobInfo> info_;       // what the queue policy sees, by job id
  mutable NodeSlots job_nodes_;             // the node lists of the jobs holding nodes
  NodeSlots job_runs_;                      // and how those lists split into runs (take_all)
  std::vector<std::int32_t> runs_found_;    // take_all's, before they go to job_runs_
  std::vector<policy::NodeRun> allocated_;  // the runs an allocator handed out (take_runs)
  std::vector<NodeState> node_state_;
  StateTotals state_totals_;  // nodes and node-seconds by state
  std::vector<std::int32_t> node_owner_;
  // Made at the first failure (make_failure_arrays): each node's repair time and repair count.
  std::vector<double> node_up_s_;
  std::vector<std::uint32_t> node_generation_;
  policy::NodeSet free_;
  // The nodes down now, in no order, and each node's place in it (-1: up; made at the first
  // failure): EASY's view of future capacity lists their repairs without a scan of the machine.
  std::vector<std::int32_t> down_, down_pos_;

  EventQueue events_;
  std::vector<std::int32_t> waiting_;
  std::vector<std::int32_t> waiting_size_;  // sizes in queue order, for EASY's scan
  std::vector<policy::Release> running_;    // by (estimated end, job)
  std::vector<std::int32_t> suspended_;
  std::vector<std::int32_t> start_positions_;
  mutable std::vector<policy::Release> extra_releases_, merged_releases_;
  // A size chooser's answers in the current pass (by job; 0: not asked): applied, not re-asked.
  mutable std::vector<std::int32_t> chosen_size_, chosen_;
  // The last "wait" (0) of the size chooser: job, free nodes, time; and the last pass's starts.
  mutable std::int32_t waited_job_ = -1;
  mutable int waited_free_ = 0;
  mutable double waited_s_ = 0;
  std::size_t last_pass_starts_ = 0;
  double last_pass_s_ = -1;

  double start_s_ = 0, now_ = 0;
  std::size_t next_submit_ = 0;
  std::size_t warn_k_ = 0;  // the next failure to warn of, counted from the lookahead's front
  std::int64_t head_key_ = 0;
  std::int64_t failures_count_ = 0, job_failures_ = 0, completed_ = 0, rejected_ = 0;
  std::int64_t events_count_ = 0, stale_ = 0, migrations_ = 0, checkpoints_now_ = 0;
  std::int64_t events_at_completion_ = 0;
  int down_count_ = 0, spare_count_ = 0;
  bool dirty_ = false, horizon_hit_ = false, ran_ = false;
  // Wide jobs' nodes change run by run (the allocator hands out runs, no recorder).
  bool by_runs_ = false;
};

}  // namespace faultsweep::sim
