// Zhang, Squillante, Sivasubramaniam & Sahoo §5 on the engine: the checkpoint-overhead metric
// (Figs. 5(c), 6(c)), perfect prediction (§5.2.1), bucketed temporal prediction with Checkpoint
// All / Long / Big (§5.2.2) and Least Failure First with migration (§5.2.3): hand-checked
// scenarios, LFF never reading a failure before it happens, invariants with migrations (the
// cluster model's side, common random numbers and bad input: test_zhang_model.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/least_failure_first.hpp"
#include "faultsweep/policy/zhang_checkpointing.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using testing::job;

namespace {

Params zhang_point(int nodes, double cost_s) {
  Params p;
  p.set("nodes", std::int64_t{nodes});
  p.set("checkpoint_cost", cost_s);
  return p;
}

struct Outcome {
  testing::Run run;
  std::vector<std::pair<double, std::int32_t>> checkpoints;  // (time, job) asked for
};

// Wraps a strategy and records the checkpoints it asks for.
class Recording final : public policy::RuntimeStrategy {
 public:
  explicit Recording(policy::RuntimeStrategy& s) : s_(s) {}
  std::string_view name() const override { return s_.name(); }
  policy::StrategyNeeds needs() const override { return s_.needs(); }
  void on_tick(const policy::ClusterView& v, policy::Decisions& d) override {
    s_.on_tick(v, d);
    for (const std::int32_t j : d.checkpoint) asked.emplace_back(v.now_s(), j);
  }
  void on_warning(const policy::ClusterView& v, const failures::FailureEvent& f,
                  policy::Decisions& d) override {
    s_.on_warning(v, f, d);
    for (const std::int32_t j : d.checkpoint) asked.emplace_back(v.now_s(), j);
  }
  void on_job_end(const policy::ClusterView& v, std::int32_t j, policy::Decisions& d) override {
    s_.on_job_end(v, j, d);
  }
  std::vector<std::pair<double, std::int32_t>> asked;

 private:
  policy::RuntimeStrategy& s_;
};

Outcome run_engine(sim::SimConfig cfg, const std::vector<workload::Job>& jobs,
                   std::vector<failures::FailureEvent> fails, policy::RuntimeStrategy* s,
                   const char* alloc = "first_fit", bool perfect_predictor = false) {
  failures::TraceSource source(std::move(fails));
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator(alloc);
  std::optional<Recording> rec;
  if (s != nullptr) rec.emplace(*s);
  sim::Simulation sim(cfg, jobs, source, *q, *a, nullptr, rec ? &*rec : nullptr);
  failures::Predictor pred(cfg.nodes, 1.0, 1.0);
  if (perfect_predictor) sim.set_predictor(&pred, make_stream(1, 0, Purpose::predictor, "t"));
  Outcome o;
  o.run.m = sim.run();  // the engine's end-of-run invariants are checked inside (FS_CHECK)
  o.run.jobs = sim.jobs();
  if (rec) o.checkpoints = rec->asked;
  return o;
}

}  // namespace

TEST_CASE("zhang: checkpoint overhead counts periodic writes, a cut one included", "[zhang][sim]") {
  // One 1000-s job, a checkpoint every 300 s of work at 10 s. Failure-free: 3 checkpoints
  // (after 300, 600, 900 s of work), 30 s of 1030 s. Node 0 failing at t = 305, 5 s into the
  // first checkpoint: that write is cut (5 s, not completed), 305 s are lost, and the rerun
  // on node 1 writes 3 more: 35 s of 305 + 1030 s, 3 completed.
  sim::SimConfig cfg;
  cfg.nodes = 2;
  cfg.checkpoint = sim::CheckpointMode::periodic;
  cfg.checkpoint_interval_s = 300;
  cfg.checkpoint_cost_s = 10;
  const auto clean = run_engine(cfg, {job(0, 0, 1000, 1)}, {}, nullptr).run;
  CHECK(clean.jobs[0].checkpoint_s == 30);
  CHECK(clean.m.checkpoints == 3);
  CHECK(clean.m.checkpoint_overhead_ratio == Approx(30.0 / 1030.0));
  const auto hit = run_engine(cfg, {job(0, 0, 1000, 1)}, {{305, 0, 50}}, nullptr).run;
  CHECK(hit.jobs[0].lost_s == 305);
  CHECK(hit.jobs[0].checkpoint_s == 35);
  CHECK(hit.m.checkpoints == 3);
  CHECK(hit.m.checkpoint_overhead_ratio == Approx(35.0 / 1335.0));
  // Without checkpointing the metric is 0.
  cfg.checkpoint = sim::CheckpointMode::none;
  cfg.checkpoint_interval_s = std::numeric_limits<double>::infinity();
  CHECK(run_engine(cfg, {job(0, 0, 1000, 1)}, {}, nullptr).run.m.checkpoint_overhead_ratio == 0);
}

