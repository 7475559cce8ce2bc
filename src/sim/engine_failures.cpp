// Failures and repairs: the next failure from the lookahead, a failure's effect on its node
// (idle, busy, held, spare or already down), repairs, warnings ahead of failures for a
// strategy that models a perfect predictor, and the strategy's calls: ticks, calls it asked
// for, the failure hook, and predictions.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

// Only a failure reads or writes them (every node down went down through take_down, after
// on_failure made them): a replica without failures on a large machine never touches them.
void Simulation::make_failure_arrays() {
  if (!node_up_s_.empty()) return;
  const auto n = static_cast<std::size_t>(cfg_.nodes);
  node_up_s_.assign(n, start_s_);
  node_generation_.assign(n, 0);
  down_pos_.assign(n, -1);
}

void Simulation::take_down(std::int32_t n, double up_s) {
  const auto i = static_cast<std::size_t>(n);
  set_node_state(n, NodeState::down);
  ++down_count_;
  down_pos_[i] = static_cast<std::int32_t>(down_.size());
  down_.push_back(n);
  node_up_s_[i] = up_s;
  events_.push(up_s, EventType::node_repair, n, ++node_generation_[i]);
}

// The next failure becomes the one pending in the event queue. The lookahead has already
// dropped failures after cfg_.failure_stop_s (its window holds exactly what is injected).
void Simulation::pull_failure() {
  const failures::FailureEvent& f = failures_.front();
  if (!(f.time_s < std::numeric_limits<double>::infinity())) return;  // none left
  FS_CHECK(f.time_s >= now_, "failure source went back in time");
  FS_CHECK(f.node >= 0 && f.node < cfg_.nodes,
           fmt::format("failure source: node {} out of range", f.node));
  FS_CHECK(f.downtime_s >= 0, "failure source: negative downtime");
  events_.push(f.time_s, EventType::node_failure, f.node, 0);
}

void Simulation::on_failure() {
  const failures::FailureEvent f = failures_.front();
  failures_.pop();
  if (std::isfinite(needs_.warning_lead_s)) {
    FS_CHECK(warn_k_ > 0, "a failure came before its warning");
    --warn_k_;
  }
  pull_failure();
  ++failures_count_;
  const std::int32_t n = f.node;
  const auto i = static_cast<std::size_t>(n);
  history_.record_failure(n, now_);
  make_failure_arrays();
  const double up_s = now_ + f.downtime_s;
  const std::int32_t hit = node_state_[i] == NodeState::busy ? node_owner_[i] : -1;
  if (rec_ != nullptr) [[unlikely]]
    rec_->failure(now_, n, up_s, hit,
                  std::find(predicted_.begin(), predicted_.end(), n) != predicted_.end());
  fail_node(n, up_s);
  signal([&](Observer& o) { o.on_failure(*view(), f, hit); });
  if (needs_.failures) {
    decisions_.clear();
    strategy_->on_failure(*this, f, hit, decisions_);
    apply(decisions_, DecisionCause::failure);
  }
}

// Node n fails now until up_s: its effect on the node and on what runs there.
void Simulation::fail_node(std::int32_t n, double up_s) {
  const auto i = static_cast<std::size_t>(n);
  switch (node_state_[i]) {
    case NodeState::down:  // already down: the down period extends to the later end
      if (up_s > node_up_s_[i]) {
        node_up_s_[i] = up_s;
        events_.push(up_s, EventType::node_repair, n, ++node_generation_[i]);
        dirty_ = true;  // a later repair changes EASY's view of future capacity
      }
      return;
    case NodeState::idle:
      free_.erase(n);
      take_down(n, up_s);
      dirty_ = true;  // EASY's view of future capacity changed
      return;
    case NodeState::spare:  // leaves the spare pool; idle again after its repair
      --spare_count_;
      take_down(n, up_s);
      return;
    case NodeState::busy:
      interrupt(node_owner_[i], n, up_s);
      return;
    case NodeState::held:  // a suspended job loses one more node until its repair
      take_down(n, up_s);
      ++jobs_[static_cast<std::size_t>(node_owner_[i])].down_nodes;
      dirty_ = true;  // the suspended job's expected end may move later
      return;
  }
}

void Simulation::on_repair(std::int32_t n) {
  const auto i = static_cast<std::size_t>(n);
  FS_CHECK(node_state_[i] == NodeState::down, "repair of a node that is not down");
  --down_count_;
  const auto at = static_cast<std::size_t>(down_pos_[i]);
  down_pos_[static_cast<std::size_t>(down_.back())] = static_cast<std::int32_t>(at);
  down_[at] = down_.back();
  down_.pop_back();
  down_pos_[i] = -1;
  history_.record_repair(n, now_);
  const std::int32_t j = node_owner_[i];
  dirty_ = true;
  if (j < 0) {
    set_node_state(n, NodeState::idle);
    free_.insert(n);
    return;
  }
  // wait_repair: the suspended job resumes when its last down node is back (FARS §5.1).
  set_node_state(n, NodeState::held);
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  FS_CHECK(r.state == JobState::suspended && r.down_nodes > 0, "repair: owner not suspended");
  if (--r.down_nodes > 0) return;
  for (const std::int32_t m : nodes_of(j)) set_node_state(m, NodeState::busy);
  const auto it = std::find(suspended_.begin(), suspended_.end(), j);
  FS_CHECK(it != suspended_.end(), "suspended job missing from the suspended list");
  *it = suspended_.back();
  suspended_.pop_back();
  begin_execution(j);
}

// The warning of the warn_k_-th upcoming failure, lead time ahead of it (never in the past).
void Simulation::schedule_warning() {
  const failures::FailureEvent& f = failures_.at(warn_k_);
  if (!(f.time_s < std::numeric_limits<double>::infinity())) return;
  events_.push(std::max(now_, f.time_s - needs_.warning_lead_s), EventType::failure_warning, -1, 0);
}

void Simulation::on_warning() {
  const failures::FailureEvent f = failures_.at(warn_k_);
  ++warn_k_;
  decisions_.clear();
  strategy_->on_warning(*this, f, decisions_);
  apply(decisions_, DecisionCause::warning);
  schedule_warning();
}

// A tick starts with no report: a failure record's `predicted` flag compares with the
// predictions made from this tick on.
void Simulation::on_tick() {
  predicted_.clear();
  decisions_.clear();
  strategy_->on_tick(*this, decisions_);
  apply(decisions_, DecisionCause::tick);
  events_.push(now_ + needs_.period_s, EventType::strategy_tick, -1, 0);
}

void Simulation::on_call() {
  decisions_.clear();
  strategy_->on_call(*this, decisions_);
  apply(decisions_, DecisionCause::call);
}

// The view is const for its callers; the engine running the strategy is not (a prediction
// changes only the predictor's stream and counts, and the report).
std::span<const std::int32_t> Simulation::predict(double window_s) const {
  return const_cast<Simulation*>(this)->make_prediction(window_s);
}

std::span<const std::int32_t> Simulation::make_prediction(double window_s) {
  FS_CHECK(window_s > 0, "a prediction window must be > 0");
  predicted_.clear();
  if (predictor_ == nullptr) return predicted_;
  failing_.clear();
  for (const failures::FailureEvent& f : failures_.window(now_ + window_s))
    failing_.push_back(f.node);
  predictor_->predict(failing_, predictor_rng_, predicted_);
  return predicted_;
}

}  // namespace faultsweep::sim
