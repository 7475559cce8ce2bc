// Records of a replica (sim/records.hpp) against its metrics: over random small workloads with
// failures and every queue policy, allocator, runtime strategy, on-failure rule and checkpoint
// policy of the cluster model, the metrics recomputed from the job and failure tables equal the
// replica's metrics, and the node and allocation tables never show a node in two jobs or busy
// while down.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cluster_metric.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/sim/records.hpp"

using namespace faultsweep;
using faultsweep::testing::metric;

namespace {

struct Combo {
  std::string queue, allocator, strategy, on_failure, checkpoint, moldable_size;
};

Params point(const Combo& c, int seed) {
  Params p;
  p.set("nodes", std::int64_t{12 + seed % 7});
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{25 + seed % 11});
  p.set("workload.mean_interarrival", 300.0);
  p.set("workload.mean_runtime", 1800.0);
  p.set("workload.mean_size", 3.0);
  p.set("workload.moldable", 0.3);
  p.set("workload.speedup", std::string("amdahl"));
  p.set("workload.serial_fraction", 0.1);
  p.set("failures.process", std::string("renewal"));
  p.set("failures.dist", std::string("exponential"));
  p.set("failures.mean", 6 * 3600.0);
  p.set("failures.downtime", 900.0);
  p.set("predictor.precision", 0.7);
  p.set("predictor.recall", 0.7);
  p.set("fars.interval", 1800.0);
  p.set("fars.overhead", std::string("live"));
  p.set("fars.checkpoint_cost", 60.0);
  p.set("fars.restart_cost", 30.0);
  p.set("fars.queue_wait", std::string("mean"));
  p.set("queue", c.queue);
  p.set("allocator", c.allocator);
  p.set("on_failure", c.on_failure);
  p.set("checkpoint", c.checkpoint);
  p.set("checkpoint_interval", 600.0);
  p.set("checkpoint_cost", 30.0);
  p.set("moldable_size", c.moldable_size);
  if (c.strategy != "none") p.set("strategy", c.strategy);
  return models::ClusterModel().with_defaults(std::move(p));
}

// The metrics the issue names, recomputed from the tables alone, in the engine's job order.
std::map<std::string, double> recompute(const sim::RecordTables& t) {
  double wait = 0, resp = 0, bsd = 0, wlr = 0, work = 0, c = 0, jobs = 0, hit = 0, moves = 0;
  for (const sim::JobRow& j : t.jobs) {
    if (j.state == static_cast<std::uint8_t>(sim::JobState::rejected)) continue;
    ++jobs;
    hit += j.failures;
    moves += j.migrations;
    if (j.state != static_cast<std::uint8_t>(sim::JobState::done)) continue;
    ++c;
    const double r = j.finish_s - j.submit_s;
    wait += j.wait_s;
    resp += r;
    bsd += std::max(1.0, r / std::max(j.runtime_s, 10.0));
    wlr += j.run_s > 0 ? j.lost_s / j.run_s : 0.0;
    work += j.size * j.runtime_s;
  }
  const double makespan = t.end_s - t.jobs.front().submit_s;
  double hit_rows = 0;
  for (const sim::FailureRow& f : t.failures) hit_rows += f.job >= 0 ? 1 : 0;
  CHECK(hit_rows == hit);
  return {{"mean_wait_s", wait / c},
          {"mean_response_s", resp / c},
          {"mean_bounded_slowdown", bsd / c},
          {"utilization", work / (t.nodes * makespan)},
          {"makespan_s", makespan},
          {"work_loss_ratio", wlr / c},
          {"failures", static_cast<double>(t.failures.size())},
          {"job_failures", hit},
          {"migrations", moves},
          {"jobs", jobs}};
}

