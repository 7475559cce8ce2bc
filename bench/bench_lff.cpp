// Cost of Least Failure First (Zhang et al. §5.2.3, policy/least_failure_first.hpp) on the
// cluster simulator: the fig11 setting (jobs/zhang/fig11.toml: 320 nodes, CTC-SP2's first
// 14,000 jobs at load 0.65, Zhang failures shape 0.85, scale 18000 s, W = 2, spatial alpha =
// 0.99, down 2 min, EASY, requeue at the head) run with first-fit and with LFF + migration, in
// turn, on the same failures (same replica), 5 times each. Prints the median of each in
// simulated jobs per second of this thread's CPU time (the model's whole replica: trace
// (cached after the first read), failure source, simulation) and their ratio. No pass/fail.
// Needs FAULTSWEEP_DATA (the CTC-SP2 log); without it, the `fars` generator's 14,000 jobs.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_support.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"

namespace {

using namespace faultsweep;

Params point(bool lff, const char* data) {
  Params p;
  p.set("nodes", std::int64_t{320});
  p.set("queue", std::string("easy"));
  p.set("allocator", std::string(lff ? "lff" : "first_fit"));
  if (data != nullptr) {
    p.set("workload.source", std::string("swf"));
    p.set("workload.file", std::string(data) + "/workloads/CTC-SP2-1996-3.1-cln.swf.gz");
    p.set("workload.max_jobs", std::int64_t{14000});
    p.set("workload.target_load", 0.65);
  } else {
    p.set("workload.source", std::string("fars"));
    p.set("workload.jobs", std::int64_t{14000});
    p.set("workload.mean_interarrival", 375.0);
    p.set("workload.mean_runtime", 8000.0);
    p.set("workload.mean_size", 10.0);
  }
  p.set("failures.process", std::string("zhang"));
  p.set("failures.shape", 0.85);
  p.set("failures.scale", 18000.0);
  p.set("failures.W", std::int64_t{2});
  p.set("failures.alpha", 0.99);
  p.set("failures.downtime", 120.0);
  if (lff) p.set("strategy", std::string("lff_migrate"));
  return models::ClusterModel().with_defaults(std::move(p));
}

}  // namespace

int main() {
  faultsweep::keep_freed_memory();  // as the faultsweep binary does
  const char* data = std::getenv("FAULTSWEEP_DATA");
  const auto r = bench::paired_runs(models::ClusterModel(), point(false, data), point(true, data),
                                    20040613, 5, "migrations");
  std::printf("bench_lff: fig11 spatial (alpha 0.99), 320 nodes, %.0f %s jobs, load 0.65\n", r.jobs,
              data != nullptr ? "CTC-SP2" : "generated (FAULTSWEEP_DATA unset)");
  std::printf("  first fit           %8.0f jobs/s CPU (%.0f..%.0f)\n", r.rate_a[2], r.rate_a[0],
              r.rate_a[4]);
  std::printf("  LFF + migration     %8.0f jobs/s CPU (%.0f..%.0f), %.1f migrations/replica\n",
              r.rate_b[2], r.rate_b[0], r.rate_b[4], r.b_sum / 5);
  std::printf("  cost of LFF: %.2fx first fit (median / median)\n", r.rate_a[2] / r.rate_b[2]);
  return 0;
}
