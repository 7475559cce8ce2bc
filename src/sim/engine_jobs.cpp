// The job lifecycle: arrival, start, executions (with their checkpoints, and the lead of a
// move or checkpoint-now), completion, interruption by a failure and requeueing.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine_internal.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

double Simulation::interval_for(std::int32_t size) const {
  return checkpoints_.interval_for(size);
}

double Simulation::est_wall_s(const JobRecord& r) const {
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  return plan.wall_for_work(std::max(0.0, r.estimate_s - r.progress_s - r.carry_s));
}

void Simulation::drop_node_list(JobRecord& r) {
  job_nodes_.give(r.node_offset, r.size);
  r.node_offset = -1;
  r.list_pending = false;  // the list goes unread
  drop_runs(r);
}

std::span<std::int32_t> Simulation::stored_list(const JobRecord& r) const {
  return {job_nodes_.data() + r.node_offset, static_cast<std::size_t>(r.size)};
}

std::span<std::int32_t> Simulation::nodes_of(std::int32_t j) {
  write_pending(j);
  return stored_list(jobs_[static_cast<std::size_t>(j)]);
}

std::span<const std::int32_t> Simulation::nodes_of(std::int32_t j) const {
  write_pending(j);
  return stored_list(jobs_[static_cast<std::size_t>(j)]);
}

void Simulation::set_job_state(JobRecord& r, JobState s) {
  const double dt = now_ - r.since_s;
  switch (r.state) {
    case JobState::waiting:
      r.waiting_s += dt;
      break;
    case JobState::running:
      r.running_s += dt;
      break;
    case JobState::suspended:
      r.suspended_s += dt;
      break;
    default:
      break;
  }
  r.state = s;
  r.since_s = now_;
}

// Job j takes the nodes of `part` one by one, checked: in range, idle, owned by no job.
void Simulation::take_each(std::int32_t j, std::span<const std::int32_t> part) {
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  const Recorder* const rec = rec_;
  std::int64_t moved = 0;
  for (const std::int32_t n : part) {
    const auto i = static_cast<std::size_t>(n);
    FS_CHECK(n >= 0 && n < cfg_.nodes, "allocator returned a node out of range");
    // No node is ever held by two jobs, and down nodes are never allocated.
    FS_CHECK(owner[i] == -1 && c.state[i] == NodeState::idle,
             fmt::format("node {} allocated to job {} while owned by job {} (state {})", n, j,
                         owner[i], static_cast<int>(c.state[i])));
    owner[i] = j;
    if (rec != nullptr) [[unlikely]]
      record_node(n, NodeState::busy);
    c.enter_counted(i, NodeState::busy, NodeState::idle, moved);
  }
  c.count_moved(NodeState::idle, NodeState::busy, moved);
  free_.erase_all(part);
}

// Job j, completing, gives back the nodes of `part` one by one: idle, free, owned by no job.
void Simulation::give_each(std::int32_t j, std::span<const std::int32_t> part) {
  const NodeClocks c = clocks();
  std::int32_t* const owner = node_owner_.data();
  const Recorder* const rec = rec_;
  std::int64_t moved = 0;
  for (const std::int32_t n : part) {
    const auto i = static_cast<std::size_t>(n);
    FS_CHECK(owner[i] == j, "completing job does not own node");
    owner[i] = -1;
    if (rec != nullptr) [[unlikely]]
      record_node(n, NodeState::idle);
    c.enter_counted(i, NodeState::idle, NodeState::busy, moved);
  }
  c.count_moved(NodeState::busy, NodeState::idle, moved);
  free_.insert_all(part);
}

void Simulation::running_insert(std::int32_t j) {
  const policy::Release r{jobs_[static_cast<std::size_t>(j)].est_end_s,
                          jobs_[static_cast<std::size_t>(j)].size, j};
  running_.insert(std::upper_bound(running_.begin(), running_.end(), r, detail::release_before), r);
}

void Simulation::running_erase(std::int32_t j) {
  const policy::Release r{jobs_[static_cast<std::size_t>(j)].est_end_s, 0, j};
  const auto it = std::lower_bound(running_.begin(), running_.end(), r, detail::release_before);
  FS_CHECK(it != running_.end() && it->job == j, "running job missing from the running set");
  running_.erase(it);
}

