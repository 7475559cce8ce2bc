// Zhang et al. §5.2 on the `cluster` model: every strategy sees the same jobs and failures in a
// replica (common random numbers), and bad §5.2 settings are errors naming their key.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"
#include "input_support.hpp"

using namespace faultsweep;

namespace {

Params model_point(const std::string& strategy, const std::string& allocator = "first_fit") {
  Params p;
  p.set("nodes", std::int64_t{64});
  p.set("workload.source", std::string("fars"));
  p.set("workload.jobs", std::int64_t{600});
  p.set("workload.mean_interarrival", 600.0);
  p.set("workload.mean_runtime", 3 * 3600.0);
  p.set("workload.mean_size", 8.0);
  p.set("failures.process", std::string("zhang"));
  p.set("failures.shape", 0.85);
  p.set("failures.scale", 7200.0);
  p.set("failures.W", std::int64_t{2});
  p.set("failures.alpha", 0.99);
  p.set("failures.downtime", 120.0);
  p.set("queue", std::string("easy"));
  p.set("allocator", allocator);
  if (strategy != "none") p.set("strategy", strategy);
  if (strategy.rfind("bucket", 0) == 0) {
    p.set("predictor.precision", 1.0);
    p.set("predictor.recall", 1.0);
  }
  return models::ClusterModel().with_defaults(std::move(p));
}

std::map<std::string, double> run_model(const Params& p, std::uint64_t replica) {
  const models::ClusterModel m;
  m.validate(p, ".");
  models::RunContext ctx;
  ctx.master_seed = 7;
  ctx.replica = replica;
  std::vector<double> out(m.metrics().size());
  m.run(p, ctx, out);
  std::map<std::string, double> named;
  for (std::size_t i = 0; i < out.size(); ++i) named[m.metrics()[i].name] = out[i];
  return named;
}

// The key named by the model's InputError for p ("" if p is valid).
std::string key_of_error(const Params& p) {
  return testing::thrown_key([&] { models::ClusterModel().validate(p, "."); });
}

}  // namespace

TEST_CASE(
    "zhang: every §5 strategy sees the same jobs and failures in a replica (common random "
    "numbers)",
    "[zhang][cluster][crn]") {
  // With a horizon inside the workload every run lasts to the horizon: the failure count is that
  // of the failure stream alone. Each strategy must change the schedule (not vacuous): the
  // checkpoint strategies take checkpoints, LFF migrates.
  for (std::uint64_t replica = 0; replica < 2; ++replica) {
    std::map<std::string, std::map<std::string, double>> runs;
    for (const auto& [s, a] :
         std::vector<std::pair<std::string, std::string>>{{"none", "first_fit"},
                                                          {"predict_exact", "first_fit"},
                                                          {"bucket_all", "first_fit"},
                                                          {"bucket_long", "first_fit"},
                                                          {"bucket_big", "first_fit"},
                                                          {"lff_migrate", "lff"}}) {
      Params p = model_point(s, a);
      p.set("horizon", 3 * 86400.0);
      runs[s] = run_model(p, replica);
    }
    for (const auto& [s, r] : runs) {
      INFO(s);
      CHECK(r.at("failures") == runs["none"].at("failures"));
      CHECK(r.at("jobs") == runs["none"].at("jobs"));
      CHECK(r.at("makespan_s") == runs["none"].at("makespan_s"));
    }
    CHECK(runs["none"].at("failures") > 20);
    CHECK(runs["none"].at("checkpoints") == 0);
    for (const char* s : {"predict_exact", "bucket_all", "bucket_long", "bucket_big"})
      CHECK(runs[s].at("checkpoints") > 0);
    CHECK(runs["lff_migrate"].at("migrations") > 0);
  }
}

TEST_CASE("zhang: bad §5.2 settings are errors naming the key", "[zhang][cluster][input]") {
  const auto with = [](const std::string& strategy, const std::string& key, Value v) {
    Params p = model_point(strategy);
    p.set(key, std::move(v));
    return key_of_error(p);
  };
  CHECK(key_of_error(model_point("bucket_all")).empty());
  CHECK(with("bucket_all", "zhang.buckets", std::int64_t{0}) == "zhang.buckets");
  CHECK(with("bucket_all", "zhang.buckets", std::int64_t{-3}) == "zhang.buckets");
  CHECK(with("bucket_all", "zhang.buckets", std::int64_t{7}) == "zhang.buckets");  // 86400 / 7
  CHECK(with("bucket_all", "zhang.buckets", 2.5) == "zhang.buckets");
  CHECK(with("bucket_all", "zhang.interval", 5000.0) == "zhang.interval");  // not dividing 4 h
  CHECK(with("bucket_all", "zhang.interval", 300.0) == "zhang.interval");   // = the cost
  CHECK(with("bucket_long", "zhang.long_run", -300.0) == "zhang.long_run");
  CHECK(with("bucket_big", "zhang.big_k", std::int64_t{0}) == "zhang.big_k");
  CHECK(with("lff_migrate", "zhang.lff_threshold", std::int64_t{-1}) == "zhang.lff_threshold");
  CHECK(with("lff_migrate", "zhang.migration_overhead", -1.0) == "zhang.migration_overhead");
  CHECK(with("lff_migrate", "zhang.bukets", std::int64_t{6}) == "zhang.bukets");
  CHECK(with("predict_exact", "checkpoint_cost", 0.0) == "checkpoint_cost");
  Params no_predictor;
  const Params full = model_point("bucket_all");
  for (const auto& [k, v] : full.values())
    if (k.rfind("predictor.", 0) != 0) no_predictor.set(k, v);
  CHECK(key_of_error(no_predictor) == "predictor");
  CHECK(with("lff_migrate", "allocator", std::string("least")) == "allocator");
}
