// Tests of moldable jobs (Gottumukkala Ch. 6): the size choosers (policy/size_chooser), Amdahl
// scaling of run times, a hand-checked 4-node case under "free" and "max" (with a failure
// showing that size and runtime stay fixed on restart), invariants on random runs with
// moldable jobs and failures, and the workload's moldable draw (its own stream: the jobs
// themselves do not change, and the moldable set grows with the fraction).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/models/model.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/factory.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using Approx = Catch::Detail::Approx;

namespace {

using testing::ListFailures;

workload::Job job(std::int64_t id, double submit_s, double runtime_s, int size, bool moldable,
                  double estimate_s = -1) {
  workload::Job j = testing::job(id, submit_s, runtime_s, size, estimate_s);
  j.moldable = moldable;
  return j;
}

using testing::Run;

Run simulate(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
             std::vector<failures::FailureEvent> failures, const char* queue,
             const policy::SizeChooser* sizes, const char* alloc = "first_fit") {
  return testing::simulate(cfg, jobs, std::move(failures), queue, alloc, sizes);
}

}  // namespace

TEST_CASE("moldable: size choosers", "[moldable]") {
  const policy::MaxSize max;
  CHECK(max.choose(4, 4) == 4);
  CHECK(max.choose(4, 3) == 0);
  const policy::FreeSize half(0.5);
  CHECK(half.choose(4, 8) == 4);
  CHECK(half.choose(4, 3) == 3);
  CHECK(half.choose(4, 2) == 2);  // exactly half: starts
  CHECK(half.choose(4, 1) == 0);
  CHECK(half.choose(5, 2) == 0);  // 2 < 2.5
  CHECK(half.choose(5, 3) == 3);
  CHECK(half.choose(1, 0) == 0);
  const policy::FreeSize any(0.01);
  CHECK(any.choose(100, 1) == 1);
  CHECK(policy::make_size_chooser("free", 1.0)->choose(4, 3) == 0);
  CHECK_THROWS_AS(policy::make_size_chooser("min", 0.5), InputError);
  CHECK_THROWS_AS(policy::make_size_chooser("free", 0.0), InputError);
  CHECK_THROWS_AS(policy::make_size_chooser("free", 1.5), InputError);
}

TEST_CASE("moldable: Amdahl scaling T(k)/T(max), T(k) = f + (1 - f)/k", "[moldable]") {
  const workload::Speedup linear{0.0};
  CHECK(linear.time_factor(2, 4) == 2.0);
  CHECK(linear.time_factor(1, 8) == 8.0);
  CHECK(linear.time_factor(4, 4) == 1.0);
  const workload::Speedup amdahl{0.1};
  CHECK(amdahl.time_factor(2, 4) == Approx((0.1 + 0.9 / 2) / (0.1 + 0.9 / 4)));
  CHECK(amdahl.time_factor(1, 4) == Approx(1.0 / (0.1 + 0.9 / 4)));
  const workload::Speedup serial{1.0};
  CHECK(serial.time_factor(1, 16) == 1.0);  // all serial: size does not matter

  // In the engine: f = 0.1, a job needing 4 nodes for 325 s gets 2 nodes: 550 s at 2 nodes
  // (T(2)/T(4) = 0.55/0.325), estimate scaled the same way.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.speedup = amdahl;
  const policy::FreeSize free(0.5);
  for (const char* queue : {"fcfs", "easy"}) {
    const Run r =
        simulate(cfg, {job(0, 0, 1000, 2, false), job(1, 0, 325, 4, true, 650)}, {}, queue, &free);
    CHECK(r.jobs[1].size == 2);
    CHECK(r.jobs[1].requested_size == 4);
    CHECK(r.jobs[1].runtime_s == Approx(550));
    CHECK(r.jobs[1].estimate_s == Approx(1100));
    CHECK(r.jobs[1].finish_s == Approx(550));
  }
}

