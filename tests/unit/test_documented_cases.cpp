// Minimal cases where EASY and failure injection once differed from what the headers and
// `faultsweep models cluster` promise (found by an independent simulator written from the
// headers): D1 EASY's extra nodes, D2 a scheduling pass when a repair moves later, D3 every
// failure of a finite trace is injected when the run has no horizon. Each failed before its fix.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"
#include "sim_support.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;
using testing::job;
using testing::simulate;

TEST_CASE("D1: EASY counts every release at the shadow time as extra nodes", "[easy][documented]") {
  // 4 nodes; jobs 1 and 2 (1 node, 100 s) run from 0; job 3 (3 nodes, 10 s) arrives at 1 and
  // waits for t = 100, when jobs 1 AND 2 end: 2 + 2 = 4 nodes are free then, one beyond its
  // need. So job 4 (1 node, 1000 s) backfills at t = 1 on that extra node, in whatever order
  // the two releases at t = 100 are listed.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{job(1, 0, 100, 1), job(2, 0, 100, 1), job(3, 1, 10, 3),
                                        job(4, 1, 1000, 1)};
  const auto r = simulate(cfg, jobs, {}, "easy");
  CHECK(r.jobs[3].first_start_s == 1);
  CHECK(r.jobs[2].first_start_s == 100);  // the head's reservation is not delayed
  CHECK(r.m.makespan_s == 1001);
}

TEST_CASE("D2: a failure that moves a repair later triggers a scheduling pass",
          "[easy][documented]") {
  // 2 nodes, EASY. Node 1 fails at 0 until 100, so job 1 (2 nodes, 10 s) waits for t = 100
  // and job 2 (1 node, 150 s) cannot backfill (it would end at 150 > 100). At t = 50 node 1
  // fails again until 250: the head's shadow time moves to 250, so job 2 now fits before it
  // and must backfill at 50 (not wait for the next event).
  sim::SimConfig cfg;
  cfg.nodes = 2;
  const std::vector<workload::Job> jobs{job(1, 0, 10, 2), job(2, 0, 150, 1)};
  const auto r = simulate(cfg, jobs, {{0, 1, 100}, {50, 1, 200}}, "easy");
  CHECK(r.jobs[1].first_start_s == 50);
  CHECK(r.jobs[0].first_start_s == 250);
  CHECK(r.m.failures == 2);
}

TEST_CASE("D2: a failure of a node held by a suspended job triggers a pass too",
          "[easy][documented]") {
  // 3 nodes, wait_repair, no checkpoints. Job 1 (2 nodes, 100 s) starts at 0 on nodes 0-1;
  // job 2 (3 nodes) arrives at 1 and waits. Node 0 fails at 10 until 20: job 1 is suspended
  // holding node 1 and is expected to end at 20 + 100 = 120, the head's shadow time. Job 3
  // (1 node, 120 s) arrives at 12: 132 > 120, no backfill. At 15 node 1, held by job 1, fails
  // until 115: job 1 now resumes at 115 and ends at 215, so job 3 (ends at 135) must backfill
  // at 15, not at the next event (node 0's repair at 20).
  sim::SimConfig cfg;
  cfg.nodes = 3;
  cfg.on_failure = sim::OnFailure::wait_repair;
  const std::vector<workload::Job> jobs{job(1, 0, 100, 2), job(2, 1, 10, 3), job(3, 12, 120, 1)};
  const auto r = simulate(cfg, jobs, {{10, 0, 10}, {15, 1, 100}}, "easy");
  CHECK(r.jobs[2].first_start_s == 15);
  CHECK(r.jobs[0].finish_s == 215);
}

TEST_CASE("D3: without a horizon every failure of a finite trace is injected",
          "[cluster][documented]") {
  // 1 node, one 1000-s job, no checkpoints; the trace fails node 0 at 900 k s (1 s down) for
  // k = 1..10. Every failure hits the job after 900 s of its 1000 s, so it restarts from
  // scratch 10 times; after the last failure (9000 s, back at 9001 s) it runs to 10,001 s.
  // The old generation bound 2 x (last submit + node-seconds / nodes + longest run) + 1 =
  // 4001 s cut the trace after 4 failures (makespan 4601 s).
  faultsweep::testing::TempDir dir("d3");
  {
    std::ofstream swf(dir.path() / "one.swf");
    // id submit wait run procs cpu mem req_procs req_time req_mem status user ...
    swf << "; MaxNodes: 1\n1 0 0 1000 1 -1 -1 1 1000 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
    std::ofstream csv(dir.path() / "fail.csv");
    csv << "time_s,node,downtime_s\n";
    for (int k = 1; k <= 10; ++k) csv << 900 * k << ",0,1\n";
  }
  Params p;
  p.set("nodes", std::int64_t{1});
  p.set("workload.source", std::string("swf"));
  p.set("workload.file", (dir.path() / "one.swf").string());
  p.set("failures.process", std::string("trace"));
  p.set("failures.format", std::string("csv"));
  p.set("failures.file", (dir.path() / "fail.csv").string());
  p.set("queue", std::string("easy"));
  p.set("allocator", std::string("first_fit"));
  const models::ClusterModel model;
  p = model.with_defaults(std::move(p));
  model.validate(p, dir.path());
  models::RunContext ctx;
  ctx.base_dir = dir.path();
  std::vector<double> out(model.metrics().size());
  model.run(p, ctx, out);
  const auto& specs = model.metrics();
  const auto value = [&](const std::string& name) {
    for (std::size_t i = 0; i < specs.size(); ++i)
      if (specs[i].name == name) return out[i];
    FAIL("no metric " << name);
    return 0.0;
  };
  CHECK(value("failures") == 10);
  CHECK(value("job_failures") == 10);
  CHECK(value("makespan_s") == 10001);
}
