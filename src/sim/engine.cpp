#include "faultsweep/sim/engine.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep::sim {

namespace {

bool release_before(const policy::Release& a, const policy::Release& b) {
  return a.time_s != b.time_s ? a.time_s < b.time_s : a.job < b.job;
}

// Relative tolerance for the time-accounting invariants (sums of many doubles).
bool close(double a, double b, double scale) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(scale)) + 1e-6;
}

}  // namespace

OnFailure on_failure_from(std::string_view name) {
  if (name == "requeue_head") return OnFailure::requeue_head;
  if (name == "requeue_original") return OnFailure::requeue_original;
  if (name == "wait_repair") return OnFailure::wait_repair;
  throw InputError("on_failure", std::string(name),
                   "one of \"requeue_head\", \"requeue_original\", \"wait_repair\"");
}

CheckpointMode checkpoint_mode_from(std::string_view name) {
  if (name == "none") return CheckpointMode::none;
  if (name == "periodic") return CheckpointMode::periodic;
  if (name == "young") return CheckpointMode::young;
  if (name == "daly") return CheckpointMode::daly;
  throw InputError("checkpoint", std::string(name),
                   "one of \"none\", \"periodic\", \"young\", \"daly\"");
}

Simulation::Simulation(const SimConfig& config, std::span<const workload::Job> jobs,
                       failures::FailureSource& failures, policy::QueuePolicy& queue,
                       policy::Allocator& allocator, const policy::SizeChooser* sizes)
    : cfg_(config),
      input_(jobs),
      failures_(failures),
      queue_(queue),
      allocator_(allocator),
      sizes_(sizes) {
  FS_CHECK(cfg_.nodes >= 1, "simulation needs at least one node");
  const auto n_nodes = static_cast<std::size_t>(cfg_.nodes);
  start_s_ = jobs.empty() ? 0.0 : std::min(0.0, jobs.front().submit_s);
  now_ = start_s_;

  jobs_.resize(jobs.size());
  info_.resize(jobs.size());
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const workload::Job& in = jobs[i];
    FS_CHECK(i == 0 || in.submit_s >= jobs[i - 1].submit_s, "jobs must be sorted by submit time");
    JobRecord& r = jobs_[i];
    r.submit_s = in.submit_s;
    r.runtime_s = std::max(0.0, in.runtime_s);
    r.estimate_s = std::max(0.0, in.estimate_s);
    r.size = in.size;
    r.requested_size = in.size;
    r.moldable = in.moldable;
    r.node_offset = offset;
    r.queue_key = static_cast<std::int64_t>(i);
    if (in.size >= 1 && in.size <= cfg_.nodes) offset += in.size;
    r.interval_s = interval_for(in.size);
    info_[i] = policy::JobInfo{in.size, est_wall_s(r)};
  }
  job_nodes_.assign(static_cast<std::size_t>(offset), -1);

  node_state_.assign(n_nodes, NodeState::idle);
  node_since_s_.assign(n_nodes, start_s_);
  node_time_s_.assign(n_nodes, {});
  node_owner_.assign(n_nodes, -1);
  node_up_s_.assign(n_nodes, start_s_);
  node_generation_.assign(n_nodes, 0);
  free_.reset(cfg_.nodes);
  for (int n = 0; n < cfg_.nodes; ++n) free_.insert(n);

  // Pending at once: one arrival, one failure, the horizon, one completion per running job
  // and one repair per down node, plus void events not yet popped (one per interrupted
  // execution or extended repair still in the future); the vector grows only past that.
  events_.reserve(8 * n_nodes + 64);
  waiting_.reserve(jobs.size());
  waiting_size_.reserve(jobs.size());
  running_.reserve(n_nodes);
  suspended_.reserve(n_nodes);
  start_positions_.reserve(jobs.size());
  extra_releases_.reserve(2 * n_nodes);
  merged_releases_.reserve(3 * n_nodes);
}