TEST_CASE("moldable: Gustafson scaling, S(k) = (1 - p) + k p (Gottumukkala Eq. 6.3)",
          "[moldable]") {
  // p = 0.9: S(2) = 1.9, S(4) = 3.7, so T(2)/T(4) = 3.7/1.9; Amdahl's is (0.55)/(0.325) = 1.69.
  const workload::Speedup g{0.1, workload::SpeedupLaw::gustafson};
  CHECK(g.relative_time(1) == 1.0);
  CHECK(g.time_factor(2, 4) == Approx(3.7 / 1.9));
  CHECK(g.time_factor(1, 4) == Approx(3.7));
  const workload::Speedup a{0.1};
  for (int k = 2; k <= 1024; k *= 2) CHECK(g.relative_time(k) < a.relative_time(k));
  // f = 0: both laws are linear.
  const workload::Speedup g0{0.0, workload::SpeedupLaw::gustafson};
  CHECK(g0.time_factor(1, 8) == Approx(8.0));

  // The reader: speedup = "gustafson" with serial_fraction; an unknown law is an input error.
  RunContext ctx;
  Params t;
  t.set("source", std::string("lublin"));
  t.set("jobs", std::int64_t{20});
  t.set("moldable", 1.0);
  t.set("speedup", std::string("gustafson"));
  t.set("serial_fraction", 0.1);
  workload::validate_workload(t, ".");
  const auto w = workload::make_workload(t, 64, ctx);
  CHECK(w.speedup.law == workload::SpeedupLaw::gustafson);
  CHECK(w.speedup.serial_fraction == 0.1);
  Params bad = t;
  bad.set("speedup", std::string("karp_flatt"));
  CHECK_THROWS_AS(workload::validate_workload(bad, "."), InputError);

  // In the engine: a moldable job of 370 s on 4 nodes gets 2: T(1) = 370 x 3.7, so 1369/1.9 s.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.speedup = g;
  const policy::FreeSize free(0.5);
  const Run r =
      simulate(cfg, {job(0, 0, 1000, 2, false), job(1, 0, 370, 4, true, 740)}, {}, "fcfs", &free);
  CHECK(r.jobs[1].size == 2);
  CHECK(r.jobs[1].runtime_s == Approx(370 * 3.7 / 1.9));
  CHECK(r.jobs[1].estimate_s == Approx(740 * 3.7 / 1.9));
}

TEST_CASE("moldable: 4 nodes, a 2-node job running, a moldable 4-node job (f = 0)",
          "[moldable][engine]") {
  // J0 (rigid, 2 nodes, 100 s) and J1 (moldable, requests 4 nodes, 50 s at 4, linear speedup)
  // arrive at 0. "free": J1 starts at 0 on the 2 free nodes and runs 2 x 50 = 100 s. "max": J1
  // waits for J0 and runs 50 s on 4 nodes, 100-150. min_fraction 0.75: 2 < 3 nodes, it waits.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 2, false), job(1, 0, 50, 4, true)};
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.speedup = workload::Speedup{0.0};
  const policy::FreeSize free(0.5), strict(0.75);
  const policy::MaxSize max;
  for (const char* queue : {"fcfs", "easy"}) {
    const Run f = simulate(cfg, jobs, {}, queue, &free);
    CHECK(f.jobs[1].first_start_s == 0);
    CHECK(f.jobs[1].size == 2);
    CHECK(f.jobs[1].runtime_s == 100);
    CHECK(f.jobs[1].finish_s == 100);
    CHECK(f.m.makespan_s == 100);
    CHECK(f.m.utilization == Approx((2 * 100 + 2 * 100) / (4 * 100.0)));  // work done
    CHECK(f.m.mean_moldable_size_fraction == 0.5);
    CHECK(f.m.mean_slowdown == 1.0);  // runtime is the one at the chosen size

    for (const policy::SizeChooser* c : {static_cast<const policy::SizeChooser*>(&max),
                                         static_cast<const policy::SizeChooser*>(&strict),
                                         static_cast<const policy::SizeChooser*>(nullptr)}) {
      const Run m = simulate(cfg, jobs, {}, queue, c);
      CHECK(m.jobs[1].first_start_s == 100);
      CHECK(m.jobs[1].size == 4);
      CHECK(m.jobs[1].runtime_s == 50);
      CHECK(m.jobs[1].finish_s == 150);
      CHECK(m.m.utilization == Approx((2 * 100 + 4 * 50) / (4 * 150.0)));
      CHECK(m.m.mean_moldable_size_fraction == 1.0);
    }
  }

  // Size and runtime are fixed at the first start: J1 (nodes 2-3) is hit at 50 on node 2,
  // down until 110. At 100 J0 ends and 3 nodes are free (0, 1, 3); J1 restarts on 2 of them
  // (not 3) for the full 100 s and ends at 200.
  for (const char* queue : {"fcfs", "easy"}) {
    const Run f = simulate(cfg, jobs, {{50.0, 2, 60.0}}, queue, &free);
    CHECK(f.jobs[1].failures == 1);
    CHECK(f.jobs[1].first_start_s == 0);
    CHECK(f.jobs[1].size == 2);
    CHECK(f.jobs[1].runtime_s == 100);
    CHECK(f.jobs[1].finish_s == 200);
  }
  // Conservative backfilling starts every job at its requested size: J1 reserves 4 nodes at
  // 100, but node 2 (idle, down 50-110) delays it to 110.
  const Run c = simulate(cfg, jobs, {{50.0, 2, 60.0}}, "conservative", &free);
  CHECK(c.jobs[1].size == 4);
  CHECK(c.jobs[1].first_start_s == 110);
  CHECK(c.jobs[1].finish_s == 160);
}

