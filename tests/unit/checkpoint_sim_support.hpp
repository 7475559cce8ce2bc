#pragma once
// What the checkpoint_sim tests share: one replica from fixed streams, and the model run on
// Plank & Thomason's LOW EP point (a = 9, I = 130 s, Table 4's optimum) for 20 days.
#include <cstdint>
#include <vector>

#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/models/checkpoint_sim_model.hpp"

namespace faultsweep::testing {

inline constexpr std::uint64_t kCheckpointSeed = 20011115;

// One replica of cfg from the streams of (seed, replica).
inline avail::SimResult run_checkpointing(const avail::SimConfig& cfg, std::uint64_t replica = 0) {
  Engine f = make_stream(kCheckpointSeed, replica, Purpose::failures, "test");
  Engine r = make_stream(kCheckpointSeed, replica, Purpose::repairs, "test");
  return avail::simulate_checkpointing(cfg, f, r);
}

// LOW EP a = 9, I = 130 s (Table 4's optimum) with exponential laws, 50 days.
inline avail::SimConfig low_ep_config(avail::Sampler sampler = avail::Sampler::per_processor) {
  avail::SimConfig c;
  c.sampler = sampler;
  c.N = 32;
  c.a = 9;
  c.I_s = 130;
  c.C_s = 15.3;
  c.L_s = c.R_s = 76.5;
  c.failure = dist::Dist::exponential(70 * kMinute_s);
  c.repair = dist::Dist::exponential(75 * kMinute_s);
  c.horizon_s = 50 * kDay_s;
  return c;
}

inline Params checkpoint_model_params() {
  Params p;
  p.set("N", std::int64_t{32});
  p.set("C", 15.3);
  p.set("L", 76.5);
  p.set("R", 76.5);
  p.set("mttf", 70 * kMinute_s);
  p.set("mttr", 75 * kMinute_s);
  p.set("a", std::int64_t{9});
  p.set("I", 130.0);
  p.set("horizon", 20 * kDay_s);
  return p;
}

// The model's metrics for point p, replica `replica` (validated first).
inline std::vector<double> run_checkpoint_model(const Params& p, std::uint64_t replica) {
  const models::CheckpointSimModel m;
  models::RunContext ctx;
  ctx.master_seed = kCheckpointSeed;
  ctx.replica = replica;
  m.validate(p, {});
  std::vector<double> out(m.metrics().size());
  m.run(p, ctx, out);
  return out;
}

}  // namespace faultsweep::testing
