// Tests of the cluster simulator's engine (sim/engine): a hand-checked scenario with every
// metric computed on paper (4 nodes, 3 jobs, one failure), the same with periodic checkpoints,
// each on_failure mode, void completions, failures of down and idle nodes, the checkpoint
// formulas (Young, Daly), and the invariants on random runs with many failures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/sim/checkpoint.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/sim/node_slots.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using Approx = Catch::Detail::Approx;

namespace {

using testing::job;
using testing::ListFailures;

using testing::Run;
using testing::simulate;

// 4 nodes; J0 (2 nodes, 100 s) and J1 (2 nodes, 50 s) start at 0; J2 (4 nodes, 40 s) arrives at
// 10; node 0 (J0's) fails at 30 for 20 s.
const std::vector<workload::Job> kThreeJobs{job(0, 0, 100, 2), job(1, 0, 50, 2), job(2, 10, 40, 4)};
const std::vector<failures::FailureEvent> kOneFailure{{30.0, 0, 20.0}};

}  // namespace

TEST_CASE("engine: 4 nodes, 3 jobs, one failure: every metric as computed by hand", "[engine]") {
  // Without checkpoints J0 loses its 30 s and is requeued at the head; at 50 node 0 is back and
  // J1 ends, so J0 restarts at 50 on nodes 0-1 and ends at 150; J2 (all 4 nodes) runs 150-190.
  // Conservative backfilling reserved J2 at its arrival (at 100, when J0 and J1 were expected to
  // end) and J2 keeps that slot when the failure requeues J0: at 50 J2 moves earlier into the
  // whole machine and runs 50-90; J0, planned around it, restarts at 90 and ends at 190.
  for (const char* queue : {"fcfs", "easy", "conservative"}) {
    const bool cons = std::string_view(queue) == "conservative";
    const double j0_end = cons ? 190 : 150, j2_start = cons ? 50 : 150;
    for (const auto mode : {sim::OnFailure::requeue_head, sim::OnFailure::requeue_original}) {
      sim::SimConfig cfg;
      cfg.nodes = 4;
      cfg.on_failure = mode;
      const Run r = simulate(cfg, kThreeJobs, kOneFailure, queue);
      const sim::Metrics& m = r.m;
      CHECK(r.jobs[0].first_start_s == 0);
      CHECK(r.jobs[0].finish_s == j0_end);
      CHECK(r.jobs[1].finish_s == 50);
      CHECK(r.jobs[2].first_start_s == j2_start);
      CHECK(r.jobs[2].finish_s == j2_start + 40);
      CHECK(m.makespan_s == 190);
      CHECK(m.utilization == Approx((2 * 100 + 2 * 50 + 4 * 40) / (4.0 * 190)));
      CHECK(m.mean_response_s == Approx((j0_end + 50 + j2_start + 40 - 10) / 3.0));
      CHECK(m.mean_wait_s == Approx((j0_end - 130 + 0 + j2_start - 10) / 3.0));
      CHECK(m.mean_slowdown == Approx((j0_end / 100 + 1 + (j2_start + 30) / 40) / 3));
      CHECK(m.mean_bounded_slowdown == Approx((j0_end / 100 + 1 + (j2_start + 30) / 40) / 3));
      CHECK(m.work_loss_ratio == Approx(30.0 / 130 / 3));  // J0: 30 s lost of 130 s executed
      CHECK(m.sul_node_hours == Approx(2 * 30 / 3600.0));
      CHECK(m.jfr == Approx(1 / 3.0));
      CHECK(m.fsd == Approx((j0_end - 100) / 100 / 3));  // J0 delayed by the failure
      CHECK(m.throughput_per_h == Approx(3 / (190 / 3600.0)));
      CHECK(m.mct_s == Approx((j0_end + 50 + 40) / 3.0));
      CHECK(m.mwt_s == Approx(30 / 3.0));
      CHECK(m.failures == 1);
      CHECK(m.job_failures == 1);
      CHECK(m.completed == 3);
      CHECK(m.unfinished == 0);
      CHECK(m.stale_events == 1);  // J0's first completion (at 100), voided by the failure
      // Node time: 4 nodes x 190 s; busy = 2x30 (J0 first try) + 2x100 + 2x50 + 4x40.
      CHECK(r.node_time_s[1] == Approx(60 + 200 + 100 + 160));
      CHECK(r.node_time_s[3] == Approx(20));
      CHECK(r.node_time_s[0] + r.node_time_s[1] + r.node_time_s[3] == Approx(4 * 190.0));
    }
  }
}

