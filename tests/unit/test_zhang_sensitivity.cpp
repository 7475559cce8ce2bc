// Tests of what the Zhang sensitivity study added: the metric
// mean_slowdown_above_floor and its parameter slowdown_floor, the workload options long_jobs /
// long_bound (split or drop long jobs) and size_scale (sizes scaled to the machine), and the
// errors that name their keys.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/models/model.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/factory.hpp"
#include "faultsweep/workload/load.hpp"
#include "faultsweep/workload/transform.hpp"
#include "input_support.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using Approx = Catch::Detail::Approx;
using testing::job;
using testing::simulate;

namespace {

// 4 nodes, FCFS, no failures: J0 (2 nodes, 100 s) runs 0-100; J1 (4 nodes, 50 s) waits for it
// and runs 100-150 (slowdown 3); J2 (2 nodes, 10 s) waits behind J1 and runs 150-160
// (slowdown 16).
const std::vector<workload::Job> kJobs{job(0, 0, 100, 2), job(1, 0, 50, 4), job(2, 0, 10, 2)};

double floor_slowdown(double floor_s) {
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.slowdown_floor_s = floor_s;
  return simulate(cfg, kJobs, {}, "fcfs").m.mean_slowdown_above_floor;
}

double work(const std::vector<workload::Job>& jobs) {
  double w = 0;
  for (const auto& j : jobs) w += j.size * j.runtime_s;
  return w;
}

std::string error_of(const Params& t) {
  return testing::thrown_key_expected(
      [&] { workload::validate_workload(t, FAULTSWEEP_SOURCE_DIR); });
}

models::RunContext context() {
  models::RunContext ctx;
  ctx.master_seed = 7;
  ctx.base_dir = FAULTSWEEP_SOURCE_DIR;
  return ctx;
}

}  // namespace

TEST_CASE("metric: slowdown above a run-time floor averages only the jobs that long",
          "[zhang_sensitivity][engine]") {
  // Floor 50 s: J0 (slowdown 1) and J1 (3), not the 10 s J2 (16).
  CHECK(floor_slowdown(50) == Approx((1.0 + 3.0) / 2));
  // Floor 0: every job, i.e. the plain mean slowdown (1 + 3 + 16) / 3.
  CHECK(floor_slowdown(0) == Approx(20.0 / 3));
  // A floor above every run time leaves no job: NaN, not 0.
  CHECK(std::isnan(floor_slowdown(1000)));
}

TEST_CASE("cluster: slowdown_floor is optional, in seconds, and bad values name the key",
          "[zhang_sensitivity][cluster]") {
  const models::ClusterModel m;
  // The new metric is appended after the metrics that existed before it (mean_moldable_size
  // fraction was the last one then): older metric columns keep their index.
  const auto& ms = m.metrics();
  const auto at = [&](const char* name) {
    return std::find_if(ms.begin(), ms.end(), [&](const auto& s) { return s.name == name; }) -
           ms.begin();
  };
  REQUIRE(at("mean_slowdown_above_floor") < static_cast<std::ptrdiff_t>(ms.size()));
  CHECK(at("mean_slowdown_above_floor") > at("predictions_missed"));
  bool found = false;
  for (const ParamSpec& s : m.params())
    if (s.name == "slowdown_floor") {
      found = true;
      CHECK(s.optional);
      CHECK(!s.default_value);  // no stored default: older points keep their parameter text
      CHECK(s.unit == "s");
    }
  CHECK(found);
  Params p;
  p.set("nodes", std::int64_t{16});  // the fars generator's default mean_size 10 must fit
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{5});
  p.set("failures.process", std::string("none"));
  p.set("queue", std::string("fcfs"));
  p.set("allocator", std::string("first_fit"));
  p.set("moldable_size", std::string("max"));
  p.set("moldable_min_fraction", 0.5);
  p.set("on_failure", std::string("requeue_head"));
  p.set("checkpoint", std::string("none"));
  p.set("checkpoint_interval", 3600.0);
  p.set("checkpoint_cost", 300.0);
  p.set("slowdown_floor", -1.0);
  try {
    m.validate(p, ".");
    FAIL("a negative slowdown_floor was accepted");
  } catch (const InputError& e) {
    CHECK(e.key() == "slowdown_floor");
  }
  p.set("slowdown_floor", 600.0);
  CHECK_NOTHROW(m.validate(p, "."));
}

