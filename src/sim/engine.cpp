// The engine's skeleton: construction, the event loop and its dispatch. The handlers live by
// concern: engine_jobs.cpp (job lifecycle), engine_failures.cpp (failures, repairs,
// warnings), engine_schedule.cpp (the queue policy's pass), engine_actions.cpp (a runtime
// strategy's view and decisions), accounting.cpp (invariants and metrics).
#include "faultsweep/sim/engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/task_progress.hpp"

namespace faultsweep::sim {

Simulation::Simulation(const SimConfig& config, std::span<const workload::Job> jobs,
                       failures::FailureSource& failures, policy::QueuePolicy& queue,
                       policy::Allocator& allocator, const policy::SizeChooser* sizes,
                       policy::RuntimeStrategy* strategy)
    : cfg_(config),
      checkpoints_{config.checkpoint, config.checkpoint_interval_s, config.checkpoint_cost_s,
                   config.node_mtbf_s},
      input_(jobs),
      failures_(failures, config.failure_stop_s),
      queue_(queue),
      allocator_(allocator),
      sizes_(sizes),
      strategy_(strategy != nullptr ? strategy : &none_),
      needs_(strategy_->needs()) {
  FS_CHECK(cfg_.nodes >= 1, "simulation needs at least one node");
  FS_CHECK(needs_.period_s > 0, "a strategy's period must be > 0");
  FS_CHECK(needs_.warning_lead_s > 0, "a strategy's warning lead time must be > 0");
  const auto n_nodes = static_cast<std::size_t>(cfg_.nodes);
  start_s_ = jobs.empty() ? 0.0 : std::min(0.0, jobs.front().submit_s);
  now_ = start_s_;

  jobs_.resize(jobs.size());
  info_.resize(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const workload::Job& in = jobs[i];
    FS_CHECK(i == 0 || in.submit_s >= jobs[i - 1].submit_s, "jobs must be sorted by submit time");
    // The readers refuse such times; a generator's parameters can still make them.
    if (!(std::abs(in.submit_s) <= workload::kMaxJobTimeS) ||
        !(in.runtime_s <= workload::kMaxJobTimeS) || !(in.estimate_s <= workload::kMaxJobTimeS))
      throw InputError("workload", "",
                       fmt::format("job {} (id {}): submit {:g} s, run time {:g} s, estimate "
                                   "{:g} s: each must be at most {}",
                                   i, in.id, in.submit_s, in.runtime_s, in.estimate_s,
                                   workload::kMaxJobTimeText));
    JobRecord& r = jobs_[i];
    r.submit_s = in.submit_s;
    r.runtime_s = std::max(0.0, in.runtime_s);
    r.estimate_s = std::max(0.0, in.estimate_s);
    r.size = in.size;
    r.requested_size = in.size;
    r.moldable = in.moldable;
    r.queue_key = static_cast<std::int64_t>(i);
    r.interval_s = interval_for(in.size);
    info_[i] = policy::JobInfo{in.size, est_wall_s(r)};
  }
  // The lists' slots round up to powers of two and are reused by size class: a mix of wide jobs
  // needs a few times the machine. Reserved, not written: entries are written when read first.
  job_nodes_.reset(4 * std::int64_t{cfg_.nodes});
  // A list of n nodes keeps at most n / kMinRun runs and the stretches between them, 3 entries
  // each; the vectors grow past this only for lists of many short runs (an allocator's runs are
  // kept from kMinHandedRun nodes on: on a machine whose free nodes are scattered, they grow once
  // and the next replicas reuse them).
  job_runs_.reset(2 * (3 * std::int64_t{cfg_.nodes} / 16 + 64));
  runs_found_.reserve(3 * static_cast<std::size_t>(cfg_.nodes) / 16 + 64);
  allocated_.reserve(static_cast<std::size_t>(cfg_.nodes) / 16 + 64);

  node_state_.assign(n_nodes, NodeState::idle);
  state_totals_ = StateTotals{};
  state_totals_.count[static_cast<std::size_t>(NodeState::idle)] = cfg_.nodes;
  state_totals_.since_s = start_s_;
  node_owner_.assign(n_nodes, -1);
  down_.reserve(n_nodes);
  free_.reset(cfg_.nodes);
  free_.insert_range(0, cfg_.nodes);
  by_runs_ = allocator_.hands_out_runs();
  history_.reset(cfg_.nodes, needs_.failure_times || allocator_.needs_failure_times() ||
                                 (sizes_ != nullptr && sizes_->needs_failure_times()));

  // Pending at once: one arrival, one failure, the horizon, one completion per running job
  // and one repair per down node, plus void events not yet popped (one per interrupted
  // execution or extended repair still in the future); the vectors grow only past that.
  events_.reserve(7 * n_nodes + 64, n_nodes + 64);
  waiting_.reserve(jobs.size());
  waiting_size_.reserve(jobs.size());
  running_.reserve(n_nodes);
  suspended_.reserve(n_nodes);
  start_positions_.reserve(jobs.size());
  extra_releases_.reserve(2 * n_nodes);
  merged_releases_.reserve(3 * n_nodes);
  chosen_size_.assign(jobs.size(), 0);
  chosen_.reserve(jobs.size());
  decisions_.hold.reserve(n_nodes);
  decisions_.release.reserve(n_nodes);
  decisions_.moves.reserve(n_nodes);
  decisions_.checkpoint.reserve(n_nodes);
  decisions_.call_at_s.reserve(16);
  failing_.reserve(n_nodes);
  predicted_.reserve(n_nodes);
}

Metrics Simulation::run(const std::atomic<bool>* stop) {
  FS_CHECK(!ran_, "Simulation::run called twice");
  ran_ = true;
  if (!input_.empty()) events_.push(input_[0].submit_s, EventType::job_submit, 0, 0);
  pull_failure();
  if (std::isfinite(cfg_.horizon_s)) events_.push(cfg_.horizon_s, EventType::horizon, -1, 0);
  if (std::isfinite(needs_.period_s))
    events_.push(std::max(now_, needs_.offset_s), EventType::strategy_tick, -1, 0);
  if (std::isfinite(needs_.warning_lead_s)) schedule_warning();
  if (needs_.first_call_s < std::numeric_limits<double>::infinity())
    events_.push(std::max(now_, needs_.first_call_s), EventType::strategy_call, -1, 0);

  const auto all_done = [this] {
    return completed_ + rejected_ == static_cast<std::int64_t>(jobs_.size());
  };
  while (!horizon_hit_ && !all_done()) {
    // Schedule once per instant, after every event at that instant.
    const Event* const next = events_.peek();
    if (dirty_ && (next == nullptr || next->time_s > now_)) {
      schedule();
      continue;
    }
    if (next == nullptr) [[unlikely]]
      stalled();
    const Event e = events_.pop();
    FS_CHECK(e.time_s >= now_, "event in the past");
    // Job times are bounded where they are read (workload::kMaxJobTimeS); failures, repairs or
    // a long queue can still carry the clock where a job's end rounds by more than the
    // accounting's microsecond.
    if (e.time_s > workload::kMaxClockS) [[unlikely]]
      throw InputError(fmt::format(
          "the simulated clock would pass {} (next event at {:g} s) with {} of {} jobs not "
          "finished, where a job's end can no longer be kept to the microsecond: a failure or "
          "repair that late (a failure log's time or down time?), or a schedule that long",
          workload::kMaxClockText, e.time_s,
          static_cast<std::int64_t>(jobs_.size()) - completed_ - rejected_, jobs_.size()));
    now_ = e.time_s;
    ++events_count_;
    // Every event (one relaxed load): with a reliability-aware allocator on a large machine one
    // event can cost milliseconds, so a stop polled every 2^16 events took seconds. A stopped
    // replica is run again on resume.
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) [[unlikely]]
      throw Interrupted("cluster simulation stopped by a signal");
    check_progress();
    dispatch(e);
  }
  // Close the time accounting of the nodes and of every outstanding job at the end.
  state_totals_.advance(now_);
  for (JobRecord& r : jobs_)
    if (r.state == JobState::waiting || r.state == JobState::running ||
        r.state == JobState::suspended)
      set_job_state(r, r.state);
  check_invariants();
  if (rec_ != nullptr) finish_records();
  return metrics();
}