TEST_CASE("engine: wait_repair suspends the job on its nodes until the repair (FARS §5.1)",
          "[engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.on_failure = sim::OnFailure::wait_repair;
  const Run r = simulate(cfg, kThreeJobs, kOneFailure);
  // Same timeline, but J0 holds nodes 0-1 from 30 to 50 instead of waiting in the queue.
  CHECK(r.jobs[0].finish_s == 150);
  CHECK(r.jobs[0].waiting_s == 0);
  CHECK(r.jobs[0].suspended_s == 20);
  CHECK(r.m.mean_wait_s == Approx(140 / 3.0));
  CHECK(r.m.sul_node_hours == Approx(2 * (30 + 20) / 3600.0));  // lost work + held nodes
  CHECK(r.m.mwt_s == Approx(50 / 3.0));
  CHECK(r.node_time_s[2] == Approx(20));  // node 1 held
  CHECK(r.node_time_s[3] == Approx(20));  // node 0 down
}

TEST_CASE("engine: periodic checkpoints: I of work per I + C of wall time, rollback on failure",
          "[engine][checkpoint]") {
  // I = 20 s, C = 5 s. J0: 100 s of work = 4 checkpoints, 120 s; the failure at 30 finds one
  // completed segment (25 s): 20 s committed, 5 s lost. J0 restarts at 50 with 80 s of work
  // (3 checkpoints, 95 s) and ends at 145. J1 (50 s, 2 checkpoints) runs 0-60. J2 (40 s,
  // 1 checkpoint, 45 s) runs 145-190.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.checkpoint = sim::CheckpointMode::periodic;
  cfg.checkpoint_interval_s = 20;
  cfg.checkpoint_cost_s = 5;
  const Run r = simulate(cfg, kThreeJobs, kOneFailure);
  CHECK(r.jobs[0].lost_s == Approx(5));
  CHECK(r.jobs[0].finish_s == Approx(145));
  CHECK(r.jobs[1].finish_s == Approx(60));
  CHECK(r.jobs[2].first_start_s == Approx(145));
  CHECK(r.jobs[2].finish_s == Approx(190));
  CHECK(r.m.sul_node_hours == Approx(2 * 5 / 3600.0));
  CHECK(r.m.fsd == Approx((145.0 - 120.0) / 100 / 3));  // failure-free wall time was 120 s
  CHECK(r.m.work_loss_ratio == Approx(5.0 / (30 + 95) / 3));
}

