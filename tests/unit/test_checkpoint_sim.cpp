// Tests of the checkpointing-system Monte Carlo (avail/checkpoint_sim) and its model.
//
// Layers: (a) constant laws, where every event time is known and the availability is computed by
// hand; (b) exponential laws against the Markov chain M, with a fixed seed, 20 replicas and a
// 4-standard-error tolerance, at points chosen so that the plausible semantic mistakes (crediting
// I instead of I - C, spares that never fail, recovery without rho, ...) move the result by far
// more than the tolerance; (c) determinism and common random numbers; (d) non-exponential laws.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "checkpoint_sim_support.hpp"
#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/models/checkpoint_sim_model.hpp"
#include "input_support.hpp"

using faultsweep::Engine;
using faultsweep::InputError;
using faultsweep::kDay_s;
using faultsweep::kHour_s;
using faultsweep::kMinute_s;
using faultsweep::Params;
using faultsweep::Purpose;
using faultsweep::Value;
using faultsweep::avail::SimConfig;
using faultsweep::avail::SimResult;
using faultsweep::avail::simulate_checkpointing;
using faultsweep::dist::Dist;

namespace {

SimResult run(const SimConfig& cfg, std::uint64_t replica = 0) {
  return faultsweep::testing::run_checkpointing(cfg, replica);
}

// One processor that works 10 h and is repaired in 1 h, forever; I = 2 h, C = 15 min,
// L = R = 30 min, so rho = R + I + L = 3 h.
SimConfig hand_config(int N, double horizon_h) {
  SimConfig c;
  c.N = N;
  c.a = 1;
  c.I_s = 2 * kHour_s;
  c.C_s = 0.25 * kHour_s;
  c.L_s = c.R_s = 0.5 * kHour_s;
  c.failure = Dist::constant(10 * kHour_s);
  c.repair = Dist::constant(1 * kHour_s);
  c.horizon_s = horizon_h * kHour_s;
  return c;
}

}  // namespace

TEST_CASE("checkpoint_sim: constant laws give the hand-computed availability", "[checkpoint_sim]") {
  // N = 1, a = 1. The processor is functional on [11k, 11k + 10) h and under repair on
  // [11k + 10, 11k + 11) h. Each 11 h cycle:
  //   recovery  [0, 3) h: no failure within rho = 3 h, commits I = 2 h (R + L = 1 h lost);
  //   up        [3, 10) h: fails at T = 7 h after Up began, floor(7 / 2) = 3 intervals commit
  //             3 (I - C) = 3 * 1.75 = 5.25 h (the last 1 h of work is lost);
  //   down      [10, 11) h: no spare, wait for the repair; then the next recovery at 11 h.
  // Useful 7.25 h per 11 h: over 100 cycles (1100 h) A = 725 / 1100. All times are integers of
  // seconds, so the result is exact.
  SECTION("a whole number of cycles") {
    const SimResult r = run(hand_config(1, 1100));
    CHECK(std::abs(r.availability() - 725.0 / 1100.0) <= 1e-12);
    CHECK(r.useful_s == 725 * kHour_s);
    CHECK(r.down_s == 100 * kHour_s);
    CHECK(r.up_s == 700 * kHour_s);
    CHECK(r.recovery_s == 300 * kHour_s);
    CHECK(r.active_failures == 100);
    CHECK(r.recoveries == 100);
    CHECK(r.checkpoints == 400);  // 1 after each recovery + 3 in each Up phase
    CHECK(r.events == 200);       // the repair at exactly the horizon (1100 h) is counted
  }
  SECTION("the horizon cuts a recovery short: it commits nothing") {
    // The 101st recovery starts at 1100 h and would end at 1103 h.
    const SimResult r = run(hand_config(1, 1102));
    CHECK(std::abs(r.availability() - 725.0 / 1102.0) <= 1e-12);
    CHECK(r.checkpoints == 400);
  }
  SECTION("the horizon cuts an Up phase: completed intervals count") {
    // Recovery 1100-1103 h commits 2 h; Up 1103-1106.5 h completes floor(3.5 / 2) = 1 interval.
    const SimResult r = run(hand_config(1, 1106.5));
    CHECK(std::abs(r.availability() - (725.0 + 2.0 + 1.75) / 1106.5) <= 1e-12);
    CHECK(r.checkpoints == 402);
    CHECK(r.down_s == 100 * kHour_s);
  }
  SECTION("a spare that fails at the same instant: ties in processor order") {
    // N = 2, a = 1: both processors fail at 10 h. Processor 0 (active) fails first; the spare
    // (processor 1) replaces it and a recovery starts, then processor 1 fails at the same
    // instant: no spare left, Down until processor 0 is repaired at 11 h. Same useful work as
    // N = 1, twice the events and active failures.
    const SimResult r = run(hand_config(2, 1100));
    CHECK(std::abs(r.availability() - 725.0 / 1100.0) <= 1e-12);
    CHECK(r.active_failures == 200);
    CHECK(r.events == 400);
    CHECK(r.down_s == 100 * kHour_s);
  }
  SECTION("a failure at exactly the end of an interval comes after its checkpoint") {
    // I = 3 h: rho = 4 h, Up lasts 10 - 4 = 6 h = exactly 2 intervals, and both commit
    // I - C = 2.75 h: 3 + 2 * 2.75 = 8.5 h per cycle.
    SimConfig c = hand_config(1, 1100);
    c.I_s = 3 * kHour_s;
    const SimResult r = run(c);
    CHECK(std::abs(r.availability() - 850.0 / 1100.0) <= 1e-12);
    CHECK(r.checkpoints == 300);
  }
}

