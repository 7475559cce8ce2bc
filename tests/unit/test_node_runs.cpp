// Tests of the engine's run-by-run node changes (sim/node_runs.hpp): the split of a node list
// into runs of consecutive ids, the same node times to the bit whether a job's nodes come as long
// runs or one by one (reversed lists) or with a recorder (always node by node), also when a
// strategy moves a wide job's processes, and the same error when an allocator hands out a node
// it may not, inside a long run; and the node lists that runs leave unwritten until they are read
// read as the allocator's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/sim/node_runs.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sim/signals.hpp"
#include "sim_support.hpp"

using namespace faultsweep;

namespace {

// First fit's nodes in decreasing order: no two neighbours in the list are consecutive, so
// every node goes through the engine's node-by-node path.
class ReversedFirstFit final : public policy::Allocator {
 public:
  using Allocator::allocate;
  std::string_view name() const override { return "reversed_first_fit"; }
  void allocate(const policy::AllocationContext& ctx, const policy::NodeSet& free,
                std::span<std::int32_t> out) override {
    ff_.allocate(ctx, free, out);
    std::reverse(out.begin(), out.end());
  }

 private:
  policy::FirstFit ff_;
};

// Hands out the fixed lists given, one per call, whatever is free.
class Scripted final : public policy::Allocator {
 public:
  explicit Scripted(std::vector<std::vector<std::int32_t>> lists) : lists_(std::move(lists)) {}
  using Allocator::allocate;
  std::string_view name() const override { return "scripted"; }
  bool hands_out_runs() const override { return true; }  // the runs path checks its lists
  void allocate(const policy::AllocationContext&, const policy::NodeSet&,
                std::span<std::int32_t> out) override {
    const std::vector<std::int32_t>& l = lists_[next_++];
    std::copy(l.begin(), l.end(), out.begin());
  }

 private:
  std::vector<std::vector<std::int32_t>> lists_;
  std::size_t next_ = 0;
};

struct Outcome {
  sim::Metrics m;
  std::array<double, sim::kNodeStates> node_time_s{};
  std::vector<double> finish_s;
};

// Every node list a signal's view shows: the started job's, the failed job's, each running
// job's when a job ends (some lists are read for the first time there, others never).
class ListReader final : public sim::Observer {
 public:
  void on_job_start(const policy::ClusterView& v, std::int32_t job) override { read(v, job); }
  void on_failure(const policy::ClusterView& v, const failures::FailureEvent&,
                  std::int32_t hit) override {
    if (hit >= 0) read(v, hit);
  }
  void on_job_end(const policy::ClusterView& v, std::int32_t job) override {
    if (job % 3 == 0)
      for (const policy::Release& r : v.running()) read(v, r.job);
  }
  std::vector<std::vector<std::int32_t>> lists;

