// The cluster model's metrics, declared once: name, unit, description and how each is read
// from a run (sim::Metrics). The order here is the order of the results file; adding a metric
// is one row.
#include "cluster_metrics.hpp"

#include <iterator>

namespace faultsweep::models {

namespace {

// Performance (Zhang §3.3, FARS §5.3, Gottumukkala §6.4.5).
void append_performance_metrics(std::vector<ClusterMetric>& t) {
  static const ClusterMetric rows[] = {
      {{"utilization", "1",
        "useful work / capacity: sum over completed jobs of size x runtime (failure-free; "
        "moldable jobs: chosen size x runtime at that size) / "
        "(nodes x makespan); makespan = last completion (or the horizon) - first submit"},
       [](const sim::Metrics& m) { return m.utilization; }},
      {{"mean_response_s", "s", "completion - submit, mean over completed jobs"},
       [](const sim::Metrics& m) { return m.mean_response_s; }},
      {{"mean_slowdown", "1", "response / runtime, mean over completed jobs (Zhang §3.3)"},
       [](const sim::Metrics& m) { return m.mean_slowdown; }},
      {{"mean_bounded_slowdown", "1",
        "max(1, response / max(runtime, 10 s)), mean over completed jobs"},
       [](const sim::Metrics& m) { return m.mean_bounded_slowdown; }},
      {{"work_loss_ratio", "1",
        "per job, wall time of executions rolled back by failures / total execution time, "
        "mean over completed jobs (Zhang §3.3)"},
       [](const sim::Metrics& m) { return m.work_loss_ratio; }},
      {{"sul_node_hours", "node*h",
        "service unit loss (FARS §5.3): size x (rolled-back execution time + time suspended "
        "on its nodes waiting for a repair), summed over jobs"},
       [](const sim::Metrics& m) { return m.sul_node_hours; }},
      {{"jfr", "1",
        "job failure rate (FARS §5.3): jobs interrupted at least once / jobs submitted"},
       [](const sim::Metrics& m) { return m.jfr; }},
      {{"fsd", "1",
        "failure slowdown (FARS §5.3): delay caused by failures / max(runtime, 10 s), mean "
        "over completed jobs; delay = (completion - first start) - failure-free wall time "
        "(runtime + its checkpoint overheads)"},
       [](const sim::Metrics& m) { return m.fsd; }},
      {{"throughput_per_h", "1/h", "completed jobs / makespan"},
       [](const sim::Metrics& m) { return m.throughput_per_h; }},
      {{"mct", "s",
        "mean completion time (Gottumukkala §6.4.5): completion - first start, mean over "
        "completed jobs (seconds, not normalised by the unit run length)"},
       [](const sim::Metrics& m) { return m.mct_s; }},
      {{"mwt", "s",
        "mean waste time (Gottumukkala §6.4.5): rolled-back execution time + time suspended "
        "for a repair per job, mean over completed jobs (seconds, not normalised)"},
       [](const sim::Metrics& m) { return m.mwt_s; }},
  };
  t.insert(t.end(), std::begin(rows), std::end(rows));
}

// Failures, the jobs they hit, and counts of jobs.
void append_failure_metrics(std::vector<ClusterMetric>& t) {
  static const ClusterMetric rows[] = {
      {{"failures", "1", "node failures during the run"},
       [](const sim::Metrics& m) { return static_cast<double>(m.failures); }},
      {{"job_failures", "1", "failures that hit a running job (interrupted executions)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.job_failures); }},
      {{"mean_wait_s", "s",
        "time in the queue (all waits, requeues included), mean over completed"},
       [](const sim::Metrics& m) { return m.mean_wait_s; }},
      {{"makespan_s", "s", "last completion (or the horizon) - first submit"},
       [](const sim::Metrics& m) { return m.makespan_s; }},
      {{"jobs", "1", "jobs submitted (rejected ones excluded)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.jobs); }},
      {{"unfinished_jobs", "1", "jobs not finished at the horizon"},
       [](const sim::Metrics& m) { return static_cast<double>(m.unfinished); }},
      {{"rejected_jobs", "1",
        "jobs of a generated workload wider than the machine, never started (an SWF log's "
        "wider jobs are dropped when it is read: too_large under /inputs)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.rejected); }},
      {{"mean_moldable_size_fraction", "1",
        "chosen size / requested size, mean over the moldable jobs that started (NaN if none)"},
       [](const sim::Metrics& m) { return m.mean_moldable_size_fraction; }},
  };
  t.insert(t.end(), std::begin(rows), std::end(rows));
}

// Runtime strategies, predictions and checkpoints.
void append_strategy_metrics(std::vector<ClusterMetric>& t) {
  static const ClusterMetric rows[] = {
      {{"migrations", "1",
        "moves of running jobs' processes applied for a runtime strategy (FARS rescheduling)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.migrations); }},
      {{"predictions_true", "1",
        "predictor reports (node, interval) followed by a failure of that node in the interval "
        "(FARS §5.1; 0 without a predictor)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.predicted_true); }},
      {{"predictions_false", "1", "predictor reports without a failure (false alarms)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.predicted_false); }},
      {{"predictions_missed", "1", "failing (node, interval) pairs the predictor did not report"},
       [](const sim::Metrics& m) { return static_cast<double>(m.predicted_missed); }},
      {{"checkpoint_overhead_ratio", "1",
        "per job, wall time spent writing checkpoints (periodic ones and those a strategy "
        "asks for, including a checkpoint cut short by a failure) / total execution time, "
        "mean over completed jobs (Zhang §5.1, Figs. 5(c), 6(c))"},
       [](const sim::Metrics& m) { return m.checkpoint_overhead_ratio; }},
      {{"checkpoints", "1",
        "checkpoints completed by all jobs (periodic ones and those a strategy asks for)"},
       [](const sim::Metrics& m) { return static_cast<double>(m.checkpoints); }},
      {{"mean_slowdown_above_floor", "1",
        "response / runtime, mean over completed jobs whose failure-free run time is at least "
        "slowdown_floor (default 1 h; NaN if none): mean_slowdown without the short jobs"},
       [](const sim::Metrics& m) { return m.mean_slowdown_above_floor; }},
  };
  t.insert(t.end(), std::begin(rows), std::end(rows));
}

}  // namespace

const std::vector<ClusterMetric>& cluster_metrics() {
  // The groups in the order of the results file; the waste rows and failures_truncated come
  // after every earlier row (their columns keep their index).
  static const std::vector<ClusterMetric> table = [] {
    std::vector<ClusterMetric> t;
    append_performance_metrics(t);
    append_failure_metrics(t);
    append_strategy_metrics(t);
    append_waste_metrics(t);
    t.push_back({{"failures_truncated", "flag",
                  "1 if the synthetic failure stream ended (at its generation bound, see the "
                  "parameter horizon) before the replica's last job completed: the jobs after "
                  "it ran failure-free and the failure metrics are too optimistic (set a "
                  "horizon, or make failures rarer than the jobs can bear); 0 otherwise"},
                 [](const sim::Metrics& m) { return m.failures_truncated ? 1.0 : 0.0; }});
    return t;
  }();
  return table;
}

}  // namespace faultsweep::models
