// The end of a run: the invariants the engine promises (checked in release builds too) and
// the metrics computed from the job and node records.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "engine_internal.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

void Simulation::check_invariants() const {
  const double span_s = now_ - start_s_;
  // Node time adds up: the nodes spent the whole run in some state, each state's count is that
  // of the nodes in it now, and no state has a negative count or time.
  {
    std::array<std::int64_t, kNodeStates> in_state{};
    for (const NodeState s : node_state_) ++in_state[static_cast<std::size_t>(s)];
    FS_CHECK(in_state == state_totals_.count, "node counts by state out of step");
    FS_CHECK(state_totals_.since_s == now_, "node time not brought up to the end of the run");
    double sum = 0;
    for (const double t : state_totals_.node_s) {
      FS_CHECK(t >= -1e-9, "negative node time");
      sum += t;
    }
    const double machine_s = static_cast<double>(cfg_.nodes) * span_s;
    FS_CHECK(detail::close(sum, machine_s, machine_s),
             fmt::format("time per state sums to {} node-s, the run lasted {} s on {} nodes", sum,
                         span_s, cfg_.nodes));
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
        FS_CHECK(detail::close(r.submit_s + r.waiting_s + r.running_s + r.suspended_s, r.finish_s,
                               r.finish_s),
                 fmt::format("job {}: time per state does not add up to its response time", j));
        FS_CHECK(r.running_s + 1e-6 >= r.runtime_s, "job finished faster than its runtime");
        FS_CHECK(r.node_offset == -1, fmt::format("job {} finished holding a node list", j));
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
        for (const std::int32_t node : nodes_of(static_cast<std::int32_t>(j))) {
          const auto n = static_cast<std::size_t>(node);
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
  int idle = 0, spare = 0;
  for (std::size_t n = 0; n < node_owner_.size(); ++n) {
    FS_CHECK(node_owner_[n] == owner_seen[n], fmt::format("node {} owned by a finished job", n));
    if (node_state_[n] == NodeState::idle) ++idle;
    if (node_state_[n] == NodeState::spare) {
      ++spare;  // no node is held by a job and the spare pool at once
      FS_CHECK(node_owner_[n] == -1, fmt::format("spare node {} owned by a job", n));
    }
    FS_CHECK((node_state_[n] == NodeState::idle) == free_.contains(static_cast<int>(n)),
             "free set out of step with node states");
  }
  FS_CHECK(idle == free_.count(), "free count out of step");
  FS_CHECK(spare == spare_count_, "spare count out of step");
  const auto total = node_time_s();
  FS_CHECK(
      detail::close(total[static_cast<std::size_t>(NodeState::busy)], busy_node_s, busy_node_s),
      "busy node time differs from the jobs' running node time");
}

namespace {

// The per-job sums behind the means of Simulation::metrics(), over the jobs in id order.
struct JobSums {
  double work_node_s = 0, resp = 0, wait = 0, sd = 0, bsd = 0, wlr = 0, fsd = 0, mct = 0;
  double mwt = 0, sul_node_s = 0, moldable_fraction = 0, ckpt_ratio = 0;
  std::int64_t failed_jobs = 0, moldable_started = 0, checkpoints = 0;
  double sd_floor = 0;  // slowdowns of the jobs at or above the run-time floor
  std::int64_t above_floor = 0;

  void add(const JobRecord& r, const SimConfig& cfg) {
    if (r.state == JobState::rejected) return;
    if (r.moldable && !std::isnan(r.first_start_s)) {
      moldable_fraction += static_cast<double>(r.size) / r.requested_size;
      ++moldable_started;
    }
    sul_node_s += r.size * (r.lost_s + r.suspended_s);
    checkpoints += r.checkpoints_written;
    if (r.failures > 0) ++failed_jobs;
    if (r.state != JobState::done) return;
    const double resp_s = r.finish_s - r.submit_s;
    work_node_s += r.size * r.runtime_s;
    resp += resp_s;
    wait += r.waiting_s;
    sd += r.runtime_s > 0 ? resp_s / r.runtime_s : 1.0;
    bsd += std::max(1.0, resp_s / std::max(r.runtime_s, 10.0));
    if (r.runtime_s >= cfg.slowdown_floor_s) {
      sd_floor += resp_s / r.runtime_s;
      ++above_floor;
    }
    wlr += r.running_s > 0 ? r.lost_s / r.running_s : 0.0;
    ckpt_ratio += r.running_s > 0 ? r.checkpoint_s / r.running_s : 0.0;  // Zhang Fig. 5(c)
    // FARS §5.3 FSD: time delay caused by failures over the failure-free execution time
    // (10 s threshold). Delay = first start to finish minus the failure-free wall time
    // (which already includes the checkpoint overheads the job would pay anyway).
    const CheckpointPlan plan{r.interval_s, cfg.checkpoint_cost_s};
    const double delay_s =
        std::max(0.0, (r.finish_s - r.first_start_s) - plan.wall_for_work(r.runtime_s));
    fsd += delay_s / std::max(r.runtime_s, 10.0);
    mct += r.finish_s - r.first_start_s;
    mwt += r.lost_s + r.suspended_s;
  }
};

}  // namespace

Metrics Simulation::metrics() const {
  Metrics m;
  m.failures = failures_count_;
  m.job_failures = job_failures_;
  m.completed = completed_;
  m.rejected = rejected_;
  m.jobs = static_cast<std::int64_t>(jobs_.size()) - rejected_;
  m.unfinished = m.jobs - completed_;
  m.events = events_count_;
  m.failures_truncated = std::isfinite(cfg_.failure_stop_s) && now_ > cfg_.failure_stop_s;
  m.stale_events = stale_;
  m.migrations = migrations_;
  if (predictor_ != nullptr) {
    m.predicted_true = predictor_->counts().true_positives;
    m.predicted_false = predictor_->counts().false_positives;
    m.predicted_missed = predictor_->counts().missed;
  }
  m.checkpoints_now = checkpoints_now_;
  m.spare_node_hours = node_time_s()[static_cast<std::size_t>(NodeState::spare)] / 3600.0;
  const double first_submit_s = jobs_.empty() ? start_s_ : jobs_.front().submit_s;
  m.makespan_s = now_ - first_submit_s;

  JobSums j;
  for (const JobRecord& r : jobs_) j.add(r, cfg_);
  m.checkpoints = j.checkpoints;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double c = static_cast<double>(completed_);
  const auto mean = [&](double sum) { return completed_ > 0 ? sum / c : nan; };
  m.utilization = m.makespan_s > 0 ? j.work_node_s / (cfg_.nodes * m.makespan_s) : nan;
  m.mean_response_s = mean(j.resp);
  m.mean_wait_s = mean(j.wait);
  m.mean_slowdown = mean(j.sd);
  m.mean_bounded_slowdown = mean(j.bsd);
  m.work_loss_ratio = mean(j.wlr);
  m.checkpoint_overhead_ratio = mean(j.ckpt_ratio);
  m.fsd = mean(j.fsd);
  m.mct_s = mean(j.mct);
  m.mwt_s = mean(j.mwt);
  m.sul_node_hours = j.sul_node_s / 3600.0;
  if (j.moldable_started > 0)
    m.mean_moldable_size_fraction = j.moldable_fraction / static_cast<double>(j.moldable_started);
  if (j.above_floor > 0)
    m.mean_slowdown_above_floor = j.sd_floor / static_cast<double>(j.above_floor);
  m.jfr = m.jobs > 0 ? static_cast<double>(j.failed_jobs) / static_cast<double>(m.jobs) : nan;
  m.throughput_per_h = m.makespan_s > 0 ? c / (m.makespan_s / 3600.0) : nan;
  m.waste = waste_breakdown(jobs_, cfg_.speedup);
  return m;
}

}  // namespace faultsweep::sim