// The checkpoint interval of a job of `size` nodes (Zhang §5.1 periodic; Young / Daly optima
// with the job's MTBF M = node MTBF / size: any of its nodes failing interrupts it).
double Simulation::interval_for(std::int32_t size) const {
  double interval_s = std::numeric_limits<double>::infinity();
  const double m_s = cfg_.node_mtbf_s / std::max(1, size);
  switch (cfg_.checkpoint) {
    case CheckpointMode::none:
      break;
    case CheckpointMode::periodic:
      interval_s = cfg_.checkpoint_interval_s;
      break;
    case CheckpointMode::young:
      if (std::isfinite(m_s)) interval_s = young_interval_s(cfg_.checkpoint_cost_s, m_s);
      break;
    case CheckpointMode::daly:
      if (std::isfinite(m_s)) interval_s = daly_interval_s(cfg_.checkpoint_cost_s, m_s);
      break;
  }
  FS_CHECK(interval_s > 0, "checkpoint interval must be > 0");
  return interval_s;
}

// A moldable job not started yet asks the size chooser; every other job starts at its size.
std::int32_t Simulation::start_size(std::int32_t j, int free_nodes) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (r.moldable && sizes_ != nullptr && std::isnan(r.first_start_s))
    return std::min(sizes_->choose(r.size, free_nodes), r.size);
  return r.size <= free_nodes ? r.size : 0;
}

double Simulation::est_wall_at_s(std::int32_t j, std::int32_t size) const {
  JobRecord r = jobs_[static_cast<std::size_t>(j)];
  if (size == r.size) return info_[static_cast<std::size_t>(j)].est_wall_s;
  r.estimate_s *= cfg_.speedup.time_factor(size, r.size);
  r.interval_s = interval_for(size);
  return est_wall_s(r);
}

double Simulation::est_wall_s(const JobRecord& r) const {
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  return plan.wall_for_work(std::max(0.0, r.estimate_s - r.progress_s));
}

std::span<std::int32_t> Simulation::nodes_of(std::int32_t j) {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  return {job_nodes_.data() + r.node_offset, static_cast<std::size_t>(r.size)};
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

void Simulation::set_node_state(std::int32_t n, NodeState s) {
  const auto i = static_cast<std::size_t>(n);
  node_time_s_[i][static_cast<std::size_t>(node_state_[i])] += now_ - node_since_s_[i];
  node_state_[i] = s;
  node_since_s_[i] = now_;
}

void Simulation::take_down(std::int32_t n, double up_s) {
  const auto i = static_cast<std::size_t>(n);
  set_node_state(n, NodeState::down);
  ++down_count_;
  node_up_s_[i] = up_s;
  events_.push(up_s, EventType::node_repair, n, ++node_generation_[i]);
}

void Simulation::running_insert(std::int32_t j) {
  const policy::Release r{jobs_[static_cast<std::size_t>(j)].est_end_s,
                          jobs_[static_cast<std::size_t>(j)].size, j};
  running_.insert(std::upper_bound(running_.begin(), running_.end(), r, release_before), r);
}

void Simulation::running_erase(std::int32_t j) {
  const policy::Release r{jobs_[static_cast<std::size_t>(j)].est_end_s, 0, j};
  const auto it = std::lower_bound(running_.begin(), running_.end(), r, release_before);
  FS_CHECK(it != running_.end() && it->job == j, "running job missing from the running set");
  running_.erase(it);
}

void Simulation::pull_failure() {
  pending_failure_ = failures_.next();
  if (!(pending_failure_.time_s <= cfg_.failure_stop_s)) return;  // none left (or +inf)
  FS_CHECK(pending_failure_.time_s >= now_, "failure source went back in time");
  FS_CHECK(pending_failure_.node >= 0 && pending_failure_.node < cfg_.nodes,
           fmt::format("failure source: node {} out of range", pending_failure_.node));
  FS_CHECK(pending_failure_.downtime_s >= 0, "failure source: negative downtime");
  events_.push(pending_failure_.time_s, EventType::node_failure, pending_failure_.node, 0);
}

// ---- event handlers ---------------------------------------------------------------------

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
  running_erase(j);
  for (const std::int32_t n : nodes_of(j)) {
    FS_CHECK(node_owner_[static_cast<std::size_t>(n)] == j, "completing job does not own node");
    node_owner_[static_cast<std::size_t>(n)] = -1;
    set_node_state(n, NodeState::idle);
    free_.insert(n);
  }
  set_job_state(r, JobState::done);
  r.finish_s = now_;
  r.progress_s = r.runtime_s;
  ++completed_;
  dirty_ = true;
}

