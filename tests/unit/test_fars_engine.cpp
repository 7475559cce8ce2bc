// FARS on the engine (policy/fars.hpp): it moves only onto nodes EASY can spare without
// delaying the first queued job's reservation (a property over random workloads and
// failures), the engine's invariants hold with its migrations, it saves work on a hand-checked
// case, and the failures and jobs are the same with and without it (common random numbers).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/fars.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using testing::job;

namespace {

Params fars_point(int nodes, double precision, double recall) {
  Params p;
  p.set("nodes", std::int64_t{nodes});
  p.set("queue", std::string("easy"));
  p.set("fars.interval", 50.0);
  p.set("fars.overhead", std::string("live"));
  p.set("fars.restart_cost", 2.0);
  p.set("fars.queue_wait", std::string("mean"));
  p.set("predictor.precision", precision);
  p.set("predictor.recall", recall);
  return p;
}

// EASY's extra nodes at the head's shadow time, from the view (as queue.cpp computes them).
int easy_extra(const policy::ClusterView& v) {
  const auto waiting = v.waiting();
  const int free = v.free().count();
  if (waiting.empty()) return free;
  const int need = v.job_info()[static_cast<std::size_t>(waiting.front())].size;
  if (need <= free) return free - need;
  int avail = free;
  double shadow = std::numeric_limits<double>::infinity();
  for (const policy::Release& r : v.releases()) {
    const double at = std::max(r.time_s, v.now_s());
    if (avail >= need && at > shadow) break;
    avail += r.nodes;
    if (avail >= need && !std::isfinite(shadow)) shadow = at;
  }
  return avail >= need ? avail - need : 0;
}

// Wraps FARS and checks every batch: the idle nodes it moves processes onto are never more
// than EASY's extra nodes, never predicted, and every move leaves a predicted node.
class Checked final : public policy::RuntimeStrategy {
 public:
  explicit Checked(const Params& p) : fars_(policy::FarsStrategy::sul_d, p) {}
  std::string_view name() const override { return "checked"; }
  policy::StrategyNeeds needs() const override { return fars_.needs(); }
  void on_job_end(const policy::ClusterView& v, std::int32_t j, policy::Decisions& d) override {
    fars_.on_job_end(v, j, d);
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions& d) override {
    fars_.on_tick(v, d);
    const int extra = easy_extra(v);
    const auto predicted = v.predicted();
    const auto is_predicted = [&](std::int32_t n) {
      return std::find(predicted.begin(), predicted.end(), n) != predicted.end();
    };
    int onto_idle = 0;
    for (const policy::Move& m : d.moves) {
      if (v.node_use(m.to) == policy::NodeUse::idle) ++onto_idle;
      CHECK_FALSE(is_predicted(m.to));
      CHECK(is_predicted(m.from));
    }
    CHECK(onto_idle <= extra);
    moves += static_cast<std::int64_t>(d.moves.size());
    if (!predicted.empty()) check_suspicious(v, is_predicted);
  }
  std::int64_t moves = 0, suspicious = 0;

 private:
  // §4's suspicious jobs by their definition: every running job with a predicted node, with
  // how many, in running() order.
  template <class IsPredicted>
  void check_suspicious(const policy::ClusterView& v, IsPredicted&& is_predicted) {
    std::vector<std::pair<std::int64_t, std::int32_t>> expected, got;
    for (const policy::Release& r : v.running()) {
      const policy::JobView j = v.job(r.job);
      if (!j.running) continue;
      const auto s =
          static_cast<std::int32_t>(std::count_if(j.nodes.begin(), j.nodes.end(), is_predicted));
      if (s > 0) expected.emplace_back(j.id, s);
    }
    for (const policy::SuspiciousJob& j : fars_.last_suspicious())
      got.emplace_back(j.id, j.suspicious);
    CHECK(got == expected);
    suspicious += static_cast<std::int64_t>(got.size());
  }

