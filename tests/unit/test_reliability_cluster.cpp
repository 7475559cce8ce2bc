// The cluster model with reliability-aware allocation and moldable sizes (Gottumukkala §6.4):
// every allocator and size chooser sees the same jobs and failures, and the workload options
// the Ch. 6 jobs use (long jobs injected, one submit time).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cluster_metric.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/workload/factory.hpp"

using namespace faultsweep;
using faultsweep::testing::metric;

namespace {

constexpr double kHour = 3600.0;

// A cluster point (tables flattened, durations in seconds, every reliability key given).
Params cluster_point(const std::string& allocator, const std::string& size) {
  Params p;
  p.set("nodes", std::int64_t{64});
  p.set("workload.source", std::string("lublin"));
  p.set("workload.jobs", std::int64_t{300});
  p.set("workload.mean_interarrival", 900.0);
  p.set("workload.moldable", 1.0);
  p.set("workload.speedup", std::string("amdahl"));
  p.set("workload.serial_fraction", 0.05);
  p.set("workload.inject_long_jobs", std::int64_t{3});
  p.set("workload.inject_long_runtime", 5 * 86400.0);
  p.set("failures.process", std::string("renewal"));
  p.set("failures.dist", std::string("weibull"));
  p.set("failures.shape", 0.7);
  p.set("failures.scale", 20 * 86400.0);
  p.set("failures.downtime", 3600.0);
  p.set("queue", std::string("fcfs"));
  p.set("allocator", allocator);
  p.set("on_failure", std::string("requeue_head"));
  p.set("checkpoint", std::string("none"));
  p.set("checkpoint_interval", 4 * kHour);
  p.set("checkpoint_cost", 300.0);
  p.set("moldable_size", size);
  p.set("moldable_min_fraction", 0.5);
  p.set("reliability_law", std::string("weibull"));
  p.set("refit", 1000 * 60.0);
  p.set("ljras_threshold", 86400.0);
  p.set("ra_opt_recovery", 0.0);
  return p;
}

std::vector<double> run_point(const Params& p) {
  const models::ClusterModel m;
  m.validate(p, ".");
  models::RunContext ctx;
  ctx.master_seed = 12;
  std::vector<double> out(m.metrics().size());
  m.run(p, ctx, out);
  return out;
}

}  // namespace

TEST_CASE(
    "Cluster: every allocator / size chooser sees the same jobs and failures (CRN), all "
    "jobs finish, RA-Opt and ALL resize, waste categories add up",
    "[reliability_alloc]") {
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"round_robin", "max"}, {"ras", "max"},   {"ljras", "max"},
      {"ra", "max"},          {"ra", "ra_opt"}, {"first_fit", "all"}};
  std::vector<std::vector<double>> outs;
  double first_failures = -1;
  for (const auto& [a, s] : variants) {
    INFO(a << " / " << s);
    outs.push_back(run_point(cluster_point(a, s)));  // run() checks the engine's invariants
    const auto& o = outs.back();
    CHECK(metric(o, "unfinished_jobs") == 0);
    CHECK(metric(o, "jobs") == 303);  // 300 + 3 injected long jobs
    // Failures up to a fixed horizon do not depend on the schedule (common random numbers).
    Params h = cluster_point(a, s);
    h.set("horizon", 4 * 86400.0);
    const auto until = run_point(h);
    if (outs.size() == 1) first_failures = metric(until, "failures");
    CHECK(metric(until, "failures") == first_failures);
    CHECK(metric(until, "failures") > 20);
    double by_cat = 0, by_size = 0, n = 0;
    for (const char* c : {"A", "B", "C", "D", "E", "F"}) {
      by_cat += metric(o, std::string("waste_h_") + c);
      n += metric(o, std::string("jobs_") + c);
    }
    for (const char* b : {"le32", "le64", "le128", "le256", "le512", "gt512"})
      by_size += metric(o, std::string("waste_h_size_") + b);
    CHECK(by_cat == Approx(metric(o, "waste_total_h")));
    CHECK(by_size == Approx(metric(o, "waste_total_h")));
    CHECK(n == 303);
    CHECK(metric(o, "jobs_F") >= 3);  // the injected 5-day jobs
    CHECK(metric(o, "awt_s") * n / 3600 == Approx(metric(o, "waste_total_h")));
  }
  // ALL runs every job on (nearly) the whole machine; RA-Opt picks sizes of its own.
  CHECK(metric(outs[5], "mean_job_size") > 50);
  CHECK(metric(outs[4], "mean_job_size") != Approx(metric(outs[3], "mean_job_size")));
}

TEST_CASE("Workload options: long jobs injected evenly, all jobs submitted at one time",
          "[reliability_alloc]") {
  Params t;
  t.set("source", std::string("lublin"));
  t.set("jobs", std::int64_t{9});
  t.set("inject_long_jobs", std::int64_t{2});
  t.set("inject_long_runtime", 1e6);
  t.set("submit_all_at", 5000.0);
  models::RunContext ctx;
  const auto w = workload::make_workload(t, 64, ctx);
  REQUIRE(w.jobs.size() == 11);
  // Positions floor(i 9 / 3) = 3 and 6 of the original jobs, each followed by its long copy.
  CHECK(w.jobs[4].runtime_s == 1e6);
  CHECK(w.jobs[4].size == w.jobs[3].size);
  CHECK(w.jobs[8].runtime_s == 1e6);
  CHECK(w.jobs[8].id == w.jobs[4].id + 1);
  CHECK(w.jobs[4].id > w.jobs[10].id);
  for (const auto& j : w.jobs) CHECK(j.submit_s == 5000.0);
}
