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
using faultsweep::avail::SimConfig;
using faultsweep::avail::simulate_checkpointing;
using faultsweep::dist::Dist;

namespace {

struct Pinned {
  int N, a;
  Dist failure, repair;
  double I, C, L, R, horizon_days;
  // Expected:
  std::uint64_t events, active_failures, checkpoints, recoveries;
  double useful_s, down_s;
};

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
    cfg.horizon_s = c.horizon_days * kDay_s;
    Engine f = make_stream(20011115, 0, Purpose::failures, "pin");
    Engine r = make_stream(20011115, 0, Purpose::repairs, "pin");
    const auto x = simulate_checkpointing(cfg, f, r);
    INFO("N = " << c.N << ", a = " << c.a);
    CHECK(x.events == c.events);
    CHECK(x.active_failures == c.active_failures);
    CHECK(x.checkpoints == c.checkpoints);
    CHECK(x.recoveries == c.recoveries);
    CHECK(x.useful_s == c.useful_s);
    CHECK(x.down_s == c.down_s);
  }
}