namespace {

// Points where the simulation must agree with the chain M (Plank & Thomason Tables 2-3 for the
// environments; C, L, R from Eq. 7 for the application named).
struct ChainPoint {
  const char* name;
  int a;
  double I_s, C_s, L_s, R_s;
  double mttf_s, mttr_s;
  double horizon_days;  // per replica
};

faultsweep::avail::ChainResult chain_of(const ChainPoint& p) {
  faultsweep::avail::ChainParams c;
  c.N = 32;
  c.a = p.a;
  c.I_s = p.I_s;
  c.C_s = p.C_s;
  c.L_s = p.L_s;
  c.R_s = p.R_s;
  c.lambda_per_s = 1.0 / p.mttf_s;
  c.theta_per_s = 1.0 / p.mttr_s;
  return faultsweep::avail::evaluate_chain(c);
}

struct Estimate {
  double mean = 0, se = 0, down_mean = 0, down_se = 0;
};

Estimate simulate_replicas(const ChainPoint& p, int replicas, faultsweep::avail::Sampler sampler,
                           faultsweep::avail::ExpDraws draws) {
  SimConfig c;
  c.sampler = sampler;
  c.exp_draws = draws;
  c.N = 32;
  c.a = p.a;
  c.I_s = p.I_s;
  c.C_s = p.C_s;
  c.L_s = p.L_s;
  c.R_s = p.R_s;
  c.failure = Dist::exponential(p.mttf_s);
  c.repair = Dist::exponential(p.mttr_s);
  c.horizon_s = p.horizon_days * kDay_s;
  double s = 0, ss = 0, d = 0, dd = 0;
  for (int k = 0; k < replicas; ++k) {
    const SimResult r = run(c, static_cast<std::uint64_t>(k));
    const double A = r.availability(), D = r.down_s / r.total_s;
    s += A, ss += A * A, d += D, dd += D * D;
  }
  const double n = replicas;
  Estimate e;
  e.mean = s / n;
  e.se = std::sqrt(std::max(0.0, (ss - s * s / n) / (n - 1)) / n);
  e.down_mean = d / n;
  e.down_se = std::sqrt(std::max(0.0, (dd - d * d / n) / (n - 1)) / n);
  return e;
}

}  // namespace

