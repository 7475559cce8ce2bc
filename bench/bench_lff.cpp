// Cost of Least Failure First (Zhang et al. §5.2.3, policy/least_failure_first.hpp) on the
// cluster simulator: the fig11 setting (jobs/zhang/fig11.toml: 320 nodes, CTC-SP2's first
// 14,000 jobs at load 0.65, Zhang failures shape 0.85, scale 18000 s, W = 2, spatial alpha =
// 0.99, down 2 min, EASY, requeue at the head) run with first-fit and with LFF + migration, in
// turn, on the same failures (same replica), 5 times each. Prints the median of each in
// simulated jobs per second of this thread's CPU time (the model's whole replica: trace
// (cached after the first read), failure source, simulation) and their ratio. No pass/fail.
// Needs FAULTSWEEP_DATA (the CTC-SP2 log); without it, the `fars` generator's 14,000 jobs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"

namespace {

using namespace faultsweep;

double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

Params point(bool lff, const char* data) {
  Params p;
  p.set("nodes", std::int64_t{320});
  p.set("queue", std::string("easy"));
  p.set("allocator", std::string(lff ? "lff" : "first_fit"));
  p.set("on_failure", std::string("requeue_head"));
  p.set("checkpoint", std::string("none"));
  p.set("checkpoint_interval", 4 * 3600.0);
  p.set("checkpoint_cost", 300.0);
  p.set("moldable_size", std::string("max"));
  p.set("moldable_min_fraction", 0.5);
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
  return p;
}

}  // namespace

int main() {
  const char* data = std::getenv("FAULTSWEEP_DATA");
  const models::ClusterModel model;
  const Params ff = point(false, data), lff = point(true, data);
  model.validate(ff, ".");
  model.validate(lff, ".");
  std::vector<double> out(model.metrics().size());
  std::vector<double> rate_ff, rate_lff;
  double migrations = 0, jobs = 0;
  const auto& specs = model.metrics();
  for (int r = 0; r < 5; ++r) {
    for (const bool with : {false, true}) {
      models::RunContext ctx;
      ctx.master_seed = 20040613;
      ctx.replica = static_cast<std::uint64_t>(r);
      const double c0 = cpu_s();
      model.run(with ? lff : ff, ctx, out);
      const double dt = cpu_s() - c0;
      for (std::size_t i = 0; i < specs.size(); ++i) {
        if (specs[i].name == "jobs") jobs = out[i];
        if (with && specs[i].name == "migrations") migrations += out[i];
      }
      (with ? rate_lff : rate_ff).push_back(jobs / dt);
    }
  }
  std::sort(rate_ff.begin(), rate_ff.end());
  std::sort(rate_lff.begin(), rate_lff.end());
  std::printf("bench_lff: fig11 spatial (alpha 0.99), 320 nodes, %.0f %s jobs, load 0.65\n", jobs,
              data != nullptr ? "CTC-SP2" : "generated (FAULTSWEEP_DATA unset)");
  std::printf("  first fit           %8.0f jobs/s CPU (%.0f..%.0f)\n", rate_ff[2], rate_ff[0],
              rate_ff[4]);
  std::printf("  LFF + migration     %8.0f jobs/s CPU (%.0f..%.0f), %.1f migrations/replica\n",
              rate_lff[2], rate_lff[0], rate_lff[4], migrations / 5);
  std::printf("  cost of LFF: %.2fx first fit (median / median)\n", rate_ff[2] / rate_lff[2]);
  return 0;
}
