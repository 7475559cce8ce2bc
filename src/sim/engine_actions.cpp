// A runtime strategy's side of the engine (DESIGN §5a): the read-only view it gets and the
// decisions it returns, each checked before it is applied — a spare is an idle node, a move
// lands only on an idle or spare node, a checkpoint is taken only by a running job. A strategy
// that breaks these rules is a bug (FS_CHECK), not bad input; so is a call asked for in the
// past.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

policy::NodeUse Simulation::node_use(std::int32_t node) const {
  return node_state_[static_cast<std::size_t>(node)];
}

std::int32_t Simulation::node_owner(std::int32_t node) const {
  return node_owner_[static_cast<std::size_t>(node)];
}

policy::JobView Simulation::job(std::int32_t id) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(id)];
  policy::JobView v;
  v.id = id;
  v.size = r.size;
  v.estimate_s = r.estimate_s;
  v.elapsed_s = std::isnan(r.first_start_s) ? 0.0 : now_ - r.first_start_s;
  v.progress_s = r.progress_s;
  v.exec_start_s = r.exec_start_s;
  v.running = r.state == JobState::running;
  v.est_end_s = r.est_end_s;
  v.waiting_s = r.waiting_s + (r.state == JobState::waiting ? now_ - r.since_s : 0.0);
  // The last point a failure would roll back to: the end of the execution's lead (a move or
  // checkpoint-now), or its last completed periodic checkpoint.
  v.safe_point_s = r.exec_start_s;
  if (r.state == JobState::running) {
    const double lead_end_s = r.exec_start_s + r.exec_lead_s;
    if (now_ >= lead_end_s) {
      const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
      const double committed_s = plan.committed_after(now_ - lead_end_s, r.exec_work_s);
      v.safe_point_s = lead_end_s + (std::isfinite(r.interval_s)
                                         ? committed_s / r.interval_s * (r.interval_s + plan.cost_s)
                                         : 0.0);
    }
  }
  if (r.state == JobState::running || r.state == JobState::suspended) v.nodes = nodes_of(id);
  return v;
}

void Simulation::apply(policy::Decisions& d, DecisionCause cause) {
  for (const std::int32_t n : d.hold) {
    FS_CHECK(n >= 0 && n < cfg_.nodes, fmt::format("spare: node {} out of range", n));
    FS_CHECK(node_state_[static_cast<std::size_t>(n)] == NodeState::idle,
             fmt::format("spare: node {} is not idle", n));
    if (rec_ != nullptr) [[unlikely]]
      rec_->decision(now_, DecisionKind::spare_hold, cause, -1, n, n, 0);
    free_.erase(n);
    set_node_state(n, NodeState::spare);
    ++spare_count_;
    dirty_ = true;
  }
  // Moves, grouped by job (a stable sort keeps each job's moves in the strategy's order).
  std::stable_sort(d.moves.begin(), d.moves.end(),
                   [](const policy::Move& a, const policy::Move& b) { return a.job < b.job; });
  for (std::size_t first = 0; first < d.moves.size();) {
    std::size_t last = first + 1;
    while (last < d.moves.size() && d.moves[last].job == d.moves[first].job) ++last;
    if (rec_ != nullptr) [[unlikely]]
      for (std::size_t k = first; k < last; ++k) {
        const policy::Move& m = d.moves[k];
        rec_->decision(now_, DecisionKind::move, cause, m.job, m.from, m.to, m.overhead_s);
        if (m.hold_from)
          rec_->decision(now_, DecisionKind::spare_hold, cause, -1, m.from, m.from, 0);
      }
    move_job(d.moves[first].job,
             std::span<const policy::Move>(d.moves).subspan(first, last - first));
    first = last;
  }
  for (const std::int32_t j : d.checkpoint) {
    if (rec_ != nullptr) [[unlikely]]
      rec_->decision(now_, DecisionKind::checkpoint_now, cause, j, -1, -1, cfg_.checkpoint_cost_s);
    checkpoint_now(j);
  }
  for (const std::int32_t n : d.release) {
    FS_CHECK(n >= 0 && n < cfg_.nodes, fmt::format("release: node {} out of range", n));
    FS_CHECK(node_state_[static_cast<std::size_t>(n)] == NodeState::spare,
             fmt::format("release: node {} is not a spare", n));
    if (rec_ != nullptr) [[unlikely]]
      rec_->decision(now_, DecisionKind::spare_release, cause, -1, n, n, 0);
    set_node_state(n, NodeState::idle);
    free_.insert(n);
    --spare_count_;
    dirty_ = true;
  }
  for (const double t : d.call_at_s) {  // +inf: never (a time past the end comes never too)
    FS_CHECK(t >= now_, fmt::format("call at {} s: before now ({} s)", t, now_));
    if (t < std::numeric_limits<double>::infinity())
      events_.push(t, EventType::strategy_call, -1, 0);
  }
}