void Simulation::on_failure() {
  const failures::FailureEvent f = pending_failure_;
  pull_failure();
  ++failures_count_;
  const std::int32_t n = f.node;
  const auto i = static_cast<std::size_t>(n);
  const double up_s = now_ + f.downtime_s;
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

void Simulation::on_horizon() {
  horizon_hit_ = true;
}

// ---- jobs ---------------------------------------------------------------------------------

void Simulation::interrupt(std::int32_t j, std::int32_t failed_node, double up_s) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  ++job_failures_;
  ++r.failures;
  ++r.generation;  // its pending completion is now void
  running_erase(j);
  // Roll back to the last completed checkpoint (Zhang §5.1): whole (I + C) segments are kept.
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  const double elapsed_s = now_ - r.exec_start_s;
  const double committed_s = plan.committed_after(elapsed_s, r.exec_work_s);
  const double kept_wall_s =
      std::isfinite(r.interval_s) ? committed_s / r.interval_s * (r.interval_s + plan.cost_s) : 0;
  r.progress_s += committed_s;
  r.lost_s += std::max(0.0, elapsed_s - kept_wall_s);
  info_[static_cast<std::size_t>(j)].est_wall_s = est_wall_s(r);

  if (cfg_.on_failure == OnFailure::wait_repair) {
    set_job_state(r, JobState::suspended);
    r.down_nodes = 1;
    for (const std::int32_t m : nodes_of(j)) {
      if (m == failed_node)
        take_down(m, up_s);
      else
        set_node_state(m, NodeState::held);
    }
    suspended_.push_back(j);
  } else {
    for (const std::int32_t m : nodes_of(j)) {
      node_owner_[static_cast<std::size_t>(m)] = -1;
      if (m == failed_node) {
        take_down(m, up_s);
      } else {
        set_node_state(m, NodeState::idle);
        free_.insert(m);
      }
    }
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
    FS_CHECK(r.moldable && std::isnan(r.first_start_s) && size >= 1 && size < r.size,
             fmt::format("job {}: start size {} but size {}", j, size, r.size));
    const double factor = cfg_.speedup.time_factor(size, r.size);
    r.runtime_s *= factor;
    r.estimate_s *= factor;
    r.size = size;
    r.interval_s = interval_for(size);
    info_[static_cast<std::size_t>(j)] = policy::JobInfo{size, est_wall_s(r)};
  }
  const std::span<std::int32_t> nodes = nodes_of(j);
  allocator_.allocate(free_, nodes);
  for (const std::int32_t n : nodes) {
    const auto i = static_cast<std::size_t>(n);
    FS_CHECK(n >= 0 && n < cfg_.nodes, "allocator returned a node out of range");
    // No node is ever held by two jobs, and down nodes are never allocated.
    FS_CHECK(node_owner_[i] == -1 && node_state_[i] == NodeState::idle,
             fmt::format("node {} allocated to job {} while owned by job {} (state {})", n, j,
                         node_owner_[i], static_cast<int>(node_state_[i])));
    free_.erase(n);
    node_owner_[i] = j;
    set_node_state(n, NodeState::busy);
  }
  begin_execution(j);
}

void Simulation::begin_execution(std::int32_t j) {
  JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  set_job_state(r, JobState::running);
  if (std::isnan(r.first_start_s)) r.first_start_s = now_;
  const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
  r.exec_start_s = now_;
  r.exec_work_s = std::max(0.0, r.runtime_s - r.progress_s);
  r.est_end_s = now_ + info_[static_cast<std::size_t>(j)].est_wall_s;
  events_.push(now_ + plan.wall_for_work(r.exec_work_s), EventType::job_complete, j, r.generation);
  running_insert(j);
}

