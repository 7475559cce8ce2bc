#pragma once
// `cluster`: the cluster simulator (sim/engine.hpp) as a sweep model. One replica = one
// workload (workload/factory.hpp) run on `nodes` nodes under one failure history
// (failures/factory.hpp) with a queue policy, an allocator, what happens to a job hit by a
// failure, and checkpointing; it reports performance and reliability metrics (Zhang et al.
// §3.3; FARS §5.3; Gottumukkala §6.4.5).
//
// Parameters:
//   nodes               integer   machine size (jobs wider than it are rejected and counted)
//   workload            table     workload/factory.hpp (swf, fars, lublin, zhang)
//   failures            table     failures/factory.hpp (none, renewal, bathtub, zhang, trace)
//   queue               string    "fcfs" | "easy" (FCFS + EASY backfilling) | "conservative"
//                                 (conservative backfilling)                   default "easy"
//   allocator           string    "first_fit" | "round_robin"                  default first_fit
//   moldable_size       string    "max" | "free" (policy/size_chooser.hpp)    default "max"
//                                 the size of a moldable job (workload keys moldable,
//                                 speedup, serial_fraction) when FCFS or EASY's queue-order
//                                 prefix reaches it: "max" its requested size (rigid);
//                                 "free" min(requested, free nodes) if at least
//                                 moldable_min_fraction x requested, else it waits. EASY
//                                 reserves and backfills at requested sizes; conservative
//                                 starts every job at its requested size. Chosen size and
//                                 scaled runtime are fixed at the first start.
//   moldable_min_fraction real    in (0, 1], for "free"                       default 0.5
//   on_failure          string    "requeue_head" | "requeue_original" | "wait_repair"
//                                 (default requeue_head)
//   checkpoint          string    "none" | "periodic" | "young" | "daly"       default "none"
//   checkpoint_interval duration  work between checkpoints for "periodic"     default 4h
//   checkpoint_cost     duration  wall time of one checkpoint                 default 5min
//                                 (Zhang §5.1 uses 2, 4, 24 h and 5 min)
//   node_mtbf           duration  for young / daly (optional): a job of size s has MTBF
//                                 M = node_mtbf / s. Default: from the failures table's mean
//                                 rate — renewal: the law's mean; bathtub: mtbf; zhang: nodes x
//                                 the Weibull mean (system MTBF x nodes); none: infinite (no
//                                 checkpoints). Required with a trace.
//   horizon             duration  optional: no failure after it and the run stops there
//                                 (unfinished jobs are counted, not averaged). Without it the
//                                 run lasts until every job has finished: a failure trace is
//                                 replayed whole; a synthetic process injects failures up to
//                                 2 x (last submit + total node-seconds / nodes + longest
//                                 runtime) + 1 s, then the run goes on failure-free.
//   strategy            string    optional runtime strategy (policy/strategy.hpp, registry.hpp)
//                                 acting on the running cluster; absent = "none"
//
// Common random numbers (DESIGN §4): the workload and failure streams are keyed by their own
// tables (and `nodes`), so two points that differ only in queue, allocator, on_failure,
// moldable_size or checkpointing see identical jobs and failures in the same replica (and
// the same moldable jobs: their draw has its own stream).
#include "faultsweep/models/model.hpp"

namespace faultsweep::models {

class ClusterModel final : public Model {
 public:
  std::string name() const override { return "cluster"; }
  std::string description() const override;
  const std::vector<ParamSpec>& params() const override;
  const std::vector<MetricSpec>& metrics() const override;
  bool deterministic() const override { return false; }
  void validate(const Params& p, const std::filesystem::path& base_dir) const override;
  // The SWF trace (workload.file) and the failure trace (failures.file) the point reads.
  std::vector<std::filesystem::path> input_files(
      const Params& p, const std::filesystem::path& base_dir) const override;
  // What the SWF reader and the failure-trace reader kept and dropped (workload::swf_reading,
  // failures::trace_reading).
  std::vector<InputReading> input_readings(const Params& p,
                                           const std::filesystem::path& base_dir) const override;
  double cost(const Params& p, const std::filesystem::path& base_dir) const override;
  void run(const Params& p, const RunContext& ctx, std::span<double> out) const override;
};

}  // namespace faultsweep::models