TEST_CASE("engine: checkpoint arithmetic and the Young and Daly intervals", "[checkpoint]") {
  const sim::CheckpointPlan p{20, 5};
  CHECK(p.checkpoints_for(100) == 4);  // none after the last segment
  CHECK(p.checkpoints_for(101) == 5);
  CHECK(p.checkpoints_for(20) == 0);
  CHECK(p.wall_for_work(100) == 120);
  CHECK(p.committed_after(24.9, 100) == 0);  // still inside the first checkpoint
  CHECK(p.committed_after(25, 100) == 20);
  CHECK(p.committed_after(200, 100) == 80);  // never beyond the last checkpoint
  const sim::CheckpointPlan none{};
  CHECK(none.wall_for_work(100) == 100);
  CHECK(none.committed_after(99, 100) == 0);
  // Young: sqrt(2 C M); C = 5 min, M = 30 d / 128 nodes.
  const double m_s = 30 * 86400.0 / 128;
  CHECK(sim::young_interval_s(300, m_s) == Approx(std::sqrt(2 * 300 * m_s)));
  // Daly 2006 Eq. 37, computed by hand for C = 300 s, M = 20250 s: x = C/2M = 1/135.
  const double x = 300.0 / (2 * 20250.0);
  CHECK(sim::daly_interval_s(300, 20250) ==
        Approx(std::sqrt(2 * 300 * 20250.0) * (1 + std::sqrt(x) / 3 + x / 9) - 300));
  CHECK(sim::daly_interval_s(300, 3485.7) < sim::young_interval_s(300, 3485.7));
  CHECK(sim::daly_interval_s(500, 200) == 200);  // C >= 2M: tau = M
  CHECK(sim::checkpoint_mode_from("daly") == sim::CheckpointMode::daly);
  CHECK_THROWS_AS(sim::checkpoint_mode_from("sometimes"), InputError);
  CHECK_THROWS_AS(sim::on_failure_from("ignore"), InputError);
}

TEST_CASE("engine: a failure of a down node extends its repair, idle down nodes are not used",
          "[engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 2;
  // Node 0 fails at 0 (down to 50), again at 10 (down to 100: the later end wins), and at 20
  // for 1 s (no change). A 1-node job arriving at 5 gets node 1; a 2-node job at 6 waits for
  // node 0 until 100.
  const Run r = simulate(cfg, {job(0, 5, 30, 1), job(1, 6, 10, 2)},
                         {{0.0, 0, 50.0}, {10.0, 0, 90.0}, {20.0, 0, 1.0}});
  CHECK(r.jobs[0].first_start_s == 5);
  CHECK(r.jobs[1].first_start_s == 100);
  CHECK(r.m.failures == 3);
  CHECK(r.m.job_failures == 0);
  CHECK(r.m.stale_events == 1);  // the repair at 50, superseded
  CHECK(r.node_time_s[3] == Approx(100));
}

TEST_CASE("engine: a horizon stops the run, unfinished jobs are counted, not averaged",
          "[engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 1;
  cfg.horizon_s = 60;
  const Run r = simulate(cfg, {job(0, 0, 50, 1), job(1, 0, 50, 1), job(2, 100, 5, 1)}, {});
  CHECK(r.m.completed == 1);
  CHECK(r.m.unfinished == 2);
  CHECK(r.m.makespan_s == 60);
  CHECK(r.m.mean_response_s == 50);
  CHECK(r.m.utilization == Approx(50 / 60.0));
}

TEST_CASE("engine: jobs wider than the machine are rejected and counted", "[engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 2;
  const Run r = simulate(cfg, {job(0, 0, 10, 3), job(1, 0, 10, 2)}, {});
  CHECK(r.m.rejected == 1);
  CHECK(r.m.jobs == 1);
  CHECK(r.m.completed == 1);
}