TEST_CASE("checkpoint_sim: exponential laws agree with the chain M within 4 standard errors",
          "[checkpoint_sim]") {
  // HIGH: MTTF 32.7 d, MTTR 1.30 d; MEDIUM: 13.0 d, 2.02 d; LOW: 70 min, 75 min (Table 3).
  // Horizons give 1-2.5 million events per replica; 20 replicas per point and sampler (per
  // processor, superposition with the ziggurat's draws and by inversion: avail/checkpoint_sim.hpp);
  // ~12 s in all.
  //  - HIGH BT a = 28 (C = L = R = 92.6 s, I = 1.82 h, the paper's optimum): 4 spares, often
  //    needed. HIGH BT a = 32: no spares, every active failure leads to Down (A ~ 0.27).
  //  - MEDIUM EP a = 16: spares plentiful, failed actives are replaced at once.
  //  - LOW LU a = 1 (C = 576 s, L = R = 2879 s, I = 0.8 h): rho = 1.8 h against an MTTF of
  //    1.2 h, so A (~0.16) is set almost entirely by the recovery rule.
  //  - LOW EP a = 9 (C = 15.3 s, L = R = 76.5 s, I = 130 s, Table 4's optimum): C / I = 12 %.
  // Power, measured by running the simulator with each mistake in turn (shift of the 20-replica
  // mean from the chain, in SE; every mistake is caught by several points):
  //   Up credits I instead of I - C               +17 (HIGH a=32) .. +1291 SE
  //   completed intervals rounded, not floored    +45 .. +3219 SE
  //   recovery succeeds after R instead of rho    +100 .. +9594 SE
  //   recovery credits I - C instead of I         -27 (HIGH a=28), -30, -62, -178 SE
  //   spares never fail                           +48 (LOW a=9), +112, +1019 SE (none at a=1:
  //                                               31 spares never all fail)
  //   Down ends at the first repair, not at a     +53 (HIGH a=28), +83, +2574 SE
  //   superposition: an active processor hit      fails at 4 of the 5 points (all but HIGH
  //   with probability a / N instead of a / f     a=32, which has no spare: every failure hits)
  const std::vector<ChainPoint> points{
      {"HIGH BT a=28", 28, 6552, 92.6, 92.6, 92.6, 32.7 * kDay_s, 1.30 * kDay_s, 600000},
      {"HIGH BT a=32", 32, 6552, 93.7, 93.7, 93.7, 32.7 * kDay_s, 1.30 * kDay_s, 600000},
      {"MEDIUM EP a=16", 16, 1500, 13.3, 226.7, 226.7, 13.0 * kDay_s, 2.02 * kDay_s, 300000},
      {"LOW LU a=1", 1, 2880, 575.8, 2879, 2879, 70 * kMinute_s, 75 * kMinute_s, 4000},
      {"LOW EP a=9", 9, 130, 15.3, 76.5, 76.5, 70 * kMinute_s, 75 * kMinute_s, 2500},
  };
  using faultsweep::avail::ExpDraws;
  using faultsweep::avail::Sampler;
  struct Way {
    Sampler sampler;
    ExpDraws draws;
    const char* name;
  };
  for (const ChainPoint& p : points)
    for (const Way way :
         {Way{Sampler::per_processor, ExpDraws::inversion, "per processor, "},
          Way{Sampler::superposition, ExpDraws::ziggurat, "superposition, "},
          Way{Sampler::superposition, ExpDraws::inversion, "superposition by inversion, "}}) {
      const auto chain = chain_of(p);
      const Estimate e = simulate_replicas(p, 20, way.sampler, way.draws);
      INFO(way.name << p.name << ": sim A = " << e.mean << " +- " << e.se
                    << " (SE), chain A = " << chain.availability << "; sim down = " << e.down_mean
                    << " +- " << e.down_se << ", chain down = " << chain.down_fraction);
      CHECK(std::abs(e.mean - chain.availability) <= 4 * e.se);
      CHECK(std::abs(e.down_mean - chain.down_fraction) <= 4 * e.down_se + 1e-6);
      // The check above means something only if the error bar is tight: 4 SE within 1 % of A.
      CHECK(e.se <= 0.0025 * chain.availability);
    }
}

TEST_CASE(
    "checkpoint_sim: same seed and replica give bit-identical results, histories are "
    "shared across application parameters",
    "[checkpoint_sim]") {
  const SimConfig c = faultsweep::testing::low_ep_config();
  const SimResult x = run(c, 3), y = run(c, 3), z = run(c, 4);
  CHECK(x.useful_s == y.useful_s);
  CHECK(x.down_s == y.down_s);
  CHECK(x.events == y.events);
  CHECK(x.active_failures == y.active_failures);
  CHECK(x.checkpoints == y.checkpoints);
  CHECK(x.useful_s != z.useful_s);

  // Common random numbers: the processor history does not depend on a, I, C, L or R.
  SimConfig c2 = c;
  c2.I_s = 400;
  c2.a = 20;
  c2.R_s = 10;
  const SimResult w = run(c2, 3);
  CHECK(w.events == x.events);
  CHECK(w.useful_s != x.useful_s);
}

TEST_CASE("checkpoint_sim: Weibull and lognormal failures run and give 0 < A < 1",
          "[checkpoint_sim]") {
  SimConfig c;
  c.N = 32;
  c.a = 16;
  c.I_s = 2000;
  c.C_s = 13.3;
  c.L_s = c.R_s = 226.7;
  c.repair = Dist::exponential(2.02 * kDay_s);
  c.horizon_s = 20000 * kDay_s;
  // Same mean time to failure (13 d) as MEDIUM, decreasing hazard (shape 0.7) or heavy tail.
  const double mttf_s = 13.0 * kDay_s;
  for (const Dist& f : {Dist::weibull(0.7, mttf_s / std::tgamma(1 + 1 / 0.7)),
                        Dist::lognormal(std::log(mttf_s) - 0.5 * 1.2 * 1.2, 1.2)}) {
    c.failure = f;
    const SimResult r = run(c);
    INFO(f.canonical_text() << ": A = " << r.availability());
    CHECK(r.availability() > 0);
    CHECK(r.availability() < 1);
    CHECK(r.events > 1000);
    CHECK(r.active_failures > 100);
  }
  // Weibull repairs and failures together, on LOW-like scales.
  c.failure = Dist::weibull(1.5, 70 * kMinute_s);
  c.repair = Dist::weibull(0.6, 75 * kMinute_s);
  c.a = 4;
  c.I_s = 200, c.C_s = 6.8, c.L_s = c.R_s = 34;
  c.horizon_s = 100 * kDay_s;
  const SimResult r = run(c);
  CHECK(r.availability() > 0);
  CHECK(r.availability() < 1);
}

