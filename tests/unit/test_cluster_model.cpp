// Tests of the `cluster` model (models/cluster): its metrics' names and units, common random
// numbers across queue policies and allocators, determinism, checkpointing that pays off, and
// bad input reported under the full key ("workload.source", "failures.shape").
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/task_progress.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/models/registry.hpp"
#include "input_support.hpp"

using namespace faultsweep;

namespace {

// A point as the job loader would build it (tables flattened, durations in seconds).
Params point(const std::string& queue = "easy", const std::string& allocator = "first_fit") {
  Params p;
  p.set("nodes", std::int64_t{64});
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{1500});
  p.set("workload.mean_interarrival", 600.0);
  p.set("workload.mean_runtime", 4 * 3600.0);
  p.set("workload.mean_size", 8.0);
  p.set("failures.process", std::string("renewal"));
  p.set("failures.dist", std::string("weibull"));
  p.set("failures.shape", 0.7);
  p.set("failures.scale", 5 * 86400.0);
  p.set("failures.downtime", 3600.0);
  p.set("queue", queue);
  p.set("allocator", allocator);
  return models::ClusterModel().with_defaults(std::move(p));
}

std::vector<double> run(const Params& p, std::uint64_t replica = 0) {
  const models::ClusterModel m;
  m.validate(p, ".");
  models::RunContext ctx;
  ctx.master_seed = 42;
  ctx.replica = replica;
  std::vector<double> out(m.metrics().size());
  m.run(p, ctx, out);
  return out;
}

std::size_t index_of(const std::string& metric) {
  const auto& specs = models::ClusterModel().metrics();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == metric) return i;
  FAIL("no metric " << metric);
  return 0;
}

// The key named by the model's InputError for p ("" if p is valid).
std::string key_of_error(const Params& p) {
  return testing::thrown_key([&] { models::ClusterModel().validate(p, "."); });
}

}  // namespace

TEST_CASE("cluster: registered, with the metric names and units the issue asks for", "[cluster]") {
  REQUIRE(models::find_model("cluster") != nullptr);
  const std::vector<std::pair<std::string, std::string>> expected{{"utilization", "1"},
                                                                  {"mean_response_s", "s"},
                                                                  {"mean_slowdown", "1"},
                                                                  {"mean_bounded_slowdown", "1"},
                                                                  {"work_loss_ratio", "1"},
                                                                  {"sul_node_hours", "node*h"},
                                                                  {"jfr", "1"},
                                                                  {"fsd", "1"},
                                                                  {"throughput_per_h", "1/h"},
                                                                  {"mct", "s"},
                                                                  {"mwt", "s"},
                                                                  {"failures", "1"},
                                                                  {"job_failures", "1"}};
  const auto& specs = models::ClusterModel().metrics();
  for (const auto& [name, unit] : expected) CHECK(specs[index_of(name)].unit == unit);
}

TEST_CASE("cluster: points differing only in queue or allocator see the same jobs and failures",
          "[cluster][crn]") {
  // With a horizon inside the workload the run always lasts to the horizon, so the failure
  // count is that of the failure stream alone; the job count is that of the workload alone.
  for (std::uint64_t replica = 0; replica < 3; ++replica) {
    std::vector<std::vector<double>> runs;
    for (const auto& [q, a] : std::vector<std::pair<std::string, std::string>>{
             {"easy", "first_fit"}, {"fcfs", "first_fit"}, {"easy", "round_robin"}}) {
      Params p = point(q, a);
      p.set("horizon", 5 * 86400.0);
      runs.push_back(run(p, replica));
    }
    for (std::size_t k = 1; k < runs.size(); ++k) {
      CHECK(runs[k][index_of("failures")] == runs[0][index_of("failures")]);
      CHECK(runs[k][index_of("jobs")] == runs[0][index_of("jobs")]);
      CHECK(runs[k][index_of("makespan_s")] == runs[0][index_of("makespan_s")]);
    }
    CHECK(runs[0][index_of("failures")] > 20);  // not vacuous
    // The policies do differ: FCFS waits longer than EASY on the same jobs.
    CHECK(runs[1][index_of("mean_wait_s")] > runs[0][index_of("mean_wait_s")]);
  }
  // Without a horizon, the workload is the same as well: every job completes in both.
  const auto easy = run(point("easy")), fcfs = run(point("fcfs"));
  CHECK(easy[index_of("jobs")] == 1500);
  CHECK(fcfs[index_of("jobs")] == 1500);
  CHECK(easy[index_of("unfinished_jobs")] == 0);
}

TEST_CASE(
    "cluster: moldable jobs: \"max\" is rigid, \"free\" shrinks them, same jobs and "
    "failures",
    "[cluster][crn][moldable]") {
  Params rigid = point("fcfs");
  rigid.set("horizon", 5 * 86400.0);
  Params max = rigid;
  max.set("workload.moldable", 0.5);
  Params free = max;
  free.set("moldable_size", std::string("free"));
  for (std::uint64_t replica = 0; replica < 2; ++replica) {
    const auto r = run(rigid, replica), m = run(max, replica), f = run(free, replica);
    const std::size_t frac = index_of("mean_moldable_size_fraction");
    CHECK(std::isnan(r[frac]));
    CHECK(m[frac] == 1.0);
    CHECK(f[frac] >= 0.5);
    CHECK(f[frac] < 1.0);  // some jobs did start smaller
    // "max" behaves exactly like rigid jobs; all three see the same jobs and failures.
    for (std::size_t k = 0; k < r.size(); ++k)
      if (k != frac) CHECK(m[k] == r[k]);
    CHECK(f[index_of("failures")] == r[index_of("failures")]);
    CHECK(f[index_of("jobs")] == r[index_of("jobs")]);
    CHECK(f[index_of("mean_wait_s")] != r[index_of("mean_wait_s")]);
  }
  // Without a horizon every job completes with moldable jobs and EASY as well.
  Params easy = point("easy");
  easy.set("workload.moldable", 0.5);
  easy.set("moldable_size", std::string("free"));
  const auto e = run(easy);
  CHECK(e[index_of("unfinished_jobs")] == 0);
  CHECK(e[index_of("jobs")] == 1500);
}