// Applies `moves` (all of one job): each `from` must be one of the job's nodes and
// each `to` an idle or spare node; the freed nodes become idle, or spare with `hold_from`.
void Simulation::move_job(std::int32_t j, std::span<const policy::Move> moves) {
  FS_CHECK(j >= 0 && static_cast<std::size_t>(j) < jobs_.size(), "move: no such job");
  FS_CHECK(jobs_[static_cast<std::size_t>(j)].state == JobState::running,
           fmt::format("move: job {} is not running", j));
  const std::span<std::int32_t> nodes = nodes_of(j);
  drop_runs(jobs_[static_cast<std::size_t>(j)]);  // its list is about to change
  double overhead_s = 0;
  for (const policy::Move& m : moves) {
    FS_CHECK(m.to >= 0 && m.to < cfg_.nodes, fmt::format("move: node {} out of range", m.to));
    const auto to = static_cast<std::size_t>(m.to);
    FS_CHECK(node_state_[to] == NodeState::idle || node_state_[to] == NodeState::spare,
             fmt::format("move of job {}: node {} is neither idle nor spare", j, m.to));
    const auto it = std::find(nodes.begin(), nodes.end(), m.from);
    FS_CHECK(it != nodes.end(), fmt::format("move: node {} is not job {}'s", m.from, j));
    FS_CHECK(m.overhead_s >= 0, "move: negative overhead");
    overhead_s = std::max(overhead_s, m.overhead_s);
    if (node_state_[to] == NodeState::spare)
      --spare_count_;
    else
      free_.erase(m.to);
    node_owner_[to] = j;
    set_node_state(m.to, NodeState::busy);
    node_owner_[static_cast<std::size_t>(m.from)] = -1;
    if (m.hold_from) {  // the strategy keeps the node it vacated out of the queue
      set_node_state(m.from, NodeState::spare);
      ++spare_count_;
    } else {
      set_node_state(m.from, NodeState::idle);
      free_.insert(m.from);
    }
    *it = m.to;
  }
  ++jobs_[static_cast<std::size_t>(j)].moves;
  ++migrations_;
  if (rec_ != nullptr) [[unlikely]]
    rec_->end_attempt(j, now_, AttemptEnd::move);
  restart_execution(j, overhead_s);
  signal([&](Observer& o) { o.on_move(*view(), j); });
}

void Simulation::checkpoint_now(std::int32_t j) {
  FS_CHECK(j >= 0 && static_cast<std::size_t>(j) < jobs_.size(), "checkpoint: no such job");
  ++jobs_[static_cast<std::size_t>(j)].checkpoints_now;
  ++checkpoints_now_;
  if (rec_ != nullptr) [[unlikely]]
    rec_->end_attempt(j, now_, AttemptEnd::checkpoint_now);
  restart_execution(j, cfg_.checkpoint_cost_s);
  jobs_[static_cast<std::size_t>(j)].lead_checkpoint = true;
  signal([&](Observer& o) { o.on_checkpoint(*view(), j); });
}

}  // namespace faultsweep::sim