  policy::FarsRuntime fars_;
};

std::vector<workload::Job> random_jobs(Engine& rng, int nodes) {
  std::vector<workload::Job> jobs;
  double t = 0;
  for (int i = 0; i < 60; ++i) {
    t += std::floor(-15 * std::log(uniform01(rng)));
    const double run = 20 + std::floor(-200 * std::log(uniform01(rng)));
    jobs.push_back(job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes / 2), run));
  }
  return jobs;
}

struct Outcome {
  sim::Metrics m;
  std::vector<std::int64_t> failures_per_node;
};

Outcome run(const std::vector<workload::Job>& jobs, const std::vector<failures::FailureEvent>& f,
            int nodes, policy::RuntimeStrategy* s, failures::Predictor* pred,
            double horizon_s = std::numeric_limits<double>::infinity()) {
  failures::TraceSource source(f);
  policy::EasyBackfill easy;
  policy::FirstFit ff;
  sim::SimConfig cfg;
  cfg.nodes = nodes;
  cfg.on_failure = sim::OnFailure::wait_repair;
  cfg.horizon_s = horizon_s;
  cfg.failure_stop_s = horizon_s;
  sim::Simulation sim(cfg, jobs, source, easy, ff, nullptr, s);
  if (pred != nullptr) sim.set_predictor(pred, make_stream(1, 0, Purpose::predictor, "t"));
  Outcome o;
  o.m = sim.run();  // the end-of-run invariants are checked inside (FS_CHECK)
  for (int n = 0; n < nodes; ++n) o.failures_per_node.push_back(sim.node_history().failures(n));
  return o;
}

}  // namespace

TEST_CASE("fars: moves only onto EASY's extra nodes, invariants hold, same failures as without",
          "[fars][property]") {
  Engine rng = make_stream(20090501, 0, Purpose::tiebreaks, "fars-property");
  std::int64_t moves = 0, suspicious = 0;
  for (int rep = 0; rep < 150; ++rep) {
    const int nodes = 4 + static_cast<int>(uniform01(rng) * 12);
    const auto jobs = random_jobs(rng, nodes);
    auto fails = testing::random_failures(rng, nodes);
    const double p = rep % 3 == 0 ? 1.0 : 0.5;
    Checked checked(fars_point(nodes, p, p));
    failures::Predictor pred(nodes, p, p);
    // A common horizon: both runs last as long and must see the same failures.
    const Outcome with = run(jobs, fails, nodes, &checked, &pred, 2500);
    const Outcome without = run(jobs, fails, nodes, nullptr, nullptr, 2500);
    CHECK(with.failures_per_node == without.failures_per_node);
    CHECK(with.m.failures == without.m.failures);
    CHECK(with.m.jobs == without.m.jobs);
    CHECK(with.m.migrations <= checked.moves);  // a migration moves one or more processes
    moves += checked.moves;
    suspicious += checked.suspicious;
  }
  CHECK(moves > 100);  // not vacuous
  CHECK(suspicious > 100);
}

TEST_CASE("fars: with a perfect predictor a suspicious job moves before its node fails", "[fars]") {
  // 4 nodes; one 2-node job of 400 s on nodes 0-1; node 0 fails at 130 for 100 s. FARS runs
  // every 50 s: at t = 100 the perfect predictor reports node 0 for [100, 150); two idle
  // nodes are spare (the queue is empty), SUL-D gains, and the process moves from node 0 to
  // node 2 at 2 s overhead (live). The job is never interrupted and ends at 402.
  Params p = fars_point(4, 1.0, 1.0);
  policy::FarsRuntime fars(policy::FarsStrategy::sul_d, p);
  failures::Predictor pred(4, 1.0, 1.0);
  const auto o = run({job(0, 0, 400, 2)}, {{130, 0, 100}}, 4, &fars, &pred);
  CHECK(o.m.migrations == 1);
  CHECK(o.m.job_failures == 0);
  CHECK(o.m.makespan_s == 402);
  CHECK(o.m.predicted_true == 1);
  CHECK(o.m.predicted_false == 0);
  // Without FARS the job is suspended until the repair and loses its 130 s.
  const auto none = run({job(0, 0, 400, 2)}, {{130, 0, 100}}, 4, nullptr, nullptr);
  CHECK(none.m.job_failures == 1);
  CHECK(none.m.makespan_s == 230 + 400);
}