// Allocations never overlap on a node (no node in two jobs) nor a node's down periods (from
// the node table: a down row until the node's next row); a failure that hit a job ends one of
// that job's attempts on that node at that instant.
void check_nodes(const sim::RecordTables& t) {
  const auto n = static_cast<std::size_t>(t.nodes);
  const auto down = static_cast<std::uint8_t>(policy::NodeUse::down);
  std::vector<std::vector<std::pair<double, double>>> down_spans(n), by_node(n);
  std::vector<double> down_since(n, -1);
  for (const sim::NodeRow& r : t.node_changes) {
    const auto i = static_cast<std::size_t>(r.node);
    if (down_since[i] >= 0) down_spans[i].emplace_back(down_since[i], r.time_s);
    down_since[i] = r.state == down ? r.time_s : -1;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (down_since[i] >= 0) down_spans[i].emplace_back(down_since[i], t.end_s);
  std::map<std::pair<std::int32_t, std::int32_t>, const sim::AttemptRow*> attempt;
  for (const sim::AttemptRow& a : t.attempts) attempt[{a.job, a.attempt}] = &a;
  std::map<std::pair<std::int32_t, double>, std::vector<std::int32_t>> cut;  // (job, t) -> nodes
  for (const sim::AllocationRow& al : t.allocations) {
    const sim::AttemptRow& a = *attempt.at({al.job, al.attempt});
    for (std::int32_t k = 0; k < al.count; ++k) {
      const auto i = static_cast<std::size_t>(al.first_node + k);
      by_node[i].emplace_back(a.start_s, a.end_s);
      for (const auto& [d0, d1] : down_spans[i]) CHECK((a.end_s <= d0 || a.start_s >= d1));
      if (a.end == static_cast<std::uint8_t>(sim::AttemptEnd::failure))
        cut[{al.job, a.end_s}].push_back(al.first_node + k);
    }
  }
  for (auto& spans : by_node) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t k = 1; k < spans.size(); ++k) CHECK(spans[k].first >= spans[k - 1].second);
  }
  for (const sim::FailureRow& f : t.failures) {
    if (f.job < 0) continue;
    const auto it = cut.find({f.job, f.time_s});
    REQUIRE(it != cut.end());
    CHECK(std::find(it->second.begin(), it->second.end(), f.node) != it->second.end());
  }
}

std::vector<Combo> combos() {
  std::vector<Combo> out;
  const auto names = [](const auto& table) { return policy::choice_names(table); };
  const auto rules = names(policy::failure_rules());
  const auto ckpts = names(policy::checkpoint_policies());
  const auto sizes = names(policy::size_choosers());
  std::size_t k = 0;
  for (const std::string& s : names(policy::strategies()))
    for (const std::string& q : names(policy::queue_policies()))
      for (const std::string& a : names(policy::allocators())) {
        out.push_back(
            {q, a, s, rules[k % rules.size()], ckpts[k % ckpts.size()], sizes[k % sizes.size()]});
        ++k;
      }
  return out;
}

}  // namespace

TEST_CASE("records: metrics recomputed from the tables equal the replica's metrics",
          "[records][property]") {
  const models::ClusterModel model;
  int seed = 0;
  int with_failures_hit = 0, with_moves = 0, ran = 0;
  for (const Combo& c : combos()) {
    ++seed;
    const Params p = point(c, seed);
    INFO(c.queue << " " << c.allocator << " " << c.strategy << " " << c.on_failure << " "
                 << c.checkpoint << " " << c.moldable_size << " seed " << seed);
    try {
      model.validate(p, ".");
    } catch (const InputError&) {
      continue;  // a combination the model does not offer
    }
    ++ran;
    RunContext ctx;
    ctx.master_seed = 1000 + static_cast<std::uint64_t>(seed);
    std::vector<double> plain(model.metrics().size()), out(plain.size());
    model.run(p, ctx, plain);
    std::vector<unsigned char> blob;
    ctx.record = sim::kRecordAll;
    ctx.records_out = &blob;
    model.run(p, ctx, out);
    // Recording changes nothing, bit for bit.
    REQUIRE(std::memcmp(plain.data(), out.data(), out.size() * sizeof(double)) == 0);
    const sim::RecordTables t = sim::decode_records(blob, "test");
    for (const auto& [name, value] : recompute(t)) {
      INFO(name);
      CHECK(value == Approx(metric(out, name)).epsilon(1e-12).margin(1e-12));
    }
    check_nodes(t);
    with_failures_hit += metric(out, "job_failures") > 0;
    with_moves += metric(out, "migrations") > 0;
  }
  CHECK(ran > 100);
  CHECK(with_failures_hit > 50);  // not vacuous
  CHECK(with_moves > 0);
}

TEST_CASE("records: the encoded tables read back equal, damaged bytes are refused", "[records]") {
  sim::RecordTables t;
  t.what = sim::kRecordAll;
  t.nodes = 4;
  t.end_s = 10;
  t.jobs.push_back(sim::JobRow{});
  t.jobs.back().id = 77;
  t.failures.push_back(sim::FailureRow{1.5, 2.5, 3, -1, 1});
  const auto b = sim::encode_records(t);
  const sim::RecordTables back = sim::decode_records(b, "x");
  CHECK(back.jobs.size() == 1);
  CHECK(back.jobs[0].id == 77);
  CHECK(back.failures[0].repair_s == 2.5);
  CHECK(back.end_s == 10);
  std::vector<unsigned char> cut(b.begin(), b.end() - 3);
  CHECK_THROWS_AS(sim::decode_records(cut, "x"), IoError);
  std::vector<unsigned char> bad = b;
  bad[0] = 'X';
  CHECK_THROWS_AS(sim::decode_records(bad, "x"), IoError);
}
