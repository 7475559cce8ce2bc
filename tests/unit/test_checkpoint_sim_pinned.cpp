// Pinned results of the checkpointing-system Monte Carlo (avail/checkpoint_sim): exact event
// counts and bit-exact times for fixed streams. The simulator's event selection and draw handling
// may change for speed, never its results; these cases cover what such a change can get wrong:
// simultaneous events (constant laws: ties go to the lower processor index), N not a power of
// two, N = 1, bit sets of several words (N > 64), repairs that end Down, non-exponential laws
// (a lognormal draw consumes a variable number of uniforms), and pairs of laws of one kind or of
// different kinds.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"

using faultsweep::Engine;
using faultsweep::kDay_s;
using faultsweep::make_stream;
using faultsweep::Purpose;
using faultsweep::avail::ExpDraws;
using faultsweep::avail::Sampler;
using faultsweep::avail::SimConfig;
using faultsweep::avail::simulate_checkpointing;
using faultsweep::dist::Dist;

namespace {

struct Expected {
  std::uint64_t events, active_failures, checkpoints, recoveries;
  double useful_s, down_s;
};

struct Pinned {
  int N, a;
  Dist failure, repair;
  double I, C, L, R, horizon_days;
  Expected want;
};

// One run on the pinned streams, checked against what it must give.
faultsweep::avail::SimResult run_pinned(SimConfig cfg, double horizon_days, const Expected& want) {
  cfg.horizon_s = horizon_days * kDay_s;
  Engine f = make_stream(20011115, 0, Purpose::failures, "pin");
  Engine r = make_stream(20011115, 0, Purpose::repairs, "pin");
  const auto x = simulate_checkpointing(cfg, f, r);
  INFO("N = " << cfg.N << ", a = " << cfg.a);
  CHECK(x.events == want.events);
  CHECK(x.active_failures == want.active_failures);
  CHECK(x.checkpoints == want.checkpoints);
  CHECK(x.recoveries == want.recoveries);
  CHECK(x.useful_s == want.useful_s);
  CHECK(x.down_s == want.down_s);
  return x;
}

}  // namespace

TEST_CASE("checkpoint_sim: pinned results for fixed streams", "[checkpoint_sim]") {
  const double h = 3600, min = 60;
  const Pinned cases[] = {
      {5, 3, Dist::constant(70 * min), Dist::constant(75 * min), 300, 15, 60, 60, 20,  //
       1985, 597, 2587, 199, 0x1.6977p+19, 0x1.b3a5p+19},
      {7, 4, Dist::constant(h), Dist::constant(h), 300, 15, 60, 60, 20,  //
       3360, 960, 2640, 240, 0x1.7124p+19, 0x1.a5ep+19},
      {32, 9, Dist::weibull(0.7, 70 * min), Dist::lognormal(std::log(h), 1.2), 130, 15.3, 76.5,
       76.5, 30,  //
       12859, 3362, 14438, 2232, 0x1.9ca4c3333330fp+20, 0x1.539997cfa0246p+16},
      {100, 80, Dist::lognormal(std::log(3 * h), 1.2), Dist::weibull(1.5, h), 300, 15, 60, 60,
       30,  //
       20216, 9024, 3054, 1996, 0x1.b79d4p+19, 0x1.6f27dce8afc4ep+15},
      {200, 185, Dist::exponential(10 * h), Dist::exponential(h), 600, 15, 60, 60, 30,  //
       26222, 3320, 70, 70, 0x1.482p+15, 0x1.d9fced19fa91bp+20},
      {1, 1, Dist::exponential(h), Dist::exponential(h), 300, 15, 60, 60, 30,  //
       725, 363, 4138, 325, 0x1.211cdp+20, 0x1.324169ba2cb66p+20},
      // Both laws Weibull (a simulator may specialise a pair of laws of one kind), and a
      // continuous law beside a constant one.
      {32, 9, Dist::weibull(0.7, 70 * min), Dist::weibull(1.3, 75 * min), 130, 15.3, 76.5, 76.5,
       30,  //
       17451, 3511, 14882, 2288, 0x1.a9493cccccca4p+20, 0x1.0c79584553ap+10},
      {3, 2, Dist::exponential(h), Dist::constant(h), 300, 15, 60, 60, 30,  //
       2119, 695, 3890, 558, 0x1.10b5cp+20, 0x1.3139490ee69bdp+20},
  };
  for (const Pinned& c : cases) {
    SimConfig cfg;
    cfg.N = c.N;
    cfg.a = c.a;
    cfg.failure = c.failure;
    cfg.repair = c.repair;
    cfg.I_s = c.I, cfg.C_s = c.C, cfg.L_s = c.L, cfg.R_s = c.R;
    run_pinned(cfg, c.horizon_days, c.want);
  }
}