namespace {

// Collects a strategy's end-of-replica metrics by name.
struct Sink final : MetricSink {
  std::map<std::string, double, std::less<>> values;
  void add(std::string_view name, double value) override { values[std::string(name)] = value; }
};

std::map<std::string, double, std::less<>> metrics_of(const policy::FarsRuntime& fars) {
  Sink sink;
  fars.report(sink);
  return sink.values;
}

}  // namespace

TEST_CASE("fars: the spare-pool metrics on hand-checked cases", "[fars]") {
  SECTION("the pool is free") {
    // The case above, the job arriving at t = 1. FARS runs at t = 0, 50, ..., 400 (the job
    // ends at 403): the pool is every idle unpredicted node (the queue is empty): 4 at t = 0,
    // {2, 3} at 50 and 100 (the move 0 -> 2 at 100), {3} at 150 and 200 (node 0 down until
    // 230), {0, 3} from 250 to 400: 4 + 2 + 2 + 1 + 1 + 4 x 2 = 18 over 9 invocations. One
    // invocation (t = 100) has a suspicious job, and the pool then holds 2 nodes.
    policy::FarsRuntime fars(policy::FarsStrategy::sul_d, fars_point(4, 1.0, 1.0));
    failures::Predictor pred(4, 1.0, 1.0);
    const auto o = run({job(0, 1, 400, 2)}, {{130, 0, 100}}, 4, &fars, &pred);
    REQUIRE(o.m.migrations == 1);
    CHECK(fars.invocations() == 9);
    const auto m = metrics_of(fars);
    CHECK(m.at("fars_pool_nodes") == 2.0);
    CHECK(m.at("fars_pool_empty") == 0.0);
    CHECK(m.at("fars_unmoved_jobs") == 0.0);
    CHECK(m.at("fars_held_nodes") == 0.0);
  }
  SECTION("the pool binds") {
    // 2 nodes, both taken by the job from t = 1: the pool is empty at every invocation but
    // t = 0 (2 nodes). At t = 100 node 0 is predicted; SUL-D's gain is positive (124 s of work
    // at risk against a 2 s move) but there is no spare: the job stays, fails at 130, waits
    // for the repair (230) and runs its 400 s again: ends at 630, invocations t = 0 ... 600.
    policy::FarsRuntime fars(policy::FarsStrategy::sul_d, fars_point(2, 1.0, 1.0));
    failures::Predictor pred(2, 1.0, 1.0);
    const auto o = run({job(0, 1, 400, 2)}, {{130, 0, 100}}, 2, &fars, &pred);
    CHECK(o.m.migrations == 0);
    CHECK(o.m.makespan_s == 630 - 1);  // from the first arrival
    CHECK(fars.invocations() == 13);
    const auto m = metrics_of(fars);
    CHECK(m.at("fars_pool_nodes") == Approx(2.0 / 13));
    CHECK(m.at("fars_pool_empty") == 1.0);
    CHECK(m.at("fars_unmoved_jobs") == 1.0);
  }
}