void Simulation::check_progress() const {
  if ((events_count_ & 0xFFF) == 0)  // for the progress line of a long replica
    task_progress().set(completed_ + rejected_, static_cast<std::int64_t>(jobs_.size()),
                        now_ - start_s_);
  if ((events_count_ & 0xFFFF) == 0) {
    // A run in which no job completes for this long cannot progress.
    if (events_count_ - events_at_completion_ > kNoProgressEvents)
      throw InputError(
          "failures", "",
          fmt::format("jobs cannot progress: no job completed in {} events (simulated time "
                      "{:.6g} s, {} failures so far): failures come faster than jobs, or their "
                      "checkpoints, can complete; check the failure rate, the checkpoint "
                      "interval and its cost",
                      kNoProgressEvents, now_ - start_s_, failures_count_));
  }
}

void Simulation::dispatch(const Event& e) {
  switch (e.type) {
    case EventType::job_submit:
      on_submit(e.subject);
      break;
    case EventType::job_complete:
      if (e.generation != jobs_[static_cast<std::size_t>(e.subject)].generation) {
        ++stale_;  // made void by a failure (or a move)
        break;
      }
      on_complete(e.subject);
      signal([&](Observer& o) { o.on_job_end(*view(), e.subject); });
      break;
    case EventType::node_failure:
      on_failure();
      break;
    case EventType::node_repair:
      if (e.generation != node_generation_[static_cast<std::size_t>(e.subject)]) {
        ++stale_;  // superseded by a later repair time
        break;
      }
      on_repair(e.subject);
      signal([&](Observer& o) { o.on_repair(*view(), e.subject); });
      break;
    case EventType::horizon:
      on_horizon();
      break;
    case EventType::strategy_tick:
      on_tick();
      break;
    case EventType::failure_warning:
      on_warning();
      break;
    case EventType::strategy_call:
      on_call();
      break;
  }
}

void Simulation::on_horizon() {
  horizon_hit_ = true;
}

std::array<double, kNodeStates> Simulation::node_time_s() const {
  return state_totals_.node_s;
}

}  // namespace faultsweep::sim