TEST_CASE("cluster: one replica is a pure function of (point, replica, seed)", "[cluster]") {
  const auto a = run(point(), 3), b = run(point(), 3), c = run(point(), 4);
  // Equal as values, NaN equal to NaN (mean_moldable_size_fraction without moldable jobs).
  const auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t k = 0; k < x.size(); ++k)
      if (!(x[k] == y[k] || (std::isnan(x[k]) && std::isnan(y[k])))) return false;
    return true;
  };
  CHECK(same(a, b));
  CHECK(!same(a, c));
}

TEST_CASE("cluster: Young and Daly checkpointing cut the work lost to failures", "[cluster]") {
  // Jobs of about 4 h (load 0.7 at one 8-node job per 2600 s) on nodes failing every ~2.5 d:
  // a 8-node job fails every ~7.6 h, so without checkpoints much of its work is redone.
  Params none = point();
  none.set("workload.mean_interarrival", 2600.0);
  none.set("failures.scale", 2 * 86400.0);
  Params young = none;
  young.set("checkpoint", std::string("young"));
  Params daly = none;
  daly.set("checkpoint", std::string("daly"));
  const auto n = run(none), y = run(young), d = run(daly);
  const std::size_t sul = index_of("sul_node_hours");
  CHECK(y[sul] < 0.5 * n[sul]);
  CHECK(d[sul] < 0.5 * n[sul]);
  CHECK(y[index_of("work_loss_ratio")] < n[index_of("work_loss_ratio")]);
  CHECK(y[index_of("failures")] > 100);
}

TEST_CASE("cluster: bad input names the full key", "[cluster][input]") {
  Params p = point();
  p.set("workload.source", std::string("csv"));
  CHECK(key_of_error(p) == "workload.source");

  p = point();
  p.set("failures.shape", -1.0);
  CHECK(key_of_error(p).rfind("failures", 0) == 0);

  p = point();
  p.set("checkpoint", std::string("sometimes"));
  CHECK(key_of_error(p) == "checkpoint");

  p = point();
  p.set("checkpoint", std::string("periodic"));
  p.set("checkpoint_interval", 0.0);
  CHECK(key_of_error(p) == "checkpoint_interval");

  p = point();
  p.set("checkpoint", std::string("young"));
  p.set("checkpoint_cost", 0.0);
  CHECK(key_of_error(p) == "checkpoint_cost");

  p = point();
  p.set("moldable_size", std::string("some"));
  CHECK(key_of_error(p) == "moldable_size");

  p = point();
  p.set("moldable_size", std::string("free"));
  p.set("moldable_min_fraction", 0.0);
  CHECK(key_of_error(p) == "moldable_min_fraction");

  p = point();
  p.set("workload.moldable", 1.5);
  CHECK(key_of_error(p) == "workload.moldable");

  p = point();
  p.set("workload.speedup", std::string("karp_flatt"));
  CHECK(key_of_error(p) == "workload.speedup");

  p = point();
  p.set("workload.speedup", std::string("linear"));
  p.set("workload.serial_fraction", 0.1);
  CHECK(key_of_error(p) == "workload.serial_fraction");

  p = point();
  p.set("workload.serial_fraction", -0.1);
  CHECK(key_of_error(p) == "workload.serial_fraction");

  Params missing;
  missing.set("nodes", std::int64_t{4});
  CHECK(key_of_error(missing) == "workload");

  CHECK(key_of_error(point()).empty());
}

TEST_CASE("cluster: failures_truncated flags a replica whose failures stopped before its jobs",
          "[cluster]") {
  // One wide job after another on 1,000 nodes of job MTBF 8.6 s: the synthetic failures end at
  // their generation bound long before the jobs do.
  const auto wide = [](bool failures) {
    Params p;
    p.set("nodes", std::int64_t{1000});
    p.set("workload.source", std::string("fars"));
    p.set("workload.jobs", std::int64_t{2});
    p.set("workload.mean_interarrival", 100.0);
    p.set("workload.mean_runtime", 3600.0);
    p.set("workload.mean_size", 500.0);
    p.set("failures.process", std::string(failures ? "renewal" : "none"));
    if (failures) {
      p.set("failures.dist", std::string("exponential"));
      p.set("failures.mean", 8600.0);
      p.set("failures.downtime", 60.0);
    }
    return models::ClusterModel().with_defaults(std::move(p));
  };
  CHECK(run(wide(true))[index_of("failures_truncated")] == 1.0);
  CHECK(run(wide(false))[index_of("failures_truncated")] == 0.0);  // nothing to cut short
  CHECK(run(point())[index_of("failures_truncated")] == 0.0);      // ordinary failures
  const auto& spec = models::ClusterModel().metrics()[index_of("failures_truncated")];
  CHECK(spec.unit == "flag");
}

TEST_CASE("cluster: the engine reports how far the replica under way has got", "[cluster]") {
  task_progress().clear();
  Params p = point();
  p.set("workload.jobs", std::int64_t{3000});  // well over the 4,096 events between reports
  (void)run(p);
  const TaskProgress& tp = task_progress();
  CHECK(tp.jobs_total.load() == 3000);
  CHECK(tp.jobs_done.load() > 0);
  CHECK(tp.jobs_done.load() <= 3000);
  CHECK(tp.simulated_s.load() > 0);
}