TEST_CASE(
    "zhang: with perfect prediction each hit job loses only its checkpoint before the "
    "failure",
    "[zhang][sim]") {
  // 4 nodes, C = 60 s. Job 0 (2 nodes, 1000 s) on nodes 0-1, job 1 (1 node, 2000 s) on node 2.
  // Node 1 fails at 400 and node 2 at 1500. Warned C + margin ahead, the job on the failing node
  // checkpoints, the checkpoint ends at the failure minus the margin: each job keeps all its
  // work and is delayed by exactly C + margin (it restarts at once on free nodes).
  const double c = 60, eps = policy::PredictExact::kExactMargin_s;
  sim::SimConfig cfg;
  cfg.nodes = 4;
  cfg.checkpoint_cost_s = c;  // checkpoint = none: no periodic checkpoints
  const std::vector<workload::Job> jobs{job(0, 0, 1000, 2), job(1, 0, 2000, 1)};
  const std::vector<failures::FailureEvent> fails{{400, 1, 100}, {1500, 2, 50}};
  policy::PredictExact exact(zhang_point(4, c));
  const auto o = run_engine(cfg, jobs, fails, &exact);
  REQUIRE(o.checkpoints.size() == 2);
  CHECK(o.checkpoints[0].first == Approx(400 - c - eps));
  CHECK(o.checkpoints[0].second == 0);
  CHECK(o.checkpoints[1].first == Approx(1500 - c - eps));
  CHECK(o.checkpoints[1].second == 1);
  for (const auto& r : o.run.jobs) {
    CHECK(r.failures == 1);
    CHECK(r.lost_s == Approx(eps).margin(1e-9));  // only the margin after the checkpoint
    CHECK(r.checkpoint_s == c);
    CHECK(r.checkpoints_written == 1);
    CHECK(r.finish_s - r.first_start_s - r.runtime_s == Approx(c + eps));
  }
  CHECK(o.run.m.checkpoints == 2);
  // The same failures without prediction cost the jobs 400 s and 1500 s.
  const auto none = run_engine(cfg, jobs, fails, nullptr).run;
  CHECK(none.jobs[0].lost_s == 400);
  CHECK(none.jobs[1].lost_s == 1500);
}

TEST_CASE(
    "zhang: a bucket with a failure turns checkpointing on for that bucket and the chosen "
    "jobs only",
    "[zhang][sim]") {
  // 1-h buckets (buckets = 24), checkpoints every 30 min within a flagged bucket, C = 60 s.
  // Job A (3 nodes) and job C (1 node) run from t = 0, job B (1 node) from t = 3500; all long.
  // The only failure is of idle node 5 at 4600 s: bucket [3600, 7200) is flagged, so
  // checkpoints are asked at 3600 and 5400 only. At 3600 job B has run 100 s (< 5 min).
  const double c = 60;
  sim::SimConfig cfg;
  cfg.nodes = 6;
  cfg.checkpoint_cost_s = c;
  const std::vector<workload::Job> jobs{job(0, 0, 20000, 3), job(1, 0, 20000, 1),
                                        job(2, 3500, 20000, 1)};
  const std::vector<failures::FailureEvent> fails{{4600, 5, 60}};
  Params p = zhang_point(6, c);
  p.set("zhang.buckets", std::int64_t{24});
  p.set("zhang.interval", 1800.0);
  const auto asked = [&](policy::BucketChoice choice, const Params& point) {
    policy::BucketCheckpointing s(choice, point);
    const auto o = run_engine(cfg, jobs, fails, &s, "first_fit", true);
    CHECK(s.buckets_flagged() == 1);
    CHECK(s.buckets_seen() >= 7);  // the run lasts > 6 h
    std::map<double, std::vector<std::int32_t>> by_time;
    for (const auto& [t, j] : o.checkpoints) by_time[t].push_back(j);
    for (auto& [t, js] : by_time) std::sort(js.begin(), js.end());
    return by_time;
  };
  using M = std::map<double, std::vector<std::int32_t>>;
  SECTION("Checkpoint All: every running job, at 3600 and 5400") {
    CHECK(asked(policy::BucketChoice::all, p) == M{{3600, {0, 1, 2}}, {5400, {0, 1, 2}}});
  }
  SECTION("Checkpoint Long: job B is skipped at 3600 (it has run 100 s < 300 s)") {
    CHECK(asked(policy::BucketChoice::longer, p) == M{{3600, {0, 1}}, {5400, {0, 1, 2}}});
  }
  SECTION(
      "Checkpoint Big: the largest job (k = 1); with k = 2 also the earlier-started of the "
      "two 1-node jobs") {
    CHECK(asked(policy::BucketChoice::big, p) == M{{3600, {0}}, {5400, {0}}});
    Params k2 = p;
    k2.set("zhang.big_k", std::int64_t{2});
    CHECK(asked(policy::BucketChoice::big, k2) == M{{3600, {0, 1}}, {5400, {0, 1}}});
  }
}