// The superposition sampler (exponential laws), pinned by the sampler as it drew each event and
// applied each application event in one loop: its faster forms must give the same bits. The
// cases: Plank & Thomason's optimum (a third of the events hit the application), a = N (Down
// from the first active failure on), N = 1 (Down after every failure), f close to a (Down ends
// often), a spare pool of 15 of 200, and both kinds of draws.
TEST_CASE("checkpoint_sim superposition: pinned results for fixed streams", "[checkpoint_sim]") {
  struct Case {
    int N, a;
    ExpDraws draws;
    double mttf, mttr, I, C, L, R, horizon_days;
    Expected want;
    double up_s;
  };
  const double min = 60;
  const Case cases[] = {
      {32, 9, ExpDraws::ziggurat, 70 * min, 75 * min, 130, 15.3, 76.5, 76.5, 30,  //
       18861, 5430, 12514, 3009, 0x1.69ab17fffffcdp+20, 0x1.7a5c86af3266cp+13,
       0x1.5a95094e1a935p+20},
      {32, 32, ExpDraws::ziggurat, 70 * min, 75 * min, 400, 54.4, 272, 272, 30,  //
       18861, 1, 0, 0, 0x0p+0, 0x1.3c643216c8dep+21, 0x0p+0},
      {32, 1, ExpDraws::inversion, 70 * min, 75 * min, 60, 1.7, 8.5, 8.5, 30,  //
       19131, 608, 42715, 596, 0x1.301d0d9999998p+21, 0x0p+0, 0x1.36bdda395747ap+21},
      {1, 1, ExpDraws::ziggurat, 60 * min, 60 * min, 300, 15, 60, 60, 30,  //
       726, 363, 4022, 327, 0x1.190c7p+20, 0x1.3b497139bb10ep+20, 0x1.1a5499fbec659p+20},
      {3, 2, ExpDraws::inversion, 60 * min, 30 * min, 300, 15, 60, 60, 30,  //
       2819, 1066, 5518, 851, 0x1.830f3p+20, 0x1.439a8e1a06c0ep+19, 0x1.74a365e92845dp+20},
      {8, 5, ExpDraws::ziggurat, 600 * min, 60 * min, 300, 15, 60, 60, 30,  //
       1050, 357, 8281, 339, 0x1.20b79p+21, 0x1.7f23d20c4ea4p+13, 0x1.290d7352fb05fp+21},
      {200, 185, ExpDraws::ziggurat, 600 * min, 60 * min, 600, 15, 60, 60, 30,  //
       25777, 3428, 80, 78, 0x1.76c4p+15, 0x1.d7cb8c59a4538p+20, 0x1.ab152fb3b40d1p+13},
  };
  for (const Case& c : cases) {
    SimConfig cfg;
    cfg.sampler = Sampler::superposition;
    cfg.exp_draws = c.draws;
    cfg.N = c.N;
    cfg.a = c.a;
    cfg.failure = Dist::exponential(c.mttf);
    cfg.repair = Dist::exponential(c.mttr);
    cfg.I_s = c.I, cfg.C_s = c.C, cfg.L_s = c.L, cfg.R_s = c.R;
    const auto x = run_pinned(cfg, c.horizon_days, c.want);
    CHECK(x.up_s == c.up_s);
  }
}
