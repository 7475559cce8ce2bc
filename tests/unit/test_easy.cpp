// Tests of the queue policies and allocators (policy/): EASY backfilling never delays the head
// job's reservation (a property over many random workloads), a hand-checked backfill, FCFS
// order, first-fit and round-robin choices, and that down nodes are never allocated.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/sim/engine.hpp"
#include "sim_support.hpp"

using namespace faultsweep;

namespace {

using testing::job;
using testing::ListFailures;

// A random small workload for `nodes` nodes: bursty arrivals (30 % simultaneous), integer
// run times, estimates exact half the time (ties with the shadow time), else up to 3x over.
std::vector<workload::Job> random_workload(Engine& rng, int nodes) {
  std::vector<workload::Job> jobs;
  double t = 0;
  const int n_jobs = 10 + static_cast<int>(uniform01(rng) * 50);
  for (int i = 0; i < n_jobs; ++i) {
    t += uniform01(rng) < 0.3 ? 0 : std::floor(-20 * std::log(uniform01(rng)));
    const double run = 1 + std::floor(-60 * std::log(uniform01(rng)));
    const double est = uniform01(rng) < 0.5 ? run : std::ceil(run * (1 + 2 * uniform01(rng)));
    jobs.push_back(job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes), est));
  }
  return jobs;
}

}  // namespace

TEST_CASE("easy: a short job backfills into the hole before the head's reservation", "[easy]") {
  // 4 nodes. A (3 nodes, 100 s) runs; B (4 nodes) must wait for A: reservation at 100.
  // C (1 node, estimate 50 s) ends before 100: backfilled at 2. D (1 node, estimate 200 s)
  // would end after 100 and there are no extra nodes (B takes all 4): it waits for B.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 3, 100), job(1, 1, 10, 4, 10),
                                        job(2, 2, 40, 1, 50), job(3, 3, 150, 1, 200)};
  for (const char* q : {"easy", "fcfs"}) {
    ListFailures none{std::vector<failures::FailureEvent>{}};
    auto queue = policy::make_queue_policy(q);
    policy::FirstFit alloc;
    sim::SimConfig cfg;
    cfg.nodes = 4;
    sim::Simulation s(cfg, jobs, none, *queue, alloc);
    s.run();
    const auto& r = s.jobs();
    CHECK(r[1].first_start_s == 100);
    if (std::string_view(q) == "easy") {
      CHECK(r[2].first_start_s == 2);
    } else {
      CHECK(r[2].first_start_s == 110);
    }
    CHECK(r[3].first_start_s == 110);
  }
}

TEST_CASE("easy: a backfilled job may run past the reservation on extra nodes", "[easy]") {
  // 4 nodes. A (2 nodes, 100 s) runs; B (3 nodes) waits: at 100 four nodes are free, one extra.
  // C (1 node, 500 s) may start now on the extra node; D (1 node, 500 s) may not.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 2, 100), job(1, 1, 10, 3, 10),
                                        job(2, 2, 500, 1, 500), job(3, 3, 500, 1, 500)};
  ListFailures none{std::vector<failures::FailureEvent>{}};
  policy::EasyBackfill easy;
  policy::FirstFit alloc;
  sim::SimConfig cfg;
  cfg.nodes = 4;
  sim::Simulation s(cfg, jobs, none, easy, alloc);
  s.run();
  CHECK(s.jobs()[2].first_start_s == 2);
  CHECK(s.jobs()[1].first_start_s == 100);
  CHECK(s.jobs()[3].first_start_s == 110);
}

TEST_CASE("easy: never delays the head job's reservation (random workloads, no failures)",
          "[easy][property]") {
  // Estimates are at least the runtimes, so every reservation is an upper bound on the start
  // that EASY promises. Record each head job's first reservation and check it starts no later.
  Engine rng = make_stream(2024, 0, Purpose::tiebreaks, "easy-property");
  std::int64_t reservations = 0, backfilled = 0;
  for (int rep = 0; rep < 400; ++rep) {
    const int nodes = 2 + static_cast<int>(uniform01(rng) * 14);
    const std::vector<workload::Job> jobs = random_workload(rng, nodes);
    ListFailures none{std::vector<failures::FailureEvent>{}};
    policy::EasyBackfill easy;
    std::vector<double> reservation(jobs.size(), std::numeric_limits<double>::quiet_NaN());
    easy.set_reservation_log(&reservation);
    policy::FirstFit ff;
    policy::RoundRobin rr;
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    sim::Simulation s(cfg, jobs, none, easy, rep % 2 ? static_cast<policy::Allocator&>(ff) : rr);
    s.run();
    const auto& r = s.jobs();
    for (std::size_t j = 0; j < r.size(); ++j) {
      if (j > 0 && r[j].first_start_s < r[j - 1].first_start_s) ++backfilled;
      if (std::isnan(reservation[j])) continue;
      ++reservations;
      INFO("rep " << rep << " job " << j << " reserved " << reservation[j] << " started "
                  << r[j].first_start_s);
      CHECK(r[j].first_start_s <= reservation[j]);
    }
  }
  // The property is not vacuous: many reservations were made and many jobs jumped the queue.
  CHECK(reservations > 2000);
  CHECK(backfilled > 500);
}