TEST_CASE("moldable: invariants hold on random runs with moldable jobs and failures",
          "[moldable][engine][invariants]") {
  Engine rng = make_stream(11, 0, Purpose::tiebreaks, "moldable-invariants");
  for (int rep = 0; rep < 60; ++rep) {
    const int nodes = 1 + static_cast<int>(uniform01(rng) * 16);
    std::vector<workload::Job> jobs;
    double t = 0;
    for (int i = 0; i < 80; ++i) {
      t += -50 * std::log(uniform01(rng));
      const double run = 1 + -100 * std::log(uniform01(rng));
      jobs.push_back(job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes),
                         uniform01(rng) < 0.5, run * (1 + uniform01(rng))));
    }
    const std::vector<failures::FailureEvent> fails = testing::random_failures(rng, nodes);
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    cfg.on_failure = static_cast<sim::OnFailure>(rep % 3);
    cfg.checkpoint = rep % 2 ? sim::CheckpointMode::periodic : sim::CheckpointMode::none;
    cfg.checkpoint_interval_s = 30;
    cfg.checkpoint_cost_s = 2;
    cfg.speedup = workload::Speedup{rep % 4 == 0 ? 0.0 : 0.2};
    const double min_fraction = rep % 5 == 0 ? 0.01 : 0.5;
    const policy::FreeSize free(min_fraction);
    const char* queues[] = {"easy", "fcfs", "conservative"};
    const Run r = simulate(cfg, jobs, fails, queues[rep % 3 == 0 ? 2 : rep % 2], &free,
                           rep % 5 < 2 ? "round_robin" : "first_fit");
    CHECK(r.m.completed == 80);
    CHECK(r.m.utilization <= 1.0);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const sim::JobRecord& j = r.jobs[i];
      CHECK(j.requested_size == jobs[i].size);
      CHECK(j.size <= j.requested_size);
      CHECK(j.size >= std::ceil(min_fraction * j.requested_size - 1e-9));
      if (!jobs[i].moldable) CHECK(j.size == jobs[i].size);
      CHECK(j.runtime_s ==
            Approx(jobs[i].runtime_s * cfg.speedup.time_factor(j.size, j.requested_size)));
    }
  }
}

TEST_CASE("moldable: the workload's moldable draw has its own stream", "[moldable][crn]") {
  models::RunContext ctx;
  ctx.master_seed = 5;
  ctx.replica = 1;
  Params t;
  t.set("source", std::string("fars"));
  t.set("jobs", std::int64_t{2000});
  t.set("mean_size", 8.0);
  const auto w0 = workload::make_workload(t, 64, ctx);
  std::vector<std::vector<bool>> sets;
  for (const double fraction : {0.3, 0.6}) {
    Params m = t;
    m.set("moldable", fraction);
    m.set("speedup", std::string("linear"));
    workload::validate_workload(m, ".");
    const auto w = workload::make_workload(m, 64, ctx);
    REQUIRE(w.jobs.size() == w0.jobs.size());
    CHECK(w.speedup.serial_fraction == 0.0);
    std::vector<bool> flags;
    std::int64_t n = 0;
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
      // The same jobs: the flag draws disturb no other stream.
      CHECK(w.jobs[i].submit_s == w0.jobs[i].submit_s);
      CHECK(w.jobs[i].runtime_s == w0.jobs[i].runtime_s);
      CHECK(w.jobs[i].estimate_s == w0.jobs[i].estimate_s);
      CHECK(w.jobs[i].size == w0.jobs[i].size);
      CHECK(!w0.jobs[i].moldable);
      flags.push_back(w.jobs[i].moldable);
      n += w.jobs[i].moldable;
    }
    CHECK(static_cast<double>(n) / 2000 == Approx(fraction).margin(0.05));
    sets.push_back(flags);
  }
  for (std::size_t i = 0; i < sets[0].size(); ++i)
    if (sets[0][i]) CHECK(sets[1][i]);  // nested: moldable at 0.3 => moldable at 0.6
  Params d = t;
  d.set("moldable", 1.0);
  const auto all = workload::make_workload(d, 64, ctx);
  CHECK(all.speedup.serial_fraction == 0.05);  // Amdahl by default
  for (const auto& j : all.jobs) CHECK(j.moldable);
  Params bad = t;
  bad.set("moldable", -0.1);
  CHECK_THROWS_AS(workload::validate_workload(bad, "."), InputError);
}
