// The queue policy's pass: what it sees (waiting jobs, free nodes, expected releases, start
// sizes of moldable jobs) and how its answer is applied.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine_internal.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

// A moldable job not started yet asks the size chooser (once per pass: the answer is
// remembered and applied by schedule()); every other job starts at its size.
std::int32_t Simulation::start_size(std::int32_t j, int free_nodes) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  if (sized_at_start(j)) {
    policy::SizeRequest q;
    q.requested = r.size;
    q.free_nodes = free_nodes;
    q.now_s = now_;
    q.job = j;
    q.estimate_s = r.estimate_s;
    q.history = &history_;
    q.free = &free_;
    q.machine_nodes = cfg_.nodes;
    q.speedup = &cfg_.speedup;
    q.view = view();
    const std::int32_t cap = sizes_->may_exceed_request() ? free_nodes : r.size;
    const std::int32_t size = std::min(sizes_->choose(q), cap);
    if (size <= 0) waited_job_ = j, waited_free_ = free_nodes, waited_s_ = now_;
    auto& chosen = chosen_size_[static_cast<std::size_t>(j)];
    if (chosen == 0) chosen_.push_back(j);
    chosen = size > 0 ? size : -1;
    return size;
  }
  return r.size <= free_nodes ? r.size : 0;
}

bool Simulation::sized_at_start(std::int32_t j) const {
  const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
  return r.moldable && sizes_ != nullptr && std::isnan(r.first_start_s);
}

std::int32_t Simulation::size_if_started(std::int32_t j) const {
  const std::int32_t chosen = chosen_size_[static_cast<std::size_t>(j)];
  return chosen > 0 ? chosen : jobs_[static_cast<std::size_t>(j)].size;
}

double Simulation::est_wall_at_s(std::int32_t j, std::int32_t size) const {
  JobRecord r = jobs_[static_cast<std::size_t>(j)];
  if (size == r.size) return info_[static_cast<std::size_t>(j)].est_wall_s;
  r.estimate_s *= cfg_.speedup.time_factor(size, r.size);
  r.interval_s = interval_for(size);
  return est_wall_s(r);
}

void Simulation::schedule() {
  dirty_ = false;
  // With no node free nothing can start; a policy that plans ahead (reservations) is still
  // asked, so that a job arriving at a full machine is planned at its arrival.
  if (waiting_.empty() || (free_.count() == 0 && !queue_.keeps_state())) return;
  start_positions_.clear();
  const policy::QueueState s{now_,  free_.count(), waiting_, waiting_size_,
                             info_, this,          this,     view()};
  queue_.select(s, start_positions_);
  last_pass_starts_ = start_positions_.size();
  last_pass_s_ = now_;
  // The sizes the policy chose: a moldable job's size is the chooser's answer in this pass
  // (asked once); a job the policy started without asking (EASY's backfill) starts at its
  // requested size, which the policy checked fits.
  int free = free_.count();
  for (const std::int32_t pos : start_positions_) {
    const std::int32_t j = waiting_[static_cast<std::size_t>(pos)];
    const std::int32_t size = size_if_started(j) <= free ? size_if_started(j) : 0;
    FS_CHECK(size >= 1 && size <= free,
             fmt::format("queue policy started job {} without room (free {})", j, free));
    free -= size;
    stop_point();  // each start may run an allocator over the whole machine
    start_job(j, size);
  }
  for (const std::int32_t j : chosen_) chosen_size_[static_cast<std::size_t>(j)] = 0;
  chosen_.clear();
  if (start_positions_.empty()) return;
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

void Simulation::stalled() const {
  // The first waiting job (queue order) that could start on the free nodes as they are.
  const int free = free_.count();
  std::int32_t fits = -1;
  for (const std::int32_t j : waiting_)
    if (sized_at_start(j) ? free >= 1 : jobs_[static_cast<std::size_t>(j)].size <= free) {
      fits = j;
      break;
    }
  const std::string nothing = fmt::format(
      "and nothing else is left to happen ({} jobs waiting, {} running, no failure, repair or "
      "call to come): the run could never end",
      waiting_.size(), running_.size() + suspended_.size());
  std::string why;
  std::string_view who;
  if (fits >= 0 && sizes_ != nullptr && waited_job_ == fits)
    who = sizes_->name(),
    why = fmt::format(
        "the moldable size chooser {} answered 0 (wait) for job {} (requesting {} nodes) with {} "
        "of {} nodes free at simulated time {:.17g} s, {}",
        sizes_->name(), fits, jobs_[static_cast<std::size_t>(fits)].size, waited_free_, cfg_.nodes,
        waited_s_, nothing);
  else if (fits >= 0 && last_pass_starts_ == 0 && last_pass_s_ >= 0)
    who = queue_.name(),
    why = fmt::format(
        "the queue policy {} started none of the {} waiting jobs (its select() at simulated time "
        "{:.17g} s answered no position) with {} of {} nodes free, although job {} (size {}) "
        "fits, {}",
        queue_.name(), waiting_.size(), last_pass_s_, free, cfg_.nodes, fits,
        jobs_[static_cast<std::size_t>(fits)].size, nothing);
  // A policy of the user's (a Python class) may answer so: its error, not the engine's. A
  // built-in one never should.
  if (who.starts_with("python:")) throw std::runtime_error(why);
  fail_check("!events_.empty()", __FILE__, __LINE__,
             why.empty() ? "event queue ran dry with jobs outstanding" : why);
}

// Future capacity for EASY: running jobs by estimated end; when nodes are down, also their
// repairs and the suspended jobs' estimated ends after their repairs.
std::span<const policy::Release> Simulation::releases() const {
  if (down_count_ == 0 && suspended_.empty()) return running_;
  extra_releases_.clear();
  // The down nodes in any order: equal entries are indistinguishable, so the sorted list is
  // the same as from a scan by node id.
  for (const std::int32_t n : down_) {
    const auto i = static_cast<std::size_t>(n);
    if (node_owner_[i] < 0) extra_releases_.push_back({node_up_s_[i], 1, -1});
  }
  for (const std::int32_t j : suspended_) {
    const JobRecord& r = jobs_[static_cast<std::size_t>(j)];
    double up_s = now_;
    for (const std::int32_t node : nodes_of(j)) {
      const auto n = static_cast<std::size_t>(node);
      if (node_state_[n] == NodeState::down) up_s = std::max(up_s, node_up_s_[n]);
    }
    extra_releases_.push_back({up_s + info_[static_cast<std::size_t>(j)].est_wall_s, r.size, j});
  }
  std::sort(extra_releases_.begin(), extra_releases_.end(), detail::release_before);
  merged_releases_.resize(running_.size() + extra_releases_.size());
  std::merge(running_.begin(), running_.end(), extra_releases_.begin(), extra_releases_.end(),
             merged_releases_.begin(), detail::release_before);
  return merged_releases_;
}

}  // namespace faultsweep::sim
