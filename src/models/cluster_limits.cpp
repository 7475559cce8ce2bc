#include "cluster_limits.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/policy/cluster_view.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/policy/strategy.hpp"
#include "faultsweep/sim/checkpoint.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/sim/event_queue.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::models {

namespace {

// Measured peaks (GCC 12, glibc; /usr/bin/time max RSS of one replica, 200 Lublin jobs): 50,000
// -> 200,000 nodes adds 155 B per node with first_fit and 232 B with ras (its online fits and
// hazard scratch). A job: its record, policy view, queue slots and events (~256 B), and 4 B per
// node it holds (the engine's node lists). The base is the process itself.
constexpr double kBase_B = 32e6;
constexpr double kPerNode_B = 160;
constexpr double kPerNodeReliability_B = 80;
constexpr double kPerJob_B = 256;
constexpr double kPerJobNode_B = 4;

// The address space the engine reserves per node when a replica starts (sim/engine.cpp,
// Simulation's constructor: room for 8 pending events a node, the running list and two release
// lists of 1 + 2 + 3 entries a node, the strategy's decisions, the failing, predicted, down and
// suspended lists, the store of the jobs' node lists (4 entries a node, written only as lists are
// read), and their runs: 3/8 + 3/16 of an entry a node kept, 1/16 of a run handed out). Untouched,
// it is not in the resident sizes measured above, but `ulimit -v` counts it and the system must be
// able to grant it: 16,777,216 nodes with ras passed the resident estimate (4 GB) and then died of
// bad_alloc in the constructor.
double reserved_per_node_B() {
  return 8.0 * sizeof(sim::Event) + 6.0 * sizeof(policy::Release) + sizeof(policy::Move) +
         3.0 * sizeof(std::int32_t) + 4.0 * sizeof(std::int32_t) + 4.0 * sizeof(std::int32_t) +
         (3.0 / 8 + 3.0 / 16) * sizeof(std::int32_t) + sizeof(policy::NodeRun) / 16.0;
}

double per_node_B(const Params& p) {
  return kPerNode_B + (policy::uses_reliability_model(p) ? kPerNodeReliability_B : 0.0) +
         reserved_per_node_B();
}

}  // namespace

double cluster_memory_bytes(const Params& p, const workload::WorkloadEstimate& w) {
  const auto nodes = static_cast<double>(p.integer("nodes"));
  return kBase_B + nodes * per_node_B(p) + w.jobs * (kPerJob_B + kPerJobNode_B * w.mean_size);
}

void check_cluster_memory(const Params& p, const workload::WorkloadEstimate& w) {
  const double need = cluster_memory_bytes(p, w);
  const MemoryLimit limit = memory_limit();
  if (limit.bytes == 0 || need <= static_cast<double>(limit.bytes)) return;
  throw InputError(
      "nodes", std::to_string(p.integer("nodes")),
      fmt::format("a point whose replica needs about {:.3g} GB of memory ({} nodes x {:.0f} B, "
                  "{:.3g} jobs x ({:.0f} B + {:.0f} B x {:.3g} nodes on average)), over the "
                  "limit of {:.3g} GB ({}): use fewer nodes or jobs, or set "
                  "FAULTSWEEP_MEMORY_LIMIT if the estimate is too cautious",
                  need / 1e9, p.integer("nodes"), per_node_B(p), w.jobs, kPerJob_B, kPerJobNode_B,
                  w.mean_size, static_cast<double>(limit.bytes) / 1e9, limit.source));
}

void check_warm_up(const Params& p, double node_mtbf_s) {
  if (!p.has("workload.submit_all_at") || !(node_mtbf_s > 0) || !std::isfinite(node_mtbf_s)) return;
  const double at_s = p.real("workload.submit_all_at");
  const auto nodes = static_cast<double>(p.integer("nodes"));
  // Each failure is two events (the failure and its repair), none of which completes a job.
  const double events = 2 * nodes * at_s / node_mtbf_s;
  if (events <= static_cast<double>(sim::kNoProgressEvents)) return;
  const double max_s = static_cast<double>(sim::kNoProgressEvents) * node_mtbf_s / (2 * nodes);
  throw InputError(
      "workload.submit_all_at", format_duration(at_s),
      fmt::format("a warm-up of at most {}: before the jobs arrive, {} nodes of MTBF {} fail and "
                  "are repaired about {:.3g} times, and a run stops with an error after {} "
                  "events in which no job completes",
                  format_duration(max_s), p.integer("nodes"), format_duration(node_mtbf_s),
                  events / 2, sim::kNoProgressEvents));
}