void Simulation::schedule() {
  dirty_ = false;
  if (waiting_.empty() || free_.count() == 0) return;
  start_positions_.clear();
  const policy::QueueState s{now_, free_.count(), waiting_, waiting_size_, info_, this, this};
  queue_.select(s, start_positions_);
  if (start_positions_.empty()) return;
  // The sizes the policy chose: start_size is pure, and the started jobs come in queue order
  // with the free count the policy saw, so asking again gives the same answers.
  int free = free_.count();
  for (const std::int32_t pos : start_positions_) {
    const std::int32_t j = waiting_[static_cast<std::size_t>(pos)];
    const std::int32_t size = start_size(j, free);
    FS_CHECK(size >= 1 && size <= free,
             fmt::format("queue policy started job {} without room (free {})", j, free));
    free -= size;
    start_job(j, size);
  }
  // Remove the started jobs from the queue: move each run between started positions down in
  // one block (positions are increasing; the prefix before the first is untouched).
  const auto n_start = start_positions_.size();
  auto out = static_cast<std::size_t>(start_positions_[0]);
  for (std::size_t k = 0; k < n_start; ++k) {
    const auto from = static_cast<std::size_t>(start_positions_[k]) + 1;
    const auto to =
        k + 1 < n_start ? static_cast<std::size_t>(start_positions_[k + 1]) : waiting_.size();
    FS_CHECK(from <= to, "queue policy returned positions out of order");
    std::copy(waiting_.begin() + static_cast<std::ptrdiff_t>(from),
              waiting_.begin() + static_cast<std::ptrdiff_t>(to),
              waiting_.begin() + static_cast<std::ptrdiff_t>(out));
    std::copy(waiting_size_.begin() + static_cast<std::ptrdiff_t>(from),
              waiting_size_.begin() + static_cast<std::ptrdiff_t>(to),
              waiting_size_.begin() + static_cast<std::ptrdiff_t>(out));
    out += to - from;
  }
  waiting_.resize(out);
  waiting_size_.resize(out);
}

// Future capacity for EASY: running jobs by estimated end; when nodes are down, also their
// repairs and the suspended jobs' estimated ends after their repairs.
std::span<const policy::Release> Simulation::releases() const {
  if (down_count_ == 0 && suspended_.empty()) return running_;
  extra_releases_.clear();
  for (int n = 0; n < cfg_.nodes; ++n) {
    const auto i = static_cast<std::size_t>(n);
    if (node_state_[i] == NodeState::down && node_owner_[i] < 0)
      extra_releases_.push_back({node_up_s_[i], 1, -1});
  }
  for (const std::int32_t j : suspended_) {
    const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
    double up_s = now_;
    for (std::int64_t k = 0; k < r.size; ++k) {
      const auto n =
          static_cast<std::size_t>(job_nodes_[static_cast<std::size_t>(r.node_offset + k)]);
      if (node_state_[n] == NodeState::down) up_s = std::max(up_s, node_up_s_[n]);
    }
    extra_releases_.push_back({up_s + info_[static_cast<std::size_t>(j)].est_wall_s, r.size, j});
  }
  std::sort(extra_releases_.begin(), extra_releases_.end(), release_before);
  merged_releases_.resize(running_.size() + extra_releases_.size());
  std::merge(running_.begin(), running_.end(), extra_releases_.begin(), extra_releases_.end(),
             merged_releases_.begin(), release_before);
  return merged_releases_;
}

// ---- the run ------------------------------------------------------------------------------