TEST_CASE("zhang: Least Failure First allocates the lowest counts and never reads the future",
          "[zhang][lff][policy]") {
  // Direct: counts 2, 0, 1, 0 -> nodes 1, 3, 2 (ties by id), then 0.
  failures::NodeHistory h;
  h.reset(4, false);
  h.record_failure(0, 1);
  h.record_failure(0, 2);
  h.record_failure(2, 3);
  policy::NodeSet free;
  free.reset(4);
  for (int n = 0; n < 4; ++n) free.insert(n);
  policy::LeastFailureFirst lff;
  policy::AllocationContext ctx;
  ctx.history = &h;
  std::vector<std::int32_t> out(3);
  lff.allocate(ctx, free, out);
  CHECK(out == std::vector<std::int32_t>{1, 3, 2});

  // In the engine: nodes 0 and 1 fail at t = 1000-1002 (node 0 twice). The job starting at
  // t = 0 must get nodes 0 and 1 (nothing has failed yet: a policy that read the future would
  // avoid them); the job starting at t = 2000 gets the never-failed nodes 2, 3, then node 1
  // (one failure) before node 0 (two).
  class Spy final : public policy::Allocator {
   public:
    using Allocator::allocate;
    std::string_view name() const override { return "spy"; }
    void allocate(const policy::AllocationContext& c, const policy::NodeSet& f,
                  std::span<std::int32_t> o) override {
      inner.allocate(c, f, o);
      got.emplace_back(o.begin(), o.end());
    }
    policy::LeastFailureFirst inner;
    std::vector<std::vector<std::int32_t>> got;
  } spy;
  sim::SimConfig cfg;
  cfg.nodes = 4;
  failures::TraceSource source({{1000, 0, 10}, {1001, 1, 10}, {1002, 0, 10}});
  policy::Fcfs fcfs;
  const std::vector<workload::Job> jobs{job(0, 0, 100, 2), job(1, 2000, 100, 3)};
  sim::Simulation sim(cfg, jobs, source, fcfs, spy);
  const auto m = sim.run();
  CHECK(m.completed == 2);
  REQUIRE(spy.got.size() == 2);
  CHECK(spy.got[0] == std::vector<std::int32_t>{0, 1});
  CHECK(spy.got[1] == std::vector<std::int32_t>{2, 3, 1});
}

TEST_CASE("zhang: LFF's failure-count buckets give a sort's (failures, id) order as counts change",
          "[zhang][lff][policy]") {
  // One allocator across calls while failures accumulate between them (some nodes many times,
  // so counts reach values no node had before), against a full sort of the free nodes.
  const int nodes = 200;
  failures::NodeHistory h;
  h.reset(nodes, false);
  Engine rng = make_stream(7, 0, Purpose::failures, "lff_buckets");
  policy::LeastFailureFirst lff;
  for (int step = 0; step < 30; ++step) {
    for (int f = 0; f < 25; ++f) {
      const auto n = static_cast<std::int32_t>(uniform01(rng) * uniform01(rng) * nodes);
      h.record_failure(n, step);
    }
    policy::NodeSet free(nodes);
    for (int n = 0; n < nodes; ++n)
      if (uniform01(rng) < 0.6) free.insert(n);
    std::vector<std::pair<std::int64_t, std::int32_t>> sorted;
    for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1))
      sorted.emplace_back(h.failures(n), n);
    std::sort(sorted.begin(), sorted.end());
    policy::AllocationContext ctx;
    ctx.history = &h;
    for (const int k : {1, 5, free.count() / 2, free.count()}) {
      std::vector<std::int32_t> out(static_cast<std::size_t>(k)), want;
      lff.allocate(ctx, free, out);
      for (int i = 0; i < k; ++i) want.push_back(sorted[static_cast<std::size_t>(i)].second);
      INFO("step " << step << ", k " << k);
      CHECK(out == want);
    }
  }
}

