// Tests of the one read-only ClusterView (policy/cluster_view.hpp) that every decision maker
// gets — a queue policy, an allocator and a size chooser that decide from it — and of a
// strategy's openings besides ticks: calls at times it names, the failure hook, and
// predictions it asks for over a window of its choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/strategy.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using testing::job;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// FCFS, but starts nothing while any job runs: one job at a time, read from the view.
class OneAtATime final : public policy::QueuePolicy {
 public:
  std::string_view name() const override { return "one_at_a_time"; }
  void select(const policy::QueueState& s, std::vector<std::int32_t>& start) override {
    REQUIRE(s.view != nullptr);
    CHECK(s.view->now_s() == s.now_s);
    CHECK(s.view->free().count() == s.free_nodes);
    if (!s.view->running().empty()) return;
    if (!s.waiting.empty() && s.sizes[0] <= s.free_nodes) start.push_back(0);
  }
};

// The free nodes farthest from any busy node's id (ties: the lowest id), read from
// view->node_use: spreads jobs apart.
class AwayFromBusy final : public policy::Allocator {
 public:
  using Allocator::allocate;
  std::string_view name() const override { return "away_from_busy"; }
  void allocate(const policy::AllocationContext& ctx, const policy::NodeSet& free,
                std::span<std::int32_t> out) override {
    REQUIRE(ctx.view != nullptr);
    const policy::ClusterView& v = *ctx.view;
    std::vector<std::pair<int, std::int32_t>> by_distance;  // (-distance, node)
    for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1)) {
      int d = v.nodes();
      for (int m = 0; m < v.nodes(); ++m)
        if (v.node_use(m) == policy::NodeUse::busy) d = std::min(d, std::abs(m - n));
      by_distance.emplace_back(-d, n);
    }
    std::sort(by_distance.begin(), by_distance.end());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = by_distance[i].second;
  }
};

// The requested size when it is the only job waiting, else half of it (rounded up): reads
// the queue from the view.
class ShareWhenBusy final : public policy::SizeChooser {
 public:
  using SizeChooser::choose;
  std::string_view name() const override { return "share_when_busy"; }
  std::int32_t choose(const policy::SizeRequest& r) const override {
    REQUIRE(r.view != nullptr);
    const std::int32_t want = r.view->waiting().size() == 1 ? r.requested : (r.requested + 1) / 2;
    return want <= r.free_nodes ? want : 0;
  }
};

sim::Simulation make_sim(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
                         failures::FailureSource& source, policy::QueuePolicy& q,
                         policy::Allocator& a, policy::RuntimeStrategy* s = nullptr,
                         const policy::SizeChooser* sizes = nullptr) {
  return sim::Simulation(cfg, jobs, source, q, a, sizes, s);
}

}  // namespace

TEST_CASE("a queue policy decides from the view: one running job at a time", "[view][engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{job(0, 0, 10, 1), job(1, 0, 10, 1), job(2, 5, 10, 1)};
  testing::ListFailures none({});
  OneAtATime q;
  auto a = policy::make_allocator("first_fit");
  sim::Simulation s = make_sim(cfg, jobs, none, q, *a);
  s.run();
  // FCFS would run all three at once; reading view->running() serialises them.
  CHECK(s.jobs()[0].finish_s == 10);
  CHECK(s.jobs()[1].finish_s == 20);
  CHECK(s.jobs()[2].finish_s == 30);
}

TEST_CASE("an allocator decides from the view: nodes away from busy ones", "[view][engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 8;
  const std::vector<workload::Job> jobs{job(0, 0, 100, 1), job(1, 1, 100, 1)};
  testing::ListFailures none({});
  auto q = policy::make_queue_policy("fcfs");
  AwayFromBusy a;
  sim::Simulation s = make_sim(cfg, jobs, none, *q, a);
  sim::Recorder rec(sim::kRecordJobs, jobs.size());
  s.set_recorder(&rec);
  s.run();
  // Job 0 on an idle machine: node 0 (all at distance 8); job 1: node 7, the farthest from it.
  const auto& alloc = rec.tables().allocations;
  REQUIRE(alloc.size() == 2);
  CHECK(alloc[0].first_node == 0);
  CHECK(alloc[1].first_node == 7);
}

TEST_CASE("a size chooser decides from the view: half size when others wait", "[view][engine]") {
  sim::SimConfig cfg;
  cfg.nodes = 8;
  std::vector<workload::Job> jobs{job(0, 0, 100, 4), job(1, 0, 100, 4), job(2, 500, 100, 4)};
  for (workload::Job& j : jobs) j.moldable = true;
  testing::ListFailures none({});
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator("first_fit");
  ShareWhenBusy sizes;
  sim::Simulation s = make_sim(cfg, jobs, none, *q, *a, nullptr, &sizes);
  s.run();
  // Jobs 0 and 1 arrive together (two waiting: half size); job 2 arrives alone.
  CHECK(s.jobs()[0].size == 2);
  CHECK(s.jobs()[1].size == 2);
  CHECK(s.jobs()[2].size == 4);
}