// A runtime strategy's periodic calls: each one looks at the running jobs (and their nodes), so
// 10^7 of them take seconds per replica and 10^8 minutes.
constexpr double kWarnTicks = 1e7;
constexpr double kMaxTicks = 1e8;

void check_strategy_ticks(const Params& p, double period_s, const workload::WorkloadEstimate& w) {
  if (!(period_s > 0) || !std::isfinite(period_s)) return;
  const bool horizon = p.has("horizon");
  const double span_s = horizon ? p.real("horizon") : w.span_s;
  const double ticks = span_s / period_s;
  if (!(ticks > kWarnTicks)) return;
  const std::string what =
      fmt::format("strategy \"{}\" is called every {}: about {:.3g} calls over {} ({})",
                  p.str("strategy"), format_duration(period_s), ticks, format_duration(span_s),
                  horizon ? "the horizon" : "the workload's span without failures");
  if (ticks > kMaxTicks)
    throw InputError("strategy", p.str("strategy"),
                     fmt::format("a period that makes at most {:.0e} calls in a run; {}: choose "
                                 "a longer period or a horizon",
                                 kMaxTicks, what));
  say_once("warning: " + what + "; each call looks at the running jobs");
}

// Settings under which jobs can hardly progress, warned of at load time (a run in which no
// job completes for 2^25 events stops with an error anyway). `mean_runtime_s`: NaN if unknown.
void warn_progress(const Params& p, double node_s, double mean_runtime_s) {
  const sim::CheckpointMode mode = sim::checkpoint_mode_from(p.str("checkpoint"));
  const double cost_s = p.real("checkpoint_cost");
  if (mode == sim::CheckpointMode::periodic && p.real("checkpoint_interval") <= cost_s)
    say_once(
        fmt::format("warning: checkpoint_interval = {} is not longer than checkpoint_cost "
                    "= {}: jobs spend at least half their time writing checkpoints",
                    format_duration(p.real("checkpoint_interval")), format_duration(cost_s)));
  if ((mode == sim::CheckpointMode::young || mode == sim::CheckpointMode::daly) &&
      std::isfinite(node_s) && sim::young_interval_s(cost_s, node_s) <= cost_s)
    say_once(
        fmt::format("warning: node MTBF {} is below 2 x checkpoint_cost ({}): every "
                    "job's Young interval is shorter than writing one checkpoint",
                    format_duration(node_s), format_duration(cost_s)));
  const double machine_s = node_s / static_cast<double>(p.integer("nodes"));
  if (std::isfinite(machine_s) && mean_runtime_s > 100 * machine_s)
    say_once(
        fmt::format("warning: the machine fails every {} on average, over 100 times per "
                    "mean job run time ({}): jobs may hardly progress",
                    format_duration(machine_s), format_duration(mean_runtime_s)));
}

// Without a horizon, failures are generated up to a bound few runs reach (failures_truncated
// flags those that do; the header says which). A moldable job may run on one node: its longest
// run time is counted (its node-seconds only shrink with its size under Amdahl's and
// Gustafson's laws, and stay under linear).
double generation_bound_s(const workload::Workload& w, int nodes) {
  double node_s = 0, longest_s = 0, last_s = 0;
  for (const workload::Job& j : w.jobs) {
    node_s += j.size * j.runtime_s;
    const double factor = j.moldable ? w.speedup.time_factor(1, std::max(1, j.size)) : 1.0;
    longest_s = std::max(longest_s, j.runtime_s * factor);
    last_s = std::max(last_s, j.submit_s);
  }
  return 2.0 * (last_s + node_s / nodes + longest_s) + 1.0;
}

}  // namespace faultsweep::models