TEST_CASE("engine: invariants hold on random runs with many failures, every mode and policy",
          "[engine][invariants]") {
  // The end-of-run checks (node time adds up, no node held by two jobs, every job accounted
  // for) throw InternalError if broken; these runs stress them with failures every few jobs.
  Engine rng = make_stream(7, 0, Purpose::tiebreaks, "engine-invariants");
  for (int rep = 0; rep < 60; ++rep) {
    const int nodes = 1 + static_cast<int>(uniform01(rng) * 16);
    std::vector<workload::Job> jobs;
    double t = 0;
    for (int i = 0; i < 80; ++i) {
      t += -50 * std::log(uniform01(rng));
      const double run = 1 + -100 * std::log(uniform01(rng));
      jobs.push_back(
          job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes), run * (1 + uniform01(rng))));
    }
    const std::vector<failures::FailureEvent> fails = testing::random_failures(rng, nodes);
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    cfg.on_failure = static_cast<sim::OnFailure>(rep % 3);
    cfg.checkpoint = rep % 2 ? sim::CheckpointMode::periodic : sim::CheckpointMode::none;
    cfg.checkpoint_interval_s = 30;
    cfg.checkpoint_cost_s = 2;
    const char* queues[] = {"easy", "fcfs", "conservative"};
    const Run r = simulate(cfg, jobs, fails, queues[rep % 3 == 0 ? 2 : rep % 2],
                           rep % 5 < 2 ? "round_robin" : "first_fit");
    CHECK(r.m.completed == 80);
    // Failures after the last completion are not simulated: the run is over.
    double end_s = 0;
    for (const auto& j : r.jobs) end_s = std::max(end_s, j.finish_s);
    std::int64_t before_end = 0;
    for (const auto& f : fails) before_end += f.time_s < end_s;
    CHECK(r.m.failures == before_end);
    CHECK(r.m.utilization <= 1.0);
    CHECK(r.m.mean_bounded_slowdown >= 1.0);
  }
}

TEST_CASE("engine: requeue at the head or at the original place (EASY, one failure)", "[engine]") {
  // 2 nodes. J0 (1 node, 100 s) runs on node 0; J1 (2 nodes) waits with a reservation at 100;
  // J2 (1 node, 50 s, estimate 90 s) is backfilled at 2 (ends by 92 <= 100) on node 1. Node 1
  // fails at 20 (back at once). At the head, J2 starts again at once (ends 70). At its original
  // place J2 is behind J1 and may not backfill (20 + 90 > 100, no extra node): it runs after J1.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 1), job(1, 1, 10, 2), job(2, 2, 50, 1, 90)};
  const std::vector<failures::FailureEvent> fail{{20.0, 1, 0.0}};
  sim::SimConfig cfg;
  cfg.nodes = 2;
  cfg.on_failure = sim::OnFailure::requeue_head;
  const Run head = simulate(cfg, jobs, fail, "easy");
  CHECK(head.jobs[2].first_start_s == 2);
  CHECK(head.jobs[2].finish_s == 70);
  CHECK(head.jobs[1].first_start_s == 100);
  cfg.on_failure = sim::OnFailure::requeue_original;
  const Run orig = simulate(cfg, jobs, fail, "easy");
  CHECK(orig.jobs[1].first_start_s == 100);
  CHECK(orig.jobs[2].finish_s == 160);
  CHECK(orig.m.fsd == Approx((160.0 - 2 - 50) / 50 / 3));
  cfg.on_failure = sim::OnFailure::wait_repair;
  const Run wait = simulate(cfg, jobs, fail, "easy");
  CHECK(wait.jobs[2].finish_s == 70);
  CHECK(wait.jobs[2].suspended_s == 0);
}

TEST_CASE("engine: node lists follow the nodes in use, not the jobs of the log", "[engine]") {
  // 2,000 jobs of 32 nodes on 64 nodes, with failures that requeue some: one list per job would
  // be 64,000 entries; at most two jobs hold nodes at once, so two 32-entry slots serve them all.
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 2000; ++i) jobs.push_back(job(i, 10.0 * i, 25, 32));
  std::vector<failures::FailureEvent> fails;
  for (int k = 1; k <= 200; ++k) fails.push_back({97.0 * k, k % 64, 5});
  sim::SimConfig cfg;
  cfg.nodes = 64;
  failures::TraceSource source(fails);
  auto q = policy::make_queue_policy("easy");
  auto a = policy::make_allocator("first_fit");
  sim::Simulation s(cfg, jobs, source, *q, *a);
  const sim::Metrics m = s.run();
  REQUIRE(m.completed == 2000);
  REQUIRE(m.job_failures > 50);
  CHECK(s.node_list_entries() <= 64);
}