namespace {

// First called at 5 s; each call asks for the next one 7 s later (twice at 12 s) until 30 s,
// and checkpoints every running job at its first call at 19 s.
class Caller final : public policy::RuntimeStrategy {
 public:
  std::string_view name() const override { return "caller"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.first_call_s = 5;
    return n;
  }
  void on_call(const policy::ClusterView& v, policy::Decisions& out) override {
    calls.push_back(v.now_s());
    running_at_call.push_back(static_cast<int>(v.running().size()));
    if (v.now_s() == 5) out.call_at_s.push_back(12);
    if (v.now_s() < 30) out.call_at_s.push_back(v.now_s() + 7);
    if (v.now_s() == 19 && calls[calls.size() - 2] != 19)
      for (const policy::Release& r : v.running()) out.checkpoint.push_back(r.job);
  }
  std::vector<double> calls;
  std::vector<int> running_at_call;
};

// Asks for the failure hook and records what it sees there.
class FailureWatcher final : public policy::RuntimeStrategy {
 public:
  explicit FailureWatcher(bool want) : want_(want) {}
  std::string_view name() const override { return "failure_watcher"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.failures = want_;
    return n;
  }
  void on_failure(const policy::ClusterView& v, const failures::FailureEvent& f,
                  std::int32_t job_hit, policy::Decisions&) override {
    CHECK(v.now_s() == f.time_s);
    CHECK(v.node_use(f.node) == policy::NodeUse::down);  // already applied
    CHECK(v.history().failures(f.node) >= 1);
    if (job_hit >= 0) CHECK_FALSE(v.job(job_hit).running);  // requeued
    hits.push_back(job_hit);
  }
  std::vector<std::int32_t> hits;

 private:
  bool want_;
};

// Asks the predictor at every second tick, over `window_s`.
class Asker final : public policy::RuntimeStrategy {
 public:
  explicit Asker(double window_s) : window_s_(window_s) {}
  std::string_view name() const override { return "asker"; }
  policy::StrategyNeeds needs() const override {
    policy::StrategyNeeds n;
    n.period_s = 10;
    return n;
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions&) override {
    CHECK(v.predicted().empty());  // a tick starts with no report
    std::vector<std::int32_t> got;
    if (ticks_++ % 2 == 0) {
      const auto p = v.predict(window_s_);
      got.assign(p.begin(), p.end());
      CHECK(std::equal(p.begin(), p.end(), v.predicted().begin(), v.predicted().end()));
    }
    std::sort(got.begin(), got.end());
    reports.push_back(got);
  }
  std::vector<std::vector<std::int32_t>> reports;

 private:
  double window_s_;
  std::int64_t ticks_ = 0;
};

}  // namespace

TEST_CASE("a strategy is called at the times it asks for", "[view][strategy]") {
  sim::SimConfig cfg;
  cfg.nodes = 2;
  cfg.checkpoint_cost_s = 1;
  const std::vector<workload::Job> jobs{job(0, 0, 19, 1), job(1, 0, 100, 1)};
  testing::ListFailures none({});
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator("first_fit");
  Caller c;
  sim::Simulation s = make_sim(cfg, jobs, none, *q, *a, &c);
  const sim::Metrics m = s.run();
  // Two calls at 12 s (one per request); the call at 19 s comes after job 0 completes then.
  CHECK(c.calls == std::vector<double>{5, 12, 12, 19, 19, 26, 26, 33, 33});
  CHECK(c.running_at_call[3] == 1);
  // Checkpointed at 19 s: job 1 runs the checkpoint cost longer.
  CHECK(m.checkpoints_now == 1);
  CHECK(s.jobs()[1].finish_s == 101);
}

TEST_CASE("the failure hook comes after the failure, only when asked for", "[view][strategy]") {
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{job(0, 0, 100, 2)};
  const std::vector<failures::FailureEvent> fails{{10, 1, 5}, {20, 3, 5}, {22, 3, 1}};
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator("first_fit");
  for (const bool want : {true, false}) {
    testing::ListFailures source(fails);
    FailureWatcher w(want);
    sim::Simulation s = make_sim(cfg, jobs, source, *q, *a, &w);
    s.run();
    // Busy node 1 (job 0, restarted on nodes 0 and 2), then node 3 idle, then already down.
    if (want) CHECK(w.hits == std::vector<std::int32_t>{0, -1, -1});
    if (!want) CHECK(w.hits.empty());
  }
}

TEST_CASE("a strategy asks the predictor over a window of its choice", "[view][strategy]") {
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{job(0, 0, 45, 1)};
  const std::vector<failures::FailureEvent> fails{{15, 3, 1}, {25, 2, 1}};
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator("first_fit");
  testing::ListFailures source(fails);
  Asker asker(20);
  failures::Predictor perfect(cfg.nodes, 1.0, 1.0);
  sim::Simulation s = make_sim(cfg, jobs, source, *q, *a, &asker);
  s.set_predictor(&perfect, make_stream(1, 0, Purpose::predictor, "t"));
  const sim::Metrics m = s.run();
  // Ticks at 0, 10, 20, 30, 40; predictions at 0 ([0, 20): node 3), 20 ([20, 40): node 2), 40.
  using V = std::vector<std::int32_t>;
  CHECK(asker.reports == std::vector<V>{V{3}, V{}, V{2}, V{}, V{}});
  CHECK(m.predicted_true == 2);
  CHECK(m.predicted_missed == 0);
}
