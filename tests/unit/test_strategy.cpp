// Tests of the engine's openings for runtime strategies (DESIGN §5a, policy/strategy.hpp):
// periodic ticks, warnings ahead of failures and a move that saves the job's work, spare nodes
// the queue never gets, checkpoint-now, an allocator that reads the node history (and never
// sees a failure before it happened), and a lookahead window that holds exactly the failures
// the engine later injects.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/lookahead.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/failures/renewal.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/policy/strategy.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using testing::job;

namespace {

// Records the time of every tick; does nothing else.
class Ticker final : public policy::RuntimeStrategy {
 public:
  Ticker(double period_s, double offset_s) : period_s_(period_s), offset_s_(offset_s) {}
  std::string_view name() const override { return "ticker"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.period_s = period_s_;
    n.offset_s = offset_s_;
    return n;
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions&) override {
    ticks.push_back(v.now_s());
  }
  std::vector<double> ticks;

 private:
  double period_s_, offset_s_;
};

// Warned `lead_s` before each failure, moves the process on the failing node (if busy) to the
// lowest idle node, at `overhead_s`.
class Evacuate final : public policy::RuntimeStrategy {
 public:
  Evacuate(double lead_s, double overhead_s) : lead_s_(lead_s), overhead_s_(overhead_s) {}
  std::string_view name() const override { return "evacuate"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.warning_lead_s = lead_s_;
    return n;
  }
  void on_warning(const policy::ClusterView& v, const failures::FailureEvent& f,
                  policy::Decisions& out) override {
    warned.push_back(f);
    CHECK(v.now_s() == Approx(std::max(0.0, f.time_s - lead_s_)));
    if (v.node_use(f.node) != policy::NodeUse::busy) return;
    const int to = v.free().next_from(0);
    if (to < 0) return;
    out.moves.push_back({v.node_owner(f.node), f.node, to, overhead_s_});
  }
  std::vector<failures::FailureEvent> warned;

 private:
  double lead_s_, overhead_s_;
};

// Holds the given nodes as spares at its first tick and never releases them.
class HoldSpares final : public policy::RuntimeStrategy {
 public:
  explicit HoldSpares(std::vector<std::int32_t> nodes) : nodes_(std::move(nodes)) {}
  std::string_view name() const override { return "hold"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.period_s = 1e9;
    return n;
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions& out) override {
    if (v.spare_count() == 0) out.hold = nodes_;
  }

 private:
  std::vector<std::int32_t> nodes_;
};

// Checkpoints every running job at each tick.
class CheckpointAll final : public policy::RuntimeStrategy {
 public:
  explicit CheckpointAll(double period_s) : period_s_(period_s) {}
  std::string_view name() const override { return "checkpoint_all"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.period_s = period_s_;
    n.offset_s = period_s_;
    return n;
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions& out) override {
    for (const policy::Release& r : v.running()) out.checkpoint.push_back(r.job);
  }

 private:
  double period_s_;
};

// Picks the free nodes with the fewest failures so far (ties: lowest id), and checks at every
// call that the history it sees is exactly the trace's failures up to now: nothing later.
class FewestFailures final : public policy::Allocator {
 public:
  explicit FewestFailures(std::vector<failures::FailureEvent> trace) : trace_(std::move(trace)) {}
  using Allocator::allocate;
  std::string_view name() const override { return "fewest_failures"; }
  void allocate(const policy::AllocationContext& ctx, const policy::NodeSet& free,
                std::span<std::int32_t> out) override {
    REQUIRE(ctx.history != nullptr);
    ++calls;
    for (int n = 0; n < free.nodes(); ++n) {
      std::int64_t seen = 0;
      double last = failures::NodeHistory::kNever;
      for (const auto& f : trace_)
        if (f.node == n && f.time_s <= ctx.now_s) ++seen, last = f.time_s;
      if (ctx.history->failures(n) != seen || ctx.history->last_failure_s(n) != last) ++mismatches;
    }
    std::vector<std::int32_t> order;
    for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1)) order.push_back(n);
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
      return ctx.history->failures(a) < ctx.history->failures(b);
    });
    std::copy_n(order.begin(), out.size(), out.begin());
  }
  int calls = 0, mismatches = 0;

 private:
  std::vector<failures::FailureEvent> trace_;
};