TEST_CASE("checkpoint_sim: a configuration the model should have rejected is a bug",
          "[checkpoint_sim]") {
  SimConfig c = hand_config(1, 100);
  c.a = 2;  // a > N
  CHECK_THROWS_AS(run(c), faultsweep::InternalError);
  c = hand_config(1, 100);
  c.I_s = c.L_s / 2;  // I < L
  CHECK_THROWS_AS(run(c), faultsweep::InternalError);
}

// ---- The model: parameters, validation, streams ----

namespace {

Params model_params() {
  return faultsweep::testing::checkpoint_model_params();
}

std::vector<double> run_model(const Params& p, std::uint64_t replica) {
  return faultsweep::testing::run_checkpoint_model(p, replica);
}

std::size_t metric_index(const std::string& name) {
  const faultsweep::models::CheckpointSimModel m;
  for (std::size_t k = 0; k < m.metrics().size(); ++k)
    if (m.metrics()[k].name == name) return k;
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("checkpoint_sim model: metrics, chain beside the simulation, common random numbers",
          "[checkpoint_sim]") {
  const std::size_t A = metric_index("availability"), chain = metric_index("chain_availability"),
                    events = metric_index("events"), days = metric_index("simulated_days");
  const Params p = model_params();
  const auto x = run_model(p, 0);
  CHECK(x[A] > 0.4);
  CHECK(x[A] < 0.8);
  CHECK(std::abs(x[A] - x[chain]) < 0.05);  // one 20-day replica: a loose check only
  CHECK(x[days] == 20.0);
  CHECK(run_model(p, 0) == x);  // bit-identical

  // Points that differ only in I (or a, C, L, R) see the same processor history.
  Params q = p;
  q.set("I", 300.0);
  const auto y = run_model(q, 0);
  CHECK(y[events] == x[events]);
  CHECK(y[A] != x[A]);
  q.set("a", std::int64_t{20});
  CHECK(run_model(q, 0)[events] == x[events]);
  // A different replica or a different law is a different history.
  CHECK(run_model(p, 1)[events] != x[events]);

  // Non-exponential laws: the chain does not apply.
  Params w = p;
  w.set("failures.dist", std::string("weibull"));
  w.set("failures.shape", 0.7);
  w.set("failures.mean", 70 * kMinute_s);
  const auto z = run_model(w, 0);
  CHECK(std::isnan(z[chain]));
  CHECK(z[A] > 0);
  CHECK(z[A] < 1);
  CHECK(z[events] != x[events]);
}

TEST_CASE("checkpoint_sim model: bad input names the key", "[checkpoint_sim]") {
  const faultsweep::models::CheckpointSimModel m;
  auto key_of_error = [&](const Params& p) {
    return faultsweep::testing::thrown_key_expected([&] { m.validate(p, {}); });
  };
  Params p = model_params();
  p.set("a", std::int64_t{33});
  // The system resolver or the model rejects it, either way naming a and N.
  CHECK(key_of_error(p).rfind("a | ", 0) == 0);
  CHECK(key_of_error(p).find("N = 32") != std::string::npos);
  p = model_params();
  p.set("I", 60.0);
  CHECK(key_of_error(p) == "I | must be >= L = " + faultsweep::format_duration(76.5));
  p = model_params();
  p.set("C", 200.0);
  p.set("I", 150.0);
  CHECK(key_of_error(p).rfind("I | must be > C", 0) == 0);
  p = model_params();
  p.set("failures.dist", std::string("weibull"));
  p.set("failures.shape", -0.5);
  p.set("failures.mean", 100.0);
  CHECK(key_of_error(p).rfind("failures.shape | ", 0) == 0);
  p = model_params();
  p.set("repairs.dist", std::string("gamma"));
  CHECK(key_of_error(p).rfind("repairs.dist | ", 0) == 0);
}