namespace {

// Runs conservative backfilling on `jobs` under `fails` (requeue at the head) and returns every
// reservation it gave, in order.
struct ConservativeRun {
  std::vector<sim::JobRecord> jobs;
  std::vector<policy::ConservativeBackfill::Given> given;
};
ConservativeRun run_conservative(int nodes, const std::vector<workload::Job>& jobs,
                                 std::vector<failures::FailureEvent> fails) {
  ListFailures source{std::move(fails)};
  policy::ConservativeBackfill cons;
  ConservativeRun out;
  cons.set_reservation_trace(&out.given);
  policy::FirstFit ff;
  sim::SimConfig cfg;
  cfg.nodes = nodes;
  sim::Simulation s(cfg, jobs, source, cons, ff);
  s.run();
  out.jobs = s.jobs();
  return out;
}

}  // namespace

TEST_CASE("conservative: every job is reserved on arrival and never later (random workloads)",
          "[easy][conservative][property]") {
  // Conservative backfilling (Mu'alem & Feitelson 2001) gives every job a reservation when it
  // arrives, also when no node is free then. Without failures (estimates >= runtimes) a
  // reservation only moves earlier, so no later arrival delays an earlier job and every job
  // starts no later than the reservation it got on arrival. With failures a reservation may
  // move later only at an instant a failure took capacity away.
  Engine rng = make_stream(2025, 0, Purpose::tiebreaks, "conservative-property");
  std::int64_t reservations = 0, backfilled = 0, arrivals_full = 0, moved_later = 0;
  for (int rep = 0; rep < 800; ++rep) {
    const bool with_failures = rep % 2 == 1;
    const int nodes = 2 + static_cast<int>(uniform01(rng) * 14);
    const std::vector<workload::Job> jobs = random_workload(rng, nodes);
    std::vector<failures::FailureEvent> fails;
    if (with_failures) fails = testing::random_failures(rng, nodes);
    const ConservativeRun run = run_conservative(nodes, jobs, fails);
    std::vector<double> first(jobs.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> latest = first;
    for (const auto& g : run.given) {
      const auto j = static_cast<std::size_t>(g.job);
      INFO("rep " << rep << " job " << j << " reserved " << g.at_s << " at " << g.now_s
                  << " (before: " << latest[j] << ")");
      if (std::isnan(first[j])) {
        CHECK(g.now_s == jobs[j].submit_s);  // reserved when it arrives
        first[j] = g.at_s;
        ++reservations;
        if (g.at_s > g.now_s) {
          std::int32_t busy = 0;  // jobs running then: was the machine full?
          for (const auto& r : run.jobs)
            if (r.first_start_s <= g.now_s && r.finish_s > g.now_s) busy += r.size;
          if (busy == nodes) ++arrivals_full;
        }
      } else if (g.at_s > latest[j]) {
        ++moved_later;
        bool failure_now = false;
        for (const auto& f : fails) failure_now = failure_now || f.time_s == g.now_s;
        CHECK(with_failures);
        CHECK(failure_now);
      }
      latest[j] = g.at_s;
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      REQUIRE(!std::isnan(first[j]));  // every job gets one
      if (j > 0 && run.jobs[j].first_start_s < run.jobs[j - 1].first_start_s) ++backfilled;
      INFO("rep " << rep << " job " << j << " reserved " << first[j] << " started "
                  << run.jobs[j].first_start_s);
      if (!with_failures) CHECK(run.jobs[j].first_start_s <= first[j]);
    }
  }
  // Not vacuous: many jobs jumped the queue, many arrived at a full machine, and failures did
  // push reservations later.
  CHECK(backfilled > 600);
  CHECK(arrivals_full > 500);
  CHECK(moved_later > 50);
  CHECK(reservations > 20000);
}

TEST_CASE("conservative: a job arriving at a full machine keeps the slot it is given then",
          "[easy][conservative]") {
  // 2 nodes (id submit run size estimate): 1 0 20 1 300, 2 0 100 1 100, 3 1 50 2 50,
  // 4 2 150 1 150. Job 3 arrives at a full machine: reserved at 300 (job 1's estimated end);
  // job 4 then at 100 (job 2's), which job 3 cannot take back. Job 1 ends early at 20: job 4
  // starts then, job 3 at 170 when job 4 ends. Makespan 220 s, mean response 126.75 s.
  const std::vector<workload::Job> jobs{job(0, 0, 20, 1, 300), job(1, 0, 100, 1, 100),
                                        job(2, 1, 50, 2, 50), job(3, 2, 150, 1, 150)};
  sim::SimConfig cfg;
  cfg.nodes = 2;
  const testing::Run r = testing::simulate(cfg, jobs, {}, "conservative");
  CHECK(r.jobs[3].first_start_s == 20);
  CHECK(r.jobs[2].first_start_s == 170);
  CHECK(r.m.makespan_s == 220);
  CHECK(r.m.mean_response_s == 126.75);
}

TEST_CASE("conservative: a requeued head job fits around a reservation made while all was busy",
          "[easy][conservative]") {
  // 2 nodes. Job 0 (2 nodes, 100 s) runs from 0; job 1 (2 nodes, 50 s) arrives at 10 with
  // every node busy: reserved at 100. Node 0 fails at 20 for 10 s: job 0 is requeued at the
  // head, but job 1 keeps its slot and, once the machine is whole at 30, moves earlier into
  // it: job 1 runs 30-80, job 0 80-180.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 2, 100), job(1, 10, 50, 2, 50)};
  sim::SimConfig cfg;
  cfg.nodes = 2;
  cfg.on_failure = sim::OnFailure::requeue_head;
  const testing::Run r = testing::simulate(cfg, jobs, {{20.0, 0, 10.0}}, "conservative");
  CHECK(r.jobs[1].first_start_s == 30);
  CHECK(r.jobs[0].finish_s == 180);
  CHECK(r.m.makespan_s == 180);
}

TEST_CASE("conservative: a short job backfills only where it delays no reservation", "[easy]") {
  // 4 nodes. A (3 nodes, 100 s) runs; B (4 nodes) reserved at 100; C (1 node, 50 s) fits before
  // 100: starts at 2. D (1 node, est 200 s) would delay B: reserved after B, at 110.
  const std::vector<workload::Job> jobs{job(0, 0, 100, 3, 100), job(1, 1, 10, 4, 10),
                                        job(2, 2, 40, 1, 50), job(3, 3, 150, 1, 200)};
  ListFailures none{std::vector<failures::FailureEvent>{}};
  policy::ConservativeBackfill cons;
  policy::FirstFit alloc;
  sim::SimConfig cfg;
  cfg.nodes = 4;
  sim::Simulation s(cfg, jobs, none, cons, alloc);
  s.run();
  CHECK(s.jobs()[1].first_start_s == 100);
  CHECK(s.jobs()[2].first_start_s == 2);
  CHECK(s.jobs()[3].first_start_s == 110);
}

TEST_CASE("fcfs: jobs start in arrival order", "[easy]") {
  Engine rng = make_stream(5, 0, Purpose::tiebreaks, "fcfs-order");
  std::vector<workload::Job> jobs;
  double t = 0;
  for (int i = 0; i < 200; ++i) {
    t += -10 * std::log(uniform01(rng));
    const double run = 1 + -50 * std::log(uniform01(rng));
    jobs.push_back(job(i, t, run, 1 + static_cast<int>(uniform01(rng) * 8), run));
  }
  ListFailures none{std::vector<failures::FailureEvent>{}};
  policy::Fcfs fcfs;
  policy::FirstFit alloc;
  sim::SimConfig cfg;
  cfg.nodes = 8;
  sim::Simulation s(cfg, jobs, none, fcfs, alloc);
  s.run();
  for (std::size_t j = 1; j < jobs.size(); ++j)
    CHECK(s.jobs()[j].first_start_s >= s.jobs()[j - 1].first_start_s);
}

TEST_CASE("allocators: first-fit takes the lowest ids, round robin continues after the last",
          "[allocator]") {
  policy::NodeSet free(70);
  for (int n : {1, 3, 4, 64, 65, 69}) free.insert(n);
  std::vector<std::int32_t> out(3);
  policy::FirstFit ff;
  ff.allocate(free, out);
  CHECK(out == std::vector<std::int32_t>{1, 3, 4});
  policy::RoundRobin rr;
  rr.allocate(free, out);
  CHECK(out == std::vector<std::int32_t>{1, 3, 4});
  rr.allocate(free, out);  // continues after 4, wraps around
  CHECK(out == std::vector<std::int32_t>{64, 65, 69});
  rr.allocate(free, out);
  CHECK(out == std::vector<std::int32_t>{1, 3, 4});
  CHECK(free.next_from(5) == 64);
  CHECK(free.next_from(70) == -1);
  CHECK_THROWS_AS(policy::make_allocator("best_fit"), InputError);
  CHECK_THROWS_AS(policy::make_queue_policy("lifo"), InputError);
  CHECK(policy::make_queue_policy("easy")->name() == "easy");
}

TEST_CASE("allocators: a down node is never allocated", "[allocator]") {
  // Node 0 is down from 0 to 1000; 1-node jobs arriving every second must all avoid it.
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 20; ++i) jobs.push_back(job(i, i, 5, 1, 5));
  for (const char* a : {"first_fit", "round_robin"}) {
    ListFailures f({{0.0, 0, 1000.0}});
    policy::Fcfs fcfs;
    auto alloc = policy::make_allocator(a);
    sim::SimConfig cfg;
    cfg.nodes = 3;
    sim::Simulation s(cfg, jobs, f, fcfs, *alloc);
    const sim::Metrics m = s.run();
    CHECK(m.job_failures == 0);
    CHECK(s.node_time_s()[static_cast<int>(sim::NodeState::busy)] == 20 * 5);
  }
}