testing::Run run_with(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
                      std::vector<failures::FailureEvent> fails, policy::RuntimeStrategy* s,
                      const char* queue = "fcfs") {
  failures::TraceSource source(std::move(fails));
  auto q = policy::make_queue_policy(queue);
  auto a = policy::make_allocator("first_fit");
  sim::Simulation sim(cfg, jobs, source, *q, *a, nullptr, s);
  testing::Run r;
  r.m = sim.run();
  r.jobs = sim.jobs();
  r.node_time_s = sim.node_time_s();
  return r;
}

}  // namespace

TEST_CASE("strategy: a periodic strategy is called at every period, from its offset",
          "[strategy]") {
  // One 1000-s job: ticks at 50, 150, ..., 950; the run ends at 1000 (the completion at 1000
  // comes before a tick at the same instant would).
  sim::SimConfig cfg;
  cfg.nodes = 2;
  Ticker t(100, 50);
  const auto r = run_with(cfg, {job(0, 0, 1000, 1)}, {}, &t);
  REQUIRE(t.ticks.size() == 10);
  for (std::size_t k = 0; k < t.ticks.size(); ++k) CHECK(t.ticks[k] == 50 + 100.0 * k);
  CHECK(r.m.makespan_s == 1000);
}

TEST_CASE("strategy: a job moved off a node just before it fails loses no work", "[strategy]") {
  // 2 nodes, one 1000-s job on node 0; node 0 fails at 500 for 100 s. Warned 10 s ahead, the
  // strategy moves the job to node 1: no interruption, no lost work; the move's overhead is
  // the only delay.
  sim::SimConfig cfg;
  cfg.nodes = 2;
  const std::vector<failures::FailureEvent> fails{{500, 0, 100}};
  for (const double overhead_s : {0.0, 30.0}) {
    Evacuate e(10, overhead_s);
    const auto r = run_with(cfg, {job(0, 0, 1000, 1)}, fails, &e);
    CHECK(r.jobs[0].failures == 0);
    CHECK(r.jobs[0].lost_s == 0);
    CHECK(r.jobs[0].moves == 1);
    CHECK(r.jobs[0].finish_s == 1000 + overhead_s);
    CHECK(r.jobs[0].overhead_s == overhead_s);
    CHECK(r.m.migrations == 1);
    CHECK(r.m.failures == 1);
    CHECK(r.m.job_failures == 0);
    REQUIRE(e.warned.size() == 1);
  }
  // Without the strategy the same failure costs the job its 500 s (it restarts on node 1).
  const auto none = run_with(cfg, {job(0, 0, 1000, 1)}, fails, nullptr);
  CHECK(none.jobs[0].lost_s == 500);
  CHECK(none.jobs[0].finish_s == 1500);
}

TEST_CASE("strategy: a move during checkpointed work keeps every second of it", "[strategy]") {
  // Periodic checkpoints every 100 s of work at 10 s: at the move (t = 345) the job has done
  // 3 x 100 committed + 15 s in its fourth segment; all 315 s are kept, and the remaining
  // 685 s take 685 + 6 checkpoints x 10 s = 745 s after the 20-s overhead: finish 1110.
  sim::SimConfig cfg;
  cfg.nodes = 2;
  cfg.checkpoint = sim::CheckpointMode::periodic;
  cfg.checkpoint_interval_s = 100;
  cfg.checkpoint_cost_s = 10;
  Evacuate e(5, 20);
  const auto r = run_with(cfg, {job(0, 0, 1000, 1)}, {{350, 0, 1}}, &e);
  CHECK(r.jobs[0].lost_s == 0);
  CHECK(r.jobs[0].finish_s == Approx(345 + 20 + 685 + 60));
}