void Simulation::on_submit(std::int32_t j) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  r.since_s = now_;
  if (r.size < 1 || r.size > cfg_.nodes) {
    r.state = JobState::rejected;
    ++rejected_;
  } else {
    set_job_state(r, JobState::waiting);
    waiting_.push_back(j);  // the latest arrival has the largest key
    waiting_size_.push_back(r.size);
    dirty_ = true;
  }
  if (++next_submit_ < input_.size())
    events_.push(input_[next_submit_].submit_s, EventType::job_submit,
                 static_cast<std::int32_t>(next_submit_), 0);
}

void Simulation::on_complete(std::int32_t j) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (rec_ != nullptr) [[unlikely]]
    rec_->end_attempt(j, now_, AttemptEnd::completed);
  running_erase(j);
  if (by_runs_ && rec_ == nullptr && r.size >= static_cast<std::int32_t>(kMinList)) {
    give_all(j);
  } else {
    give_each(j, nodes_of(j));
  }
  drop_node_list(r);
  set_job_state(r, JobState::done);
  r.finish_s = now_;
  // Zhang §5.1: the checkpoints of the final execution (its lead, if a checkpoint, and the
  // periodic ones of its remaining work) were all written.
  const CheckpointPlan done_plan{r.interval_s, cfg_.checkpoint_cost_s};
  const double periodic = done_plan.checkpoints_for(r.exec_work_s);
  r.checkpoint_s += periodic * done_plan.cost_s + (r.lead_checkpoint ? r.exec_lead_s : 0.0);
  r.checkpoints_written += static_cast<std::int32_t>(periodic) + (r.lead_checkpoint ? 1 : 0);
  r.lead_checkpoint = false;
  r.progress_s = r.runtime_s;
  r.overhead_s += r.exec_lead_s;
  r.carry_s = r.carry_wall_s = r.exec_lead_s = 0;
  ++completed_;
  events_at_completion_ = events_count_;
  dirty_ = true;
  if (needs_.job_ends) {
    decisions_.clear();
    strategy_->on_job_end(*this, j, decisions_);
    apply(decisions_, DecisionCause::job_end);
  }
}

// Closes the accounting of the current execution at `now_`: the work committed by its
// checkpoints (and the carry of its lead, once the lead is over), and the work done since
// that is not committed, with the wall time it took.
Simulation::Settled Simulation::settle(JobRecord& r) {
  Settled out;
  const double elapsed_s = now_ - r.exec_start_s;
  if (elapsed_s < r.exec_lead_s) {  // still in the lead: the carry is not committed yet
    out.uncommitted_s = r.carry_s;
    out.uncommitted_wall_s = r.carry_wall_s + elapsed_s;
    if (r.lead_checkpoint) r.checkpoint_s += elapsed_s;  // a checkpoint cut short
    return out;
  }
  if (r.carry_s != 0) r.progress_s += r.carry_s;
  r.overhead_s += r.exec_lead_s;
  if (r.lead_checkpoint) {
    r.checkpoint_s += r.exec_lead_s;
    ++r.checkpoints_written;
    r.lead_checkpoint = false;
  }
  r.carry_s = r.carry_wall_s = 0;
  // Roll back to the last completed checkpoint (Zhang §5.1): whole (I + C) segments are kept.
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  const double e_s = r.exec_lead_s == 0 ? elapsed_s : elapsed_s - r.exec_lead_s;
  r.exec_lead_s = 0;
  out.committed_s = plan.committed_after(e_s, r.exec_work_s);
  const double kept_wall_s = std::isfinite(r.interval_s)
                                 ? out.committed_s / r.interval_s * (r.interval_s + plan.cost_s)
                                 : 0;
  out.uncommitted_wall_s = std::max(0.0, e_s - kept_wall_s);
  out.uncommitted_s = plan.work_done_after(e_s, r.exec_work_s) - out.committed_s;
  if (std::isfinite(r.interval_s)) {
    // Wall time not spent working was spent writing periodic checkpoints (the last one
    // possibly cut short); the completed ones are the committed segments.
    r.checkpoint_s += std::max(0.0, e_s - plan.work_done_after(e_s, r.exec_work_s));
    r.checkpoints_written += static_cast<std::int32_t>(std::lround(out.committed_s / r.interval_s));
  }
  return out;
}