TEST_CASE("zhang: LFF migrates a later-started job to safer freed nodes only past the threshold",
          "[zhang][lff][sim]") {
  // 4 idle nodes; node 2 fails 3 times and node 3 once before any job starts. At t = 10 job A
  // (1 node, 100 s) gets node 0 and job B (2 nodes, 1000 s) nodes 1 and 3; at t = 11 job C
  // (1 node, 1000 s) gets the last node, 2. When A ends (t = 110) node 0 (0 failures) is free:
  // C started after A and sits on node 2 (3 failures): it moves if 3 - 0 > threshold, keeping
  // its work and finishing 50 s (the overhead) later. B started with A, not after: never moved.
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<failures::FailureEvent> fails{
      {1, 2, 0.5}, {1, 3, 0.5}, {2, 2, 0.5}, {3, 2, 0.5}};
  const std::vector<workload::Job> jobs{job(0, 10, 100, 1), job(1, 10, 1000, 2),
                                        job(2, 11, 1000, 1)};
  for (const std::int64_t threshold : {0, 1, 2, 3, 4}) {
    Params p = zhang_point(4, 300);
    p.set("zhang.lff_threshold", threshold);
    p.set("zhang.migration_overhead", 50.0);
    policy::LffMigration lff(p);
    const auto o = run_engine(cfg, jobs, fails, &lff, "lff").run;
    const bool moves = 3 > threshold;
    INFO("threshold " << threshold);
    CHECK(o.m.migrations == (moves ? 1 : 0));
    CHECK(o.jobs[2].moves == (moves ? 1 : 0));
    CHECK(o.jobs[1].moves == 0);
    CHECK(o.jobs[2].lost_s == 0);
    CHECK(o.jobs[2].finish_s == (moves ? 1061 : 1011));
  }
}

TEST_CASE(
    "zhang: the engine's invariants hold under LFF with migrations and under every §5.2 "
    "strategy",
    "[zhang][lff][sim]") {
  // Random jobs and failures (seeded 2004 + k), failures skewed to low node ids so that LFF has
  // something to avoid; the engine checks node/job time, ownership and free-set invariants at
  // the end of each run (FS_CHECK). Migrations must actually happen (not vacuous).
  std::int64_t migrations = 0, checkpoints = 0;
  for (std::uint64_t k = 0; k < 12; ++k) {
    Engine rng = make_stream(2004 + k, 0, Purpose::arrivals, "zhang-invariants");
    const int nodes = 12;
    std::vector<workload::Job> jobs;
    double t = 0;
    for (int i = 0; i < 80; ++i) {
      t += std::floor(-300 * std::log(uniform01(rng)));
      const double run = 60 + std::floor(-3000 * std::log(uniform01(rng)));
      jobs.push_back(job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes / 2)));
    }
    std::vector<failures::FailureEvent> fails;
    double f = 0;
    for (int i = 0; i < 60; ++i) {
      f += -600 * std::log(uniform01(rng));
      const double u = uniform01(rng);
      fails.push_back({f, static_cast<std::int32_t>(u * u * u * nodes), 120 * uniform01(rng)});
    }
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    cfg.checkpoint_cost_s = 60;
    cfg.on_failure = k % 2 == 0 ? sim::OnFailure::requeue_head : sim::OnFailure::wait_repair;
    Params p = zhang_point(nodes, 60);
    p.set("zhang.buckets", std::int64_t{24});
    p.set("zhang.lff_threshold", std::int64_t{0});
    p.set("zhang.migration_overhead", 300.0);
    policy::LffMigration lff(p);
    const auto o = run_engine(cfg, jobs, fails, &lff, "lff").run;
    CHECK(o.m.completed == 80);
    migrations += o.m.migrations;
    policy::PredictExact exact(p);
    CHECK(run_engine(cfg, jobs, fails, &exact).run.m.completed == 80);
    for (const auto choice :
         {policy::BucketChoice::all, policy::BucketChoice::longer, policy::BucketChoice::big}) {
      policy::BucketCheckpointing b(choice, p);
      const auto ob = run_engine(cfg, jobs, fails, &b, "first_fit", true).run;
      CHECK(ob.m.completed == 80);
      checkpoints += ob.m.checkpoints;
    }
  }
  CHECK(migrations > 10);
  CHECK(checkpoints > 10);
}
