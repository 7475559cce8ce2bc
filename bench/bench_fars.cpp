// Cost of FARS (policy/fars.hpp) on the cluster simulator: one replica of the FARS baseline
// setting (512 nodes, 10,000 exponential jobs at load 0.7 by inter-arrival scaling, node MTBF
// 14 d exponential, wait-for-repair, Young checkpoints, EASY) run as plain EASY and with SUL-D
// rescheduling (I_F = 1 h, predictor 0.7 / 0.7), in turn, 5 times each. Prints the median of
// each in simulated jobs per second of this thread's CPU time (the model's whole replica:
// workload generation, failure source, predictor, simulation) and their ratio. No pass/fail
// (the aim: FARS costs at most 2x plain EASY).
#include <cstdio>
#include <string>

#include "bench_support.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"

namespace {

using namespace faultsweep;

Params point(const std::string& strategy) {
  Params p;
  p.set("nodes", std::int64_t{512});
  p.set("queue", std::string("easy"));
  p.set("allocator", std::string("first_fit"));
  p.set("on_failure", std::string("wait_repair"));
  p.set("checkpoint", std::string("young"));
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{10000});
  p.set("workload.mean_interarrival", 1000.0);
  p.set("workload.mean_runtime", 1500.0);
  p.set("workload.mean_size", 10.0);
  p.set("workload.target_load", 0.7);
  p.set("workload.scale", std::string("interarrivals"));
  p.set("failures.process", std::string("renewal"));
  p.set("failures.dist", std::string("exponential"));
  p.set("failures.mean", 14 * 86400.0);
  p.set("failures.downtime", 1.73 * 3600);
  p.set("failures.downtime_dist", std::string("exponential"));
  p.set("strategy", strategy);
  p.set("fars.interval", 3600.0);
  p.set("fars.overhead", std::string("live"));
  p.set("fars.checkpoint_cost", 300.0);
  p.set("fars.restart_cost", 30.0);
  p.set("fars.queue_wait", std::string("mean"));
  p.set("predictor.precision", 0.7);
  p.set("predictor.recall", 0.7);
  return models::ClusterModel().with_defaults(std::move(p));
}

}  // namespace

int main() {
  faultsweep::keep_freed_memory();  // as the faultsweep binary does
  const auto r = bench::paired_runs(models::ClusterModel(), point("none"), point("sul_d"), 20090501,
                                    5, "migrations");
  std::printf("bench_fars: 512 nodes, 10,000 FARS jobs, node MTBF 14 d, one replica each\n");
  std::printf("  plain EASY        %8.0f jobs/s CPU (%.0f..%.0f)\n", r.rate_a[2], r.rate_a[0],
              r.rate_a[4]);
  std::printf("  EASY + SUL-D      %8.0f jobs/s CPU (%.0f..%.0f), %.0f migrations/replica\n",
              r.rate_b[2], r.rate_b[0], r.rate_b[4], r.b_sum / 5);
  std::printf("  cost of FARS: %.2fx plain EASY (median / median)\n", r.rate_a[2] / r.rate_b[2]);
  return 0;
}