Metrics Simulation::run(const std::atomic<bool>* stop) {
  FS_CHECK(!ran_, "Simulation::run called twice");
  ran_ = true;
  if (!input_.empty()) events_.push(input_[0].submit_s, EventType::job_submit, 0, 0);
  pull_failure();
  if (std::isfinite(cfg_.horizon_s)) events_.push(cfg_.horizon_s, EventType::horizon, -1, 0);

  const auto all_done = [this] {
    return completed_ + rejected_ == static_cast<std::int64_t>(jobs_.size());
  };
  while (!horizon_hit_ && !all_done()) {
    // Schedule once per instant, after every event at that instant.
    if (dirty_ && (events_.empty() || events_.top().time_s > now_)) {
      schedule();
      continue;
    }
    FS_CHECK(!events_.empty(), "event queue ran dry with jobs outstanding");
    const Event e = events_.pop();
    FS_CHECK(e.time_s >= now_, "event in the past");
    now_ = e.time_s;
    ++events_count_;
    if ((events_count_ & 0xFFFF) == 0 && stop != nullptr && stop->load(std::memory_order_relaxed))
      throw Error("cluster simulation stopped by a signal");
    switch (e.type) {
      case EventType::job_submit:
        on_submit(e.subject);
        break;
      case EventType::job_complete:
        if (e.generation != jobs_[static_cast<std::size_t>(e.subject)].generation) {
          ++stale_;  // made void by a failure
          break;
        }
        on_complete(e.subject);
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
        break;
      case EventType::horizon:
        on_horizon();
        break;
    }
  }
  // Close the time accounting of every node and outstanding job at the end.
  for (int n = 0; n < cfg_.nodes; ++n) set_node_state(n, node_state_[static_cast<std::size_t>(n)]);
  for (JobRecord& r : jobs_)
    if (r.state == JobState::waiting || r.state == JobState::running ||
        r.state == JobState::suspended)
      set_job_state(r, r.state);
  check_invariants();
  return metrics();
}

std::array<double, kNodeStates> Simulation::node_time_s() const {
  std::array<double, kNodeStates> total{};
  for (const auto& t : node_time_s_)
    for (int s = 0; s < kNodeStates; ++s)
      total[static_cast<std::size_t>(s)] += t[static_cast<std::size_t>(s)];
  return total;
}

void Simulation::check_invariants() const {
  const double span_s = now_ - start_s_;
  // Node time adds up: every node spent the whole run in some state.
  for (std::size_t n = 0; n < node_time_s_.size(); ++n) {
    double sum = 0;
    for (const double t : node_time_s_[n]) {
      FS_CHECK(t >= -1e-9, "negative node time");
      sum += t;
    }
    FS_CHECK(close(sum, span_s, span_s),
             fmt::format("node {}: time per state sums to {} s, run lasted {} s", n, sum, span_s));
  }
  // Every job finished or accounted for; per-job time adds up; no node held by two jobs.
  std::int64_t done = 0, rejected = 0, outstanding = 0;
  double busy_node_s = 0;
  std::vector<std::int32_t> owner_seen(static_cast<std::size_t>(cfg_.nodes), -1);
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    const JobRecord& r = jobs_[j];
    FS_CHECK(r.waiting_s >= -1e-9 && r.running_s >= -1e-9 && r.suspended_s >= -1e-9,
             "negative job time");
    busy_node_s += r.size * r.running_s;
    switch (r.state) {
      case JobState::done:
        ++done;
        FS_CHECK(
            close(r.submit_s + r.waiting_s + r.running_s + r.suspended_s, r.finish_s, r.finish_s),
            fmt::format("job {}: time per state does not add up to its response time", j));
        FS_CHECK(r.running_s + 1e-6 >= r.runtime_s, "job finished faster than its runtime");
        break;
      case JobState::rejected:
        ++rejected;
        break;
      case JobState::pending:
        FS_CHECK(horizon_hit_, fmt::format("job {} never submitted", j));
        ++outstanding;
        break;
      case JobState::waiting:
        FS_CHECK(horizon_hit_, fmt::format("job {} still waiting at the end", j));
        ++outstanding;
        break;
      case JobState::running:
      case JobState::suspended:
        FS_CHECK(horizon_hit_, fmt::format("job {} still running at the end", j));
        ++outstanding;
        for (std::int64_t k = 0; k < r.size; ++k) {
          const auto n =
              static_cast<std::size_t>(job_nodes_[static_cast<std::size_t>(r.node_offset + k)]);
          FS_CHECK(owner_seen[n] == -1, fmt::format("node {} held by two jobs", n));
          FS_CHECK(node_owner_[n] == static_cast<std::int32_t>(j), "node owner mismatch");
          owner_seen[n] = static_cast<std::int32_t>(j);
        }
        break;
    }
  }
  FS_CHECK(done == completed_ && rejected == rejected_ &&
               done + rejected + outstanding == static_cast<std::int64_t>(jobs_.size()),
           "job accounting does not add up");
  int idle = 0;
  for (std::size_t n = 0; n < node_owner_.size(); ++n) {
    FS_CHECK(node_owner_[n] == owner_seen[n], fmt::format("node {} owned by a finished job", n));
    if (node_state_[n] == NodeState::idle) ++idle;
    FS_CHECK((node_state_[n] == NodeState::idle) == free_.contains(static_cast<int>(n)),
             "free set out of step with node states");
  }
  FS_CHECK(idle == free_.count(), "free count out of step");
  const auto total = node_time_s();
  FS_CHECK(close(total[static_cast<std::size_t>(NodeState::busy)], busy_node_s, busy_node_s),
           "busy node time differs from the jobs' running node time");
}

