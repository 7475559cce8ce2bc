// The superposition sampler of the checkpointing-system Monte Carlo (avail/checkpoint_sim.hpp):
// determinism and common random numbers, its refusal of laws that are not exponential, and the
// model's choice between the samplers. Its agreement with the chain M is tested beside the
// per-processor sampler's in test_checkpoint_sim.cpp.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint_sim_support.hpp"
#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/models/checkpoint_sim_model.hpp"
#include "input_support.hpp"

using faultsweep::Engine;
using faultsweep::kDay_s;
using faultsweep::kMinute_s;
using faultsweep::Params;
using faultsweep::Purpose;
using faultsweep::avail::Sampler;
using faultsweep::avail::SimConfig;
using faultsweep::avail::SimResult;
using faultsweep::avail::simulate_checkpointing;
using faultsweep::dist::Dist;

namespace {

using faultsweep::testing::kCheckpointSeed;

SimResult run(const SimConfig& cfg, std::uint64_t replica) {
  return faultsweep::testing::run_checkpointing(cfg, replica);
}

SimConfig low_ep(Sampler sampler) {
  return faultsweep::testing::low_ep_config(sampler);
}

std::vector<double> run_model(const Params& p, std::uint64_t replica) {
  return faultsweep::testing::run_checkpoint_model(p, replica);
}

// The library run on the streams the model derives for replica `replica` (20 days, as
// checkpoint_model_params()).
SimResult run_as_model(SimConfig c, std::uint64_t replica) {
  c.horizon_s = 20 * kDay_s;
  faultsweep::models::RunContext ctx;
  ctx.master_seed = kCheckpointSeed;
  ctx.replica = replica;
  Engine f = ctx.stream(Purpose::failures, "N=32;" + c.failure.canonical_text());
  Engine r = ctx.stream(Purpose::repairs, "N=32;" + c.repair.canonical_text());
  return simulate_checkpointing(c, f, r);
}

}  // namespace

TEST_CASE("checkpoint_sim superposition: bit-identical per seed, one history across a, I, R",
          "[checkpoint_sim]") {
  const SimConfig c = low_ep(Sampler::superposition);
  const SimResult x = run(c, 3), y = run(c, 3), z = run(c, 4);
  CHECK(x.useful_s == y.useful_s);
  CHECK(x.down_s == y.down_s);
  CHECK(x.events == y.events);
  CHECK(x.active_failures == y.active_failures);
  CHECK(x.useful_s != z.useful_s);
  // ~2 events per processor per MTTF + MTTR: 32 x 50 d / 145 min x 2 ~ 31,800.
  CHECK(x.events > 30000);
  CHECK(x.events < 33600);

  SimConfig c2 = c;
  c2.I_s = 400;
  c2.a = 20;
  c2.R_s = 10;
  const SimResult w = run(c2, 3);
  CHECK(w.events == x.events);  // the same processor history
  CHECK(w.useful_s != x.useful_s);

  // Other draws than the per-processor sampler's, from the same streams.
  const SimResult q = run(low_ep(Sampler::per_processor), 3);
  CHECK(q.useful_s != x.useful_s);
}

TEST_CASE("checkpoint_sim superposition: laws that are not exponential are a bug here",
          "[checkpoint_sim]") {
  SimConfig c = low_ep(Sampler::superposition);
  c.failure = Dist::weibull(0.7, 70 * kMinute_s);
  CHECK_THROWS_AS(run(c, 0), faultsweep::InternalError);
  c = low_ep(Sampler::superposition);
  c.repair = Dist::constant(75 * kMinute_s);
  CHECK_THROWS_AS(run(c, 0), faultsweep::InternalError);
}

TEST_CASE(
    "checkpoint_sim model: sampler auto is superposition for exponential laws, else per "
    "processor, superposition refuses other laws",
    "[checkpoint_sim]") {
  const Params p = faultsweep::testing::checkpoint_model_params();
  Params sup = p, per = p;
  sup.set("sampler", std::string("superposition"));
  per.set("sampler", std::string("per_processor"));
  const auto automatic = run_model(p, 2);
  CHECK(automatic == run_model(sup, 2));
  CHECK(automatic != run_model(per, 2));

  // per_processor gives the draws of results version 1: the library's default sampler.
  const faultsweep::models::CheckpointSimModel m;
  CHECK(run_model(per, 2)[0] == run_as_model(low_ep(Sampler::per_processor), 2).availability());

  Params w = p;
  w.set("failures.dist", std::string("weibull"));
  w.set("failures.shape", 0.7);
  w.set("failures.mean", 70 * kMinute_s);
  Params w_per = w;
  w_per.set("sampler", std::string("per_processor"));
  const auto w_auto = run_model(w, 2), w_explicit = run_model(w_per, 2);
  CHECK(w_auto[0] == w_explicit[0]);  // availability
  CHECK(w_auto[5] == w_explicit[5]);  // events
  w.set("sampler", std::string("superposition"));
  const std::string err = faultsweep::testing::thrown_key_expected([&] { m.validate(w, {}); });
  CHECK(err.rfind("sampler | ", 0) == 0);
  CHECK(err.find("exponential") != std::string::npos);
}

TEST_CASE(
    "checkpoint_sim model: exp_draws auto is the ziggurat, inversion gives other draws, and "
    "the per-processor sampler takes neither",
    "[checkpoint_sim]") {
  const Params p = faultsweep::testing::checkpoint_model_params();
  Params zig = p, inv = p;
  zig.set("exp_draws", std::string("ziggurat"));
  inv.set("exp_draws", std::string("inversion"));
  const auto automatic = run_model(p, 2);
  CHECK(automatic == run_model(zig, 2));
  CHECK(automatic != run_model(inv, 2));

  // inversion is the library's superposition with ExpDraws::inversion, from the model's streams.
  SimConfig c = low_ep(Sampler::superposition);
  c.exp_draws = faultsweep::avail::ExpDraws::inversion;
  const SimResult by_inversion = run_as_model(c, 2);
  CHECK(run_model(inv, 2)[0] == by_inversion.availability());
  CHECK(run_model(inv, 2)[5] == static_cast<double>(by_inversion.events));

  Params per = zig;
  per.set("sampler", std::string("per_processor"));
  const faultsweep::models::CheckpointSimModel m;
  const std::string err = faultsweep::testing::thrown_key_expected([&] { m.validate(per, {}); });
  CHECK(err.rfind("exp_draws | ", 0) == 0);
  CHECK(err.find("per-processor") != std::string::npos);
}