TEST_CASE("fars: hold_vacated keeps the vacated node from the queue until it is released",
          "[fars]") {
  // 3 nodes. Job 0 (2 nodes, 400 s) starts at 1 on nodes 0-1; job 1 (1 node, 50 s) arrives at
  // 110; node 0 fails at 130 for 100 s, and the perfect predictor reports it at t = 100, when
  // FARS moves job 0's process from node 0 to node 2. Without the hold first fit gives job 1
  // the idle node 0 at 110 and the failure hits it; with the hold node 0 is a spare when the
  // failure comes, and job 1 waits for its repair (starts 230, ends 280).
  const std::vector<workload::Job> jobs{job(0, 1, 400, 2), job(1, 110, 50, 1)};
  const std::vector<failures::FailureEvent> fails{{130, 0, 100}};
  Params off = fars_point(3, 1.0, 1.0);
  Params on = off;
  on.set("fars.hold_vacated", true);
  for (const bool hold : {false, true}) {
    policy::FarsRuntime fars(policy::FarsStrategy::sul_d, hold ? on : off);
    failures::Predictor pred(3, 1.0, 1.0);
    const auto o = run(jobs, fails, 3, &fars, &pred);
    CHECK(o.m.migrations == 1);
    CHECK(o.m.job_failures == (hold ? 0 : 1));
    CHECK(metrics_of(fars).at("fars_held_nodes") == (hold ? 1.0 : 0.0));
    CHECK(fars.held().empty());  // released, or taken by its failure, at the next invocation
  }
}

namespace {

// Wraps FARS with hold_vacated on and checks every batch: the nodes held at the last
// invocation are released now unless a failure took them, no node is held twice, FARS holds
// exactly the nodes its moves vacate, and no other spare exists.
class CheckedHold final : public policy::RuntimeStrategy {
 public:
  explicit CheckedHold(const Params& p) : fars_(policy::FarsStrategy::sul_d, p) {}
  std::string_view name() const override { return "checked_hold"; }
  policy::StrategyNeeds needs() const override { return fars_.needs(); }
  void on_job_end(const policy::ClusterView& v, std::int32_t j, policy::Decisions& d) override {
    fars_.on_job_end(v, j, d);
  }
  void on_tick(const policy::ClusterView& v, policy::Decisions& d) override {
    std::vector<std::int32_t> still;
    for (const std::int32_t n : fars_.held())
      if (v.node_use(n) == policy::NodeUse::spare) still.push_back(n);
    CHECK(v.spare_count() == static_cast<int>(still.size()));
    fars_.on_tick(v, d);
    CHECK(d.release == still);
    released += static_cast<std::int64_t>(still.size());
    std::vector<std::int32_t> vacated;
    for (const policy::Move& m : d.moves) {
      CHECK(m.hold_from);
      CHECK(v.node_use(m.from) == policy::NodeUse::busy);  // never a spare already
      vacated.push_back(m.from);
    }
    CHECK(fars_.held() == vacated);
    std::sort(vacated.begin(), vacated.end());
    CHECK(std::adjacent_find(vacated.begin(), vacated.end()) == vacated.end());
    moves += static_cast<std::int64_t>(d.moves.size());
  }
  const policy::FarsRuntime& fars() const { return fars_; }
  std::int64_t moves = 0, released = 0;

 private:
  policy::FarsRuntime fars_;
};

}  // namespace

TEST_CASE("fars: with hold_vacated held nodes are released at the next invocation",
          "[fars][property]") {
  Engine rng = make_stream(20090501, 1, Purpose::tiebreaks, "fars-hold");
  std::int64_t moves = 0, released = 0;
  for (int rep = 0; rep < 100; ++rep) {
    const int nodes = 4 + static_cast<int>(uniform01(rng) * 12);
    const auto jobs = random_jobs(rng, nodes);
    auto fails = testing::random_failures(rng, nodes);
    const double p = rep % 3 == 0 ? 1.0 : 0.5;
    Params point = fars_point(nodes, p, p);
    point.set("fars.hold_vacated", true);
    CheckedHold checked(point);
    failures::Predictor pred(nodes, p, p);
    const Outcome with = run(jobs, fails, nodes, &checked, &pred, 2500);
    const Outcome without = run(jobs, fails, nodes, nullptr, nullptr, 2500);
    CHECK(with.failures_per_node == without.failures_per_node);
    CHECK(with.m.jobs == without.m.jobs);
    CHECK(metrics_of(checked.fars()).at("fars_held_nodes") == static_cast<double>(checked.moves));
    moves += checked.moves;
    released += checked.released;
  }
  CHECK(moves > 100);    // not vacuous
  CHECK(released > 10);  // false predictions: held nodes that do not fail go back to the queue
}