TEST_CASE("node slots: slots keep their entries when the store grows past its reserve",
          "[engine]") {
  // Slots of 1 to 100 entries (classes of 1 to 128) in a store reserved for 16: it grows
  // several times. Every entry written keeps its value through each growth, and no two live
  // slots overlap (as they would if a slot given back went to a job of a larger class).
  sim::NodeSlots slots;
  slots.reset(16);
  struct Live {
    std::int64_t at;
    std::int32_t size;
  };
  std::vector<Live> live;
  Engine rng = make_stream(24, 7, Purpose::tiebreaks, "node-slots");
  for (int step = 0; step < 400; ++step) {
    if (!live.empty() && uniform01(rng) < 0.3) {  // give one back
      const auto k = static_cast<std::size_t>(uniform01(rng) * static_cast<double>(live.size()));
      slots.give(live[k].at, live[k].size);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      continue;
    }
    const auto size = static_cast<std::int32_t>(1 + uniform01(rng) * 100);
    const std::int64_t at = slots.take(size);
    std::int32_t* p = slots.data() + at;
    for (std::int32_t i = 0; i < size; ++i) p[i] = static_cast<std::int32_t>(at) * 1000 + i;
    live.push_back({at, size});
    for (const Live& l : live) {  // every live slot still holds what was written to it
      const std::int32_t* q = slots.data() + l.at;
      for (std::int32_t i = 0; i < l.size; ++i)
        REQUIRE(q[i] == static_cast<std::int32_t>(l.at) * 1000 + i);
    }
  }
  CHECK(slots.capacity_entries() > 16);
}

TEST_CASE("engine: a job time beyond 2^32 s is an input error, not an internal check", "[engine]") {
  // Generators can make such times from their parameters; the readers refuse them earlier.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  for (const auto& bad : {job(1, 1e300, 5, 1), job(1, 0, 5e9, 1), job(1, 0, 5, 1, 1e10)}) {
    const std::vector<workload::Job> jobs{job(0, 0, 5, 1), bad};
    try {
      (void)simulate(cfg, jobs, {});
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("job 1 (id 1)") != std::string::npos);
      CHECK(std::string(e.what()).find("at most 2^32 s (~136 years)") != std::string::npos);
    }
  }
}

TEST_CASE("engine: a repair beyond 2^33 s is an input error, not an internal check", "[engine]") {
  // Node 2 down for 1e300 s: the 4-node job can run again only at the repair, where its end
  // would round onto its start. A failure that late, after every job ended, changes nothing.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{job(0, 0, 500, 4), job(1, 10, 500, 2)};
  try {
    (void)simulate(cfg, jobs, {{5, 2, 1e300}});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("would pass 2^33 s (~272 years)") != std::string::npos);
    // FCFS: the requeued 4-node job waits at the head, and the other behind it.
    CHECK(std::string(e.what()).find("with 2 of 2 jobs not finished") != std::string::npos);
  }
  CHECK(simulate(cfg, jobs, {{100, 1, 60}, {1e300, 2, 60}}).m.completed == 2);
}

TEST_CASE("engine: jobs at the time bounds keep their run times to the microsecond", "[engine]") {
  // Submit times and run times up to 2^32 s with fractions of a second (FCFS: job 3 starts at
  // ~2^32 + 5.4 s and ends just below 2^33 s): every end, computed as a start plus a run time,
  // stays within the accounting's microsecond (the end-of-run checks).
  // At 1e11 s a 5.7 s job, started at a fractional time, ended more than 1 us early.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const double top = workload::kMaxJobTimeS;
  std::vector<workload::Job> jobs{job(0, 0.1, 0.3, 1), job(1, top - 0.3, 5.7, 2),
                                  job(2, top - 0.3, 0.3, 3), job(3, top - 0.2, top - 10.1, 1),
                                  job(4, top, 1234.567, 1)};
  const Run r = simulate(cfg, jobs, {});
  CHECK(r.m.completed == 5);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    INFO(j);
    CHECK(r.jobs[j].finish_s - r.jobs[j].first_start_s >= jobs[j].runtime_s - 1e-6);
  }
}