TEST_CASE("long_jobs = split cuts long jobs into equal pieces and keeps the work",
          "[zhang_sensitivity][workload]") {
  // A 10 h job (id 5) and a 3 h job (id 9); bound 4 h: the 10 h job becomes 3 pieces of 10/3 h
  // submitted 0, 10/3 h, 20/3 h after it; the 3 h job is untouched.
  std::vector<workload::Job> jobs{job(5, 0, 36000, 8, 40000), job(9, 100, 10800, 2)};
  const double before = work(jobs);
  const workload::LongJobRule rule{workload::LongJobs::split, 4 * 3600.0};
  const auto rep = workload::apply_long_jobs(jobs, rule, 16, 0.0);
  CHECK(rep.jobs_over == 1);
  CHECK(rep.jobs_after == 4);
  CHECK(rep.work_share == Approx(8 * 36000.0 / before));
  REQUIRE(jobs.size() == 4);
  CHECK(work(jobs) == Approx(before));
  std::set<std::int64_t> ids;
  int pieces = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    ids.insert(jobs[i].id);
    if (i > 0) CHECK(jobs[i - 1].submit_s <= jobs[i].submit_s);  // still sorted
    if (jobs[i].size == 8) {
      CHECK(jobs[i].runtime_s == Approx(12000));
      CHECK(jobs[i].estimate_s == Approx(40000.0 / 3));
      CHECK(jobs[i].submit_s == Approx(12000.0 * pieces));
      ++pieces;
    }
  }
  CHECK(pieces == 3);
  CHECK(ids.size() == 4);  // piece ids are new and unique
  CHECK(ids.count(5) == 1);
}

TEST_CASE("long_jobs = drop removes long jobs and restores the load by the gaps",
          "[zhang_sensitivity][workload]") {
  // Jobs of 1 h every hour on 4 nodes, every 4th one 20 h long.
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 40; ++i) jobs.push_back(job(i + 1, 3600.0 * i, i % 4 == 3 ? 72000 : 3600, 2));
  const double target = workload::offered_load(jobs, 4);
  auto kept = jobs;
  const workload::LongJobRule rule{workload::LongJobs::drop, 12 * 3600.0};
  const auto rep = workload::apply_long_jobs(kept, rule, 4, target);
  CHECK(rep.jobs_over == 10);
  REQUIRE(kept.size() == 30);
  for (const auto& j : kept) CHECK(j.runtime_s == 3600);  // run times never change
  CHECK(kept.front().submit_s == 0);
  CHECK(workload::offered_load(kept, 4) == Approx(target).epsilon(1e-12));
  CHECK(rep.gap_factor < 1);  // gaps shrink to carry the same load with less work
  // Without a target load the load simply falls.
  auto plain = jobs;
  workload::apply_long_jobs(plain, rule, 4, 0.0);
  CHECK(workload::offered_load(plain, 4) < target / 2);
}

TEST_CASE("long_jobs, long_bound and size_scale: bad input names the key",
          "[zhang_sensitivity][workload][input]") {
  Params t;
  t.set("source", std::string("fars"));
  t.set("jobs", std::int64_t{10});
  t.set("long_jobs", std::string("cut"));
  CHECK_THAT(error_of(t), Catch::StartsWith("long_jobs | one of \"keep\", \"drop\", \"split\""));
  t.set("long_jobs", std::string("split"));
  CHECK_THAT(error_of(t), Catch::StartsWith("long_bound | a duration > 0"));
  t.set("long_bound", 0.0);
  CHECK_THAT(error_of(t), Catch::StartsWith("long_bound | a duration > 0"));
  t.set("long_bound", 3600.0);
  CHECK(error_of(t) == "no error");
  t.set("long_jobs", std::string("keep"));
  CHECK_THAT(error_of(t), Catch::StartsWith("long_bound | only with long_jobs"));
  Params s;
  s.set("source", std::string("swf"));
  s.set("file", std::string("tests/data/swf/basic.swf.gz"));
  s.set("size_scale", std::string("half"));
  CHECK_THAT(error_of(s), Catch::StartsWith("size_scale | one of \"none\", \"proportional\""));
  Params g;
  g.set("source", std::string("fars"));
  g.set("size_scale", std::string("proportional"));  // SWF only: a generator has no trace machine
  CHECK_THAT(error_of(g), Catch::StartsWith("size_scale | a key of a \"fars\" workload"));
}

TEST_CASE("size_scale = proportional scales a trace's sizes to the simulated machine",
          "[zhang_sensitivity][workload][swf]") {
  // basic.swf: a 64-node machine; usable jobs of sizes 4, 16, 8, 32, 64 (by submit time).
  Params t;
  t.set("source", std::string("swf"));
  t.set("file", std::string("tests/data/swf/basic.swf.gz"));
  // On 16 nodes the trace as logged keeps only the jobs of 4, 16 and 8 nodes ...
  CHECK(workload::make_workload(t, 16, context()).jobs.size() == 3);
  // ... scaled by 16/64 every job stays: sizes 1, 4, 2, 8, 16.
  t.set("size_scale", std::string("proportional"));
  const workload::Workload w = workload::make_workload(t, 16, context());
  REQUIRE(w.jobs.size() == 5);
  CHECK(w.machine_nodes == 16);
  std::vector<int> sizes;
  for (const auto& j : w.jobs) sizes.push_back(j.size);
  CHECK(sizes == std::vector<int>{1, 4, 2, 8, 16});
  REQUIRE(w.notes.size() == 1);
  CHECK_THAT(w.notes[0], Catch::Contains("5 of 5 changed"));
}