TEST_CASE("strategy: two nodes held as spares are never given to the queue", "[strategy]") {
  // 4 nodes, nodes 2 and 3 held from t = 0: four 2-node jobs of 100 s run one after another
  // on nodes 0-1 (makespan 400) instead of two at a time (200); the spares sit idle.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  HoldSpares h({2, 3});
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 4; ++i) jobs.push_back(job(i, 0, 100, 2));
  const auto r = run_with(cfg, jobs, {}, &h, "easy");
  CHECK(r.m.makespan_s == 400);
  CHECK(r.node_time_s[static_cast<std::size_t>(sim::NodeState::spare)] == Approx(2 * 400.0));
  CHECK(r.m.spare_node_hours == Approx(2 * 400.0 / 3600));
  CHECK(r.node_time_s[static_cast<std::size_t>(sim::NodeState::busy)] == Approx(4 * 2 * 100.0));
}

TEST_CASE("strategy: checkpoint now commits the work done so far, a failure in the write loses it",
          "[strategy]") {
  // One 1000-s job, checkpoint cost 10 s, a checkpoint asked at 300, 600 and 900 (wall time).
  sim::SimConfig cfg;
  cfg.nodes = 1;
  cfg.checkpoint_cost_s = 10;
  CheckpointAll c(300);
  const auto r = run_with(cfg, {job(0, 0, 1000, 1)}, {}, &c);
  // Failure-free: three writes of 10 s (at 300, 600, 900 of wall time) delay it by 30 s.
  CHECK(r.jobs[0].finish_s == Approx(1030));
  CHECK(r.m.checkpoints_now == 3);
  // With node 0 failing at 605 (inside the write that started at 600) for 5 s: the work of
  // [310, 600) is lost with the write; the job restarts at 610 from 300 s of work.
  CheckpointAll c2(300);
  const auto f = run_with(cfg, {job(0, 0, 1000, 1)}, {{605, 0, 5}}, &c2);
  CHECK(f.jobs[0].failures == 1);
  CHECK(f.jobs[0].lost_s == Approx(605 - 310));
  CHECK(f.jobs[0].progress_s == 1000);
}

TEST_CASE("strategy: an allocator reading the node history sees exactly the past", "[strategy]") {
  // 4 nodes; node 0 fails 3 times, node 1 twice, node 2 once early on; jobs of 1 node arrive
  // over time. The allocator checks at every call that the history equals the trace's
  // failures up to now (none later), and prefers nodes that have failed least.
  const std::vector<failures::FailureEvent> trace{{5, 0, 1},  {7, 1, 1},  {9, 0, 1},  {11, 2, 1},
                                                  {13, 0, 1}, {15, 1, 1}, {400, 3, 1}};
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 12; ++i) jobs.push_back(job(i, 20.0 * i, 30, 1));
  sim::SimConfig cfg;
  cfg.nodes = 4;
  failures::TraceSource source(trace);
  auto q = policy::make_queue_policy("fcfs");
  FewestFailures alloc(trace);
  sim::Simulation sim(cfg, jobs, source, *q, alloc);
  sim.run();
  CHECK(alloc.calls >= 12);  // 12 jobs, and the restarts of job 0 after failures
  CHECK(alloc.mismatches == 0);
  // After t = 15 node 3 (no failures yet) is preferred, then node 2 (one failure).
  CHECK(sim.jobs()[1].first_start_s == 20);
  CHECK(sim.node_history().failures(0) == 3);
  CHECK(sim.node_history().failures(2) == 1);
  CHECK(sim.node_history().failures(3) == 0);  // its failure at 400 s is after the last job
}