void Simulation::interrupt(std::int32_t j, std::int32_t failed_node, double up_s) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (rec_ != nullptr) [[unlikely]]
    rec_->end_attempt(j, now_, AttemptEnd::failure);
  ++job_failures_;
  ++r.failures;
  ++r.generation;  // its pending completion is now void
  running_erase(j);
  const Settled s = settle(r);
  r.progress_s += s.committed_s;
  r.lost_s += s.uncommitted_wall_s;
  r.carry_s = r.carry_wall_s = r.exec_lead_s = 0;
  r.lead_checkpoint = false;
  info_[static_cast<std::size_t>(j)].est_wall_s = est_wall_s(r);

  if (cfg_.on_failure == OnFailure::wait_repair) {
    set_job_state(r, JobState::suspended);
    r.down_nodes = 1;
    release_nodes(j, failed_node, up_s, NodeState::held);
    suspended_.push_back(j);
  } else {
    release_nodes(j, failed_node, up_s, NodeState::idle);
    drop_node_list(r);
    set_job_state(r, JobState::waiting);
    enqueue(j);
  }
  dirty_ = true;
}

void Simulation::enqueue(std::int32_t j) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (cfg_.on_failure == OnFailure::requeue_head) {
    r.queue_key = --head_key_;  // ahead of everything, the latest requeue first
    waiting_.insert(waiting_.begin(), j);
    waiting_size_.insert(waiting_size_.begin(), r.size);
    return;
  }
  const auto it = std::lower_bound(waiting_.begin(), waiting_.end(), r.queue_key,
                                   [this](std::int32_t w, std::int64_t key) {
                                     return jobs_[static_cast<std::size_t>(w)].queue_key < key;
                                   });
  waiting_size_.insert(waiting_size_.begin() + (it - waiting_.begin()), r.size);
  waiting_.insert(it, j);
}

void Simulation::start_job(std::int32_t j, std::int32_t size) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (size != r.size) {
    // A moldable job's first start on fewer nodes than it requested: size, runtime and
    // estimate are fixed here for good (restarts keep them).
    FS_CHECK(r.moldable && std::isnan(r.first_start_s) && size >= 1 &&
                 (size < r.size || (sizes_ != nullptr && sizes_->may_exceed_request())),
             fmt::format("job {}: start size {} but size {}", j, size, r.size));
    const double factor = cfg_.speedup.time_factor(size, r.size);
    r.runtime_s *= factor;
    r.estimate_s *= factor;
    r.size = size;
    r.interval_s = interval_for(size);
    info_[static_cast<std::size_t>(j)] = policy::JobInfo{size, est_wall_s(r)};
  }
  r.node_offset = job_nodes_.take(r.size);
  const std::span<std::int32_t> nodes = nodes_of(j);
  const policy::AllocationContext ctx{
      now_, j, info_[static_cast<std::size_t>(j)].est_wall_s, r.progress_s, &history_, view()};
  const bool by_runs = by_runs_ && rec_ == nullptr && nodes.size() >= kMinList;
  if (by_runs && allocator_.allocate_runs(ctx, free_, r.size, allocated_)) {
    take_runs(j, nodes);
  } else {
    allocator_.allocate(ctx, free_, nodes);
    if (by_runs) {
      take_all(j, nodes);
    } else {
      take_each(j, nodes);
    }
  }
  begin_execution(j);
}

void Simulation::begin_execution(std::int32_t j) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  set_job_state(r, JobState::running);
  if (std::isnan(r.first_start_s)) r.first_start_s = now_;
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  r.exec_start_s = now_;
  r.exec_work_s = std::max(0.0, r.runtime_s - r.progress_s - r.carry_s);
  r.est_end_s = now_ + r.exec_lead_s + info_[static_cast<std::size_t>(j)].est_wall_s;
  if (rec_ != nullptr) [[unlikely]]
    rec_->begin_attempt(j, now_, nodes_of(j));
  events_.push(now_ + r.exec_lead_s + plan.wall_for_work(r.exec_work_s), EventType::job_complete, j,
               r.generation);
  running_insert(j);
  signal([&](Observer& o) { o.on_job_start(*view(), j); });
}

// A running job's execution ends now keeping all the work it has done (committed by its
// checkpoints, or carried into the next execution, committed once `lead_s` is over) and a
// new one begins with that lead: a move's overhead, or a checkpoint's cost.
void Simulation::restart_execution(std::int32_t j, double lead_s) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  FS_CHECK(r.state == JobState::running, fmt::format("job {} is not running", j));
  ++r.generation;  // its pending completion is now void
  running_erase(j);
  const Settled s = settle(r);
  r.progress_s += s.committed_s;
  r.carry_s = s.uncommitted_s;
  r.carry_wall_s = s.uncommitted_wall_s;
  r.exec_lead_s = lead_s;
  r.lead_checkpoint = false;  // checkpoint_now() marks its lead
  info_[static_cast<std::size_t>(j)].est_wall_s = est_wall_s(r);
  begin_execution(j);
  dirty_ = true;  // its expected end moved
}

}  // namespace faultsweep::sim