 private:
  void read(const policy::ClusterView& v, std::int32_t job) {
    const policy::JobView r = v.job(job);
    lists.emplace_back(r.nodes.begin(), r.nodes.end());
    lists.back().push_back(-1 - job);
  }
};

Outcome run(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
            const std::vector<failures::FailureEvent>& fails, policy::Allocator& alloc, bool record,
            policy::RuntimeStrategy* strategy = nullptr, ListReader* reader = nullptr) {
  testing::ListFailures source(fails);
  auto q = policy::make_queue_policy("easy");
  sim::Simulation s(cfg, jobs, source, *q, alloc, nullptr, strategy);
  sim::Recorder rec(sim::kRecordAll, jobs.size());
  if (record) s.set_recorder(&rec);
  if (reader != nullptr) s.observe(reader);
  Outcome o;
  o.m = s.run();
  o.node_time_s = s.node_time_s();
  for (const sim::JobRecord& r : s.jobs()) o.finish_s.push_back(r.finish_s);
  return o;
}

std::string error_of(const sim::SimConfig& cfg, const std::vector<workload::Job>& jobs,
                     std::vector<std::vector<std::int32_t>> lists) {
  Scripted alloc(std::move(lists));
  testing::ListFailures source({});
  auto q = policy::make_queue_policy("fcfs");
  sim::Simulation s(cfg, jobs, source, *q, alloc);
  try {
    s.run();
  } catch (const InternalError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::int32_t> iota(std::int32_t from, std::int32_t count) {
  std::vector<std::int32_t> v;
  for (std::int32_t i = 0; i < count; ++i) v.push_back(from + i);
  return v;
}

// `count` jobs arriving `gap_s` apart on average, of 1 to `widest` nodes, exponential lengths
// (mean 100 s) and estimates up to twice their length.
std::vector<workload::Job> wide_jobs(Engine& rng, int count, double gap_s, int widest) {
  std::vector<workload::Job> jobs;
  double t = 0;
  for (int i = 0; i < count; ++i) {
    t += -gap_s * std::log(uniform01(rng));
    const double length = 1 + -100 * std::log(uniform01(rng));
    jobs.push_back(testing::job(i, t, length, 1 + static_cast<int>(uniform01(rng) * widest),
                                length * (1 + uniform01(rng))));
  }
  return jobs;
}

sim::SimConfig config(int nodes, int on_failure) {
  sim::SimConfig cfg;
  cfg.nodes = nodes;
  cfg.on_failure = static_cast<sim::OnFailure>(on_failure);
  return cfg;
}

// One case run three ways agrees to the bit: each state's node time and every job's finish.
void check_same_times(const Outcome& runs, const Outcome& single, const Outcome& recorded) {
  for (int s = 0; s < sim::kNodeStates; ++s) {
    CHECK(runs.node_time_s[s] == single.node_time_s[s]);
    CHECK(runs.node_time_s[s] == recorded.node_time_s[s]);
  }
  CHECK(runs.finish_s == single.finish_s);
  CHECK(runs.finish_s == recorded.finish_s);
}

}  // namespace

TEST_CASE("node runs: a list splits into its long runs and the stretches between", "[engine]") {
  Engine rng = make_stream(24, 2, Purpose::tiebreaks, "node-runs-split");
  using Part = std::tuple<std::size_t, std::size_t, bool>;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::int32_t> ns;
    std::int32_t n = static_cast<std::int32_t>(uniform01(rng) * 1000);
    const auto len = static_cast<int>(uniform01(rng) * (trial % 3 == 0 ? 12 : 400));
    const double p_step = trial % 2 ? 0.97 : 0.8;
    for (int i = 0; i < len; ++i) {  // mostly steps of one, sometimes a jump or a step back
      const double u = uniform01(rng);
      n += u < p_step ? 1 : u < (1 + p_step) / 2 ? 2 + static_cast<std::int32_t>(u * 50) : -3;
      ns.push_back(n);
    }
    if (trial == 0) {
      ns.clear();
      for (std::int32_t i = 9; i >= 0; --i)
        ns.push_back(std::numeric_limits<std::int32_t>::max() - i);
      for (std::int32_t i = 0; i < 9; ++i) ns.push_back(i);
    }
    // The definition: maximal runs of +1 steps; those of kMinRun or more are runs, the rest
    // merge into the stretches between them; a list shorter than kMinRun is one stretch.
    std::vector<Part> want;
    std::size_t loose = 0;
    for (std::size_t k = 0; k < ns.size() && ns.size() >= sim::kMinRun;) {
      std::size_t e = k + 1;
      while (e < ns.size() && std::int64_t{ns[e]} == std::int64_t{ns[e - 1]} + 1) ++e;
      if (e - k >= sim::kMinRun) {
        if (loose < k) want.emplace_back(loose, k, false);
        want.emplace_back(k, e, true);
        loose = e;
      }
      k = e;
    }
    if (loose < ns.size()) want.emplace_back(loose, ns.size(), false);
    std::vector<Part> got;
    sim::for_each_run(ns,
                      [&](std::size_t k, std::size_t e, bool run) { got.emplace_back(k, e, run); });
    REQUIRE(got == want);
  }
}

TEST_CASE("node runs: long runs, single nodes and a recorder give the same node times to the bit",
          "[engine]") {
  // Wide jobs (lists of up to 250 nodes, past kMinList) on 300 nodes, failures often, every
  // on-failure mode: first fit's runs, the same nodes one by one, and with a recorder.
  Engine rng = make_stream(24, 3, Purpose::tiebreaks, "node-runs-engine");
  for (int rep = 0; rep < 6; ++rep) {
    const int nodes = 300;
    const std::vector<workload::Job> jobs = wide_jobs(rng, 60, 40, 250);
    const sim::SimConfig cfg = config(nodes, rep % 3);
    const auto fails = testing::random_failures(rng, nodes);
    policy::FirstFit ff;
    ReversedFirstFit reversed;
    const Outcome runs = run(cfg, jobs, fails, ff, false);
    const Outcome single = run(cfg, jobs, fails, reversed, false);
    policy::FirstFit ff2;
    const Outcome recorded = run(cfg, jobs, fails, ff2, true);
    REQUIRE(runs.m.job_failures > 0);
    check_same_times(runs, single, recorded);
    CHECK(runs.m.utilization == single.m.utilization);
  }
}

TEST_CASE("node runs: a bad node inside a long run raises the node-by-node error", "[engine]") {
  // Two jobs of 150 nodes (lists long enough for the runs) on 400 nodes, both at time 0.
  const std::vector<workload::Job> jobs{testing::job(0, 0, 100, 150), testing::job(1, 0, 100, 150)};
  sim::SimConfig cfg;
  cfg.nodes = 400;
  // Job 1's run overlaps job 0's nodes 100..149: the first of them is named.
  CHECK_THAT(error_of(cfg, jobs, {iota(0, 150), iota(100, 150)}),
             Catch::Contains("node 100 allocated to job 1 while owned by job 0 (state 1)"));
  // A run past the last node.
  CHECK_THAT(error_of(cfg, jobs, {iota(0, 150), iota(300, 150)}),
             Catch::Contains("allocator returned a node out of range"));
  // A run that repeats one of its own nodes after it.
  std::vector<std::int32_t> twice = iota(160, 149);
  twice.push_back(200);
  CHECK_THAT(error_of(cfg, jobs, {iota(0, 150), twice}),
             Catch::Contains("node 200 allocated to job 1 while owned by job 1 (state 1)"));
}

TEST_CASE("node runs: a job whose process moved gives back and releases its moved list",
          "[engine]") {
  // Wide jobs on 300 nodes, each taken by first fit as one run, while preventive_migrate moves
  // processes off nodes that failed twice in its window (nodes 3 and 140 fail every 1,000 s):
  // a moved job's list no longer splits into the runs kept when it started, and its end and
  // its failures must see the moved list. The same node times and finishes as node by node and as
  // with a recorder.
  Engine rng = make_stream(24, 5, Purpose::tiebreaks, "node-runs-moves");
  const int nodes = 300;
  std::vector<workload::Job> jobs;
  double t = 0;
  for (int i = 0; i < 40; ++i) {
    t += -300 * std::log(uniform01(rng));
    const double length = 2000 + 20000 * uniform01(rng);
    jobs.push_back(
        testing::job(i, t, length, 130 + static_cast<int>(uniform01(rng) * 120), 2 * length));
  }
  std::vector<failures::FailureEvent> fails = testing::random_failures(rng, nodes);
  for (double at = 500; at < 200000; at += 1000) {
    fails.push_back({at, 3, 60});
    fails.push_back({at + 10, 140, 60});
  }
  std::sort(fails.begin(), fails.end(),
            [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  Params point;
  point.set("nodes", std::int64_t{nodes});
  point.set("preventive.interval", 600.0);
  const auto& row = policy::find_choice(policy::strategies(), "strategy", "preventive_migrate");
  for (int mode = 0; mode < 3; ++mode) {
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    cfg.on_failure = static_cast<sim::OnFailure>(mode);
    policy::FirstFit ff, ff2;
    ReversedFirstFit reversed;
    auto s1 = row.make(point), s2 = row.make(point), s3 = row.make(point);
    const Outcome runs = run(cfg, jobs, fails, ff, false, s1.get());
    const Outcome single = run(cfg, jobs, fails, reversed, false, s2.get());
    const Outcome recorded = run(cfg, jobs, fails, ff2, true, s3.get());
    REQUIRE(runs.m.migrations > 0);
    REQUIRE(runs.m.job_failures > 0);
    check_same_times(runs, single, recorded);
  }
}

TEST_CASE("node runs: a list left unwritten at the start reads as the allocator's", "[engine]") {
  // First fit hands out runs, which the engine takes without writing the job's list until a
  // view reads it. Every list read at starts, failures and ends (some running jobs read for the
  // first time long after their start, some never) equals the list the recorder's node-by-node
  // path writes at the start, in every on-failure mode (a suspended job's list is also read by
  // the queue's releases).
  Engine rng = make_stream(24, 6, Purpose::tiebreaks, "node-runs-lazy-list");
  for (int rep = 0; rep < 6; ++rep) {
    const int nodes = 600;
    const std::vector<workload::Job> jobs = wide_jobs(rng, 80, 30, 400);
    const sim::SimConfig cfg = config(nodes, rep % 3);
    const auto fails = testing::random_failures(rng, nodes);
    policy::FirstFit ff, ff2;
    ListReader lazy, eager;
    const Outcome runs = run(cfg, jobs, fails, ff, false, nullptr, &lazy);
    const Outcome recorded = run(cfg, jobs, fails, ff2, true, nullptr, &eager);
    REQUIRE(runs.m.job_failures > 0);
    REQUIRE(lazy.lists.size() > 100);
    CHECK(lazy.lists == eager.lists);
    CHECK(runs.finish_s == recorded.finish_s);
  }
}