Metrics Simulation::metrics() const {
  Metrics m;
  m.failures = failures_count_;
  m.job_failures = job_failures_;
  m.completed = completed_;
  m.rejected = rejected_;
  m.jobs = static_cast<std::int64_t>(jobs_.size()) - rejected_;
  m.unfinished = m.jobs - completed_;
  m.events = events_count_;
  m.stale_events = stale_;
  const double first_submit_s = jobs_.empty() ? start_s_ : jobs_.front().submit_s;
  m.makespan_s = now_ - first_submit_s;

  double work_node_s = 0, resp = 0, wait = 0, sd = 0, bsd = 0, wlr = 0, fsd = 0, mct = 0;
  double mwt = 0, sul_node_s = 0, moldable_fraction = 0;
  std::int64_t failed_jobs = 0, moldable_started = 0;
  for (const JobRecord& r : jobs_) {
    if (r.state == JobState::rejected) continue;
    if (r.moldable && !std::isnan(r.first_start_s)) {
      moldable_fraction += static_cast<double>(r.size) / r.requested_size;
      ++moldable_started;
    }
    sul_node_s += r.size * (r.lost_s + r.suspended_s);
    if (r.failures > 0) ++failed_jobs;
    if (r.state != JobState::done) continue;
    const double resp_s = r.finish_s - r.submit_s;
    work_node_s += r.size * r.runtime_s;
    resp += resp_s;
    wait += r.waiting_s;
    sd += r.runtime_s > 0 ? resp_s / r.runtime_s : 1.0;
    bsd += std::max(1.0, resp_s / std::max(r.runtime_s, 10.0));
    wlr += r.running_s > 0 ? r.lost_s / r.running_s : 0.0;
    // FARS §5.3 FSD: time delay caused by failures over the failure-free execution time
    // (10 s threshold). Delay = first start to finish minus the failure-free wall time
    // (which already includes the checkpoint overheads the job would pay anyway).
    const CheckpointPlan plan{r.interval_s, cfg_.checkpoint_cost_s};
    const double delay_s =
        std::max(0.0, (r.finish_s - r.first_start_s) - plan.wall_for_work(r.runtime_s));
    fsd += delay_s / std::max(r.runtime_s, 10.0);
    mct += r.finish_s - r.first_start_s;
    mwt += r.lost_s + r.suspended_s;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double c = static_cast<double>(completed_);
  const auto mean = [&](double sum) { return completed_ > 0 ? sum / c : nan; };
  m.utilization = m.makespan_s > 0 ? work_node_s / (cfg_.nodes * m.makespan_s) : nan;
  m.mean_response_s = mean(resp);
  m.mean_wait_s = mean(wait);
  m.mean_slowdown = mean(sd);
  m.mean_bounded_slowdown = mean(bsd);
  m.work_loss_ratio = mean(wlr);
  m.fsd = mean(fsd);
  m.mct_s = mean(mct);
  m.mwt_s = mean(mwt);
  m.sul_node_hours = sul_node_s / 3600.0;
  if (moldable_started > 0)
    m.mean_moldable_size_fraction = moldable_fraction / static_cast<double>(moldable_started);
  m.jfr = m.jobs > 0 ? static_cast<double>(failed_jobs) / static_cast<double>(m.jobs) : nan;
  m.throughput_per_h = m.makespan_s > 0 ? c / (m.makespan_s / 3600.0) : nan;
  return m;
}

}  // namespace faultsweep::sim