TEST_CASE("lookahead: the window returns exactly the failures the engine later injects",
          "[strategy][lookahead]") {
  // Two identical renewal sources (same streams): one read directly, one through a lookahead
  // that is peeked at windows of varying length between pops. Both give the same sequence,
  // cut at the stop time.
  const auto make = [] {
    failures::Lifetime ttf = dist::Dist::weibull(0.7, 3600.0);
    return failures::RenewalSource(16, ttf, dist::Dist::constant(60.0),
                                   make_stream(7, 0, Purpose::failures, "la"),
                                   make_stream(7, 0, Purpose::downtimes, "la"), 1e9);
  };
  auto direct = make();
  auto wrapped = make();
  const double stop_s = 200000;
  failures::Lookahead la(wrapped, stop_s);
  std::vector<failures::FailureEvent> expected;
  for (;;) {
    const auto f = direct.next();
    if (!(f.time_s <= stop_s)) break;
    expected.push_back(f);
  }
  REQUIRE(expected.size() > 500);
  std::size_t k = 0;
  while (la.front().time_s < 1e300) {
    // Peek: the window from the front is the next expected failures, exactly.
    const double until = la.front().time_s + 1000.0 * static_cast<double>(k % 7);
    const auto w = la.window(until);
    for (std::size_t i = 0; i < w.size(); ++i) {
      REQUIRE(k + i < expected.size());
      CHECK(w[i].time_s == expected[k + i].time_s);
      CHECK(w[i].node == expected[k + i].node);
    }
    CHECK(la.front().time_s == expected[k].time_s);
    la.pop();
    ++k;
  }
  CHECK(k == expected.size());
}

TEST_CASE("lookahead: warnings in a run name exactly the failures injected, same as without",
          "[strategy][lookahead]") {
  // A run with a warning strategy that does nothing sees the same failures (time, node) as
  // the run without it, and is warned of each before it happens.
  sim::SimConfig cfg;
  cfg.nodes = 8;
  cfg.failure_stop_s = 1e6;
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 40; ++i) jobs.push_back(job(i, 100.0 * i, 500, 1 + i % 4));
  const auto make = [] {
    failures::Lifetime ttf = dist::Dist::exponential(2000.0);
    return failures::RenewalSource(8, ttf, dist::Dist::constant(30.0),
                                   make_stream(3, 1, Purpose::failures, "w"),
                                   make_stream(3, 1, Purpose::downtimes, "w"), 1e9);
  };
  class Listen final : public policy::RuntimeStrategy {
   public:
    std::string_view name() const override { return "listen"; }
    policy::StrategyNeeds needs() const override {
      policy::StrategyNeeds n;
      n.warning_lead_s = 50;
      n.failure_times = true;
      return n;
    }
    void on_warning(const policy::ClusterView&, const failures::FailureEvent& f,
                    policy::Decisions&) override {
      warned.push_back(f);
    }
    std::vector<failures::FailureEvent> warned;
  } listen;
  auto s1 = make(), s2 = make();
  auto q1 = policy::make_queue_policy("easy"), q2 = policy::make_queue_policy("easy");
  auto a1 = policy::make_allocator("first_fit"), a2 = policy::make_allocator("first_fit");
  sim::Simulation with(cfg, jobs, s1, *q1, *a1, nullptr, &listen);
  sim::Simulation without(cfg, jobs, s2, *q2, *a2);
  const auto m1 = with.run();
  const auto m2 = without.run();
  CHECK(m1.failures == m2.failures);
  CHECK(m1.makespan_s == m2.makespan_s);
  CHECK(m1.mean_response_s == m2.mean_response_s);
  // Every injected failure was warned of, in order (warnings may run ahead of the end).
  std::vector<std::pair<double, int>> injected;
  for (int n = 0; n < 8; ++n)
    for (const double t : with.node_history().failure_times_s(n)) injected.push_back({t, n});
  std::sort(injected.begin(), injected.end());
  REQUIRE(static_cast<std::int64_t>(injected.size()) == m1.failures);
  REQUIRE(listen.warned.size() >= injected.size());
  for (std::size_t i = 0; i < injected.size(); ++i) {
    CHECK(listen.warned[i].time_s == injected[i].first);
    CHECK(listen.warned[i].node == injected[i].second);
  }
}
