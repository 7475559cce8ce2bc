// The example plug-in strategy (src/policy/plugins/preventive_migration.cpp), reached only
// through its registry row: what it moves, the metric it reports, and the errors its row's
// traits give.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/registry.hpp"
#include "input_support.hpp"
#include "sim_support.hpp"

using namespace faultsweep;

namespace {

class Collect final : public MetricSink {
 public:
  void add(std::string_view name, double value) override { values[std::string(name)] = value; }
  std::map<std::string, double> values;
};

Params preventive_point(bool with_failures = true) {
  Params p;
  p.set("nodes", std::int64_t{64});
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{400});
  p.set("workload.mean_interarrival", 600.0);
  p.set("workload.mean_runtime", 3 * 3600.0);
  p.set("workload.mean_size", 8.0);
  p.set("failures.process", std::string(with_failures ? "zhang" : "none"));
  if (with_failures) {
    p.set("failures.shape", 0.85);
    p.set("failures.scale", 3600.0);
    p.set("failures.W", std::int64_t{2});
    p.set("failures.alpha", 0.99);  // spatially concentrated: a few nodes fail again and again
    p.set("failures.downtime", 120.0);
  }
  p.set("strategy", std::string("preventive_migrate"));
  p.set("preventive.interval", 600.0);
  p.set("preventive.window", 3600.0);
  return p;
}

}  // namespace

TEST_CASE("preventive_migrate: a process on a node that failed twice in the hour moves",
          "[strategy][plugin]") {
  // 4 nodes. Node 0 fails at 10 and 30 (down 5 s each) before job 0 (2 nodes, 10,000 s)
  // arrives at 100 and gets nodes 0-1 (first fit). At the first look, t = 600, node 0 has 2
  // failures in the last hour (> max_failures = 1): its process moves to node 2 (no failures),
  // at 300 s; the job ends at 100 + 10,000 + 300.
  Params point;
  point.set("nodes", std::int64_t{4});
  point.set("preventive.interval", 600.0);
  const auto strategy =
      policy::find_choice(policy::strategies(), "strategy", "preventive_migrate").make(point);
  testing::ListFailures source{std::vector<failures::FailureEvent>{{10, 0, 5}, {30, 0, 5}}};
  policy::Fcfs fcfs;
  policy::FirstFit ff;
  sim::SimConfig cfg;
  cfg.nodes = 4;
  const std::vector<workload::Job> jobs{testing::job(0, 100, 10000, 2)};
  sim::Simulation s(cfg, jobs, source, fcfs, ff, nullptr, strategy.get());
  const sim::Metrics m = s.run();
  CHECK(s.jobs()[0].moves == 1);
  CHECK(s.jobs()[0].finish_s == 100 + 10000 + 300);
  CHECK(m.migrations == 1);
  Collect c;
  strategy->report(c);
  CHECK(c.values == std::map<std::string, double>{{"preventive_moves", 1.0}});
}

TEST_CASE("preventive_migrate through the cluster model: its metric, 0 under other strategies",
          "[strategy][plugin]") {
  const models::ClusterModel model;
  std::map<std::string, double> by_strategy;
  for (const char* strategy : {"preventive_migrate", "none"}) {
    Params p = preventive_point();
    p.set("strategy", std::string(strategy));
    p = model.with_defaults(std::move(p));
    model.validate(p, ".");
    models::RunContext ctx;
    ctx.master_seed = 11;
    std::vector<double> out(model.metrics().size());
    model.run(p, ctx, out);
    std::map<std::string, double> named;
    for (std::size_t i = 0; i < out.size(); ++i) named[model.metrics()[i].name] = out[i];
    by_strategy[strategy] = named.at("preventive_moves");
    if (std::string(strategy) == "preventive_migrate") {
      // Every process it moved is a migration the engine applied (no other strategy runs).
      CHECK(named.at("preventive_moves") > 0);
      CHECK(named.at("preventive_moves") == named.at("migrations"));
    }
  }
  CHECK(by_strategy.at("none") == 0);
}

TEST_CASE("preventive_migrate: its row's traits and table give the errors", "[strategy][plugin]") {
  const models::ClusterModel model;
  const auto key_of = [&](Params p) {
    return testing::thrown_key([&] { model.validate(model.with_defaults(std::move(p)), "."); });
  };
  CHECK(key_of(preventive_point()).empty());
  Params unknown = preventive_point();
  unknown.set("preventive.windw", 60.0);
  CHECK(key_of(unknown) == "preventive.windw");
  Params negative = preventive_point();
  negative.set("preventive.interval", -5.0);
  CHECK(key_of(negative) == "preventive.interval");
  CHECK(key_of(preventive_point(false)) == "failures.process");
}
