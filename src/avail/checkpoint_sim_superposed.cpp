// The superposition sampler of the checkpointing system (avail/checkpoint_sim.hpp): with
// exponential failures (rate lambda per functional processor) and repairs (rate mu per failed
// one), the processors are exchangeable and memoryless, so the state that matters is how many are
// functional, f. The next event comes after an exponential time of rate f lambda + (N - f) mu;
// it is a failure with probability f lambda / rate, and a failure hits one of the f functional
// processors uniformly, an active one with probability a / f (Recovery and Up hold a active
// processors; Down holds none). One uniform u on [0, 1) decides both: a failure if
// u < f lambda / rate, of an active one if u < a lambda / rate. No processor is tracked by name, so
// an event costs one exponential draw, one uniform and a few operations, whatever N is. The
// exponential draws come from the ziggurat or by inversion (SimConfig::exp_draws).
#include <cmath>
#include <cstdint>
#include <vector>

#include "checkpoint_app.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/core/ziggurat.hpp"

namespace faultsweep::avail::detail {

namespace {

// The events of one first pass (below).
constexpr unsigned kBlock = 256;

// v, hidden from the optimizer: a 0 or 1 from a comparison that enters arithmetic stays there
// (a compiler may turn the arithmetic into a branch, here mispredicted half the time).
inline int arithmetic(int v) {
  asm("" : "+r"(v));
  return v;
}

// An event's two draws, one from each stream: its gap (an Exp(1) time, scaled by the state's
// mean) and its pick u. next(failures, repairs, g, u, bits) makes them without a call where it
// can and is false where it cannot; next_rare then makes the same draws with the call. The
// event loop calls only next, so that its values stay in registers (a call in the loop made the
// compiler keep them in memory, every event then waiting on a store and a load). below(u, p)
// is -1 where u < p, else 0.

// Results version 4 (the default): gaps from the ziggurat, and the pick as 53 random bits
// compared with integer thresholds (a failure if bits < p 2^53, rounded down: within 2^-53 of p).
// The ziggurat's draws are cheap enough to be made where they are used, overlapping the event
// chain; 2.2 % need its out-of-line part.
struct ZigguratDraws {
  using Pick = std::uint64_t;
  const ExpZiggurat& exp1 = ziggurat();
  static const ExpZiggurat& ziggurat() {
    static const ExpZiggurat z;
    return z;
  }
  // bits: the failure stream's output, which next_rare finishes where next could not.
  bool next(Engine& f, Engine& r, double& g, Pick& u, std::uint64_t& bits) const {
    bits = f();
    if (!exp1.first(bits, g)) [[unlikely]]
      return false;
    u = r() >> 11;
    return true;
  }
  void next_rare(Engine& f, Engine& r, double& g, Pick& u, std::uint64_t bits) const {
    g = exp1.rest(f, bits);
    u = r() >> 11;
  }
  static Pick threshold(double p) { return static_cast<Pick>(p * 0x1.0p53); }
  // By arithmetic, which a compiler does not turn into a branch: both are below 2^53, so
  // u - p has the sign of the comparison.
  static std::int64_t below(Pick u, Pick p) { return static_cast<std::int64_t>(u - p) >> 63; }
};

// Results version 3: gaps by inversion, -ln U, and the pick as a double U compared with p. The
// draws are made kBatch at a time in a loop of draws alone, where consecutive logs overlap;
// each stream is still consumed in order, one value of each per event.
struct InversionDraws {
  using Pick = double;
  static constexpr unsigned kBatch = 64;
  double gap[kBatch];  // Exp(1) draws
  Pick pick[kBatch];   // uniform draws
  unsigned pos = kBatch;
  bool next(Engine&, Engine&, double& g, Pick& u, std::uint64_t&) {
    if (pos == kBatch) [[unlikely]]
      return false;
    g = gap[pos], u = pick[pos];
    ++pos;
    return true;
  }
  void next_rare(Engine& f, Engine& r, double& g, Pick& u, std::uint64_t) {
    for (double& x : gap) x = -std::log(uniform01(f));
    for (Pick& x : pick) x = uniform01(r);
    g = gap[0], u = pick[0];
    pos = 1;
  }
  static Pick threshold(double p) { return p; }
  static std::int64_t below(Pick u, Pick p) { return -arithmetic(u < p ? 1 : 0); }
};

// By functional count f: the time scale of the next event (1 / rate, rate = f lambda + (N - f)
// mu), the pick below which it is a failure (probability f lambda / rate) and below which a
// failure of an active processor (a lambda / rate while a processors are active); an event
// reads one entry of each, at f. The same rows serve Down: there f < a (Down begins when a
// failure leaves fewer than a functional and ends when a repair brings back a), and rows below
// a hit no active processor. So the events' course does not depend on the application's phase,
// and the application's side is left to a second pass over the events that may touch it.
template <class Pick>
struct Rows {
  std::vector<double> scale;
  std::vector<Pick> fails, hits_active;
};

// The events that may touch the application, kept by the first pass for the second: a failure
// of an active processor, or a count of exactly a functional (the end of Down, when the
// application is Down). `what` holds 2 f + 1 for the first, 2 f for the second, f the
// functional count after the event.
struct Kept {
  double when[kBlock];
  int what[kBlock];
  unsigned n = 0;
};

// Where the events stand: the time of the last, the functional count after it, how many.
struct Course {
  double t = 0;
  int f = 0;
  std::uint64_t events = 0;
};

// The first pass: up to kBlock events from `at` on, those that may touch the application kept;
// false once an event falls past the horizon (it is not counted). Its own function, with the
// engines and the course in locals, so that they stay in registers (in the larger function
// around it the compiler kept them in memory). The kind of each event is random, so it is taken
// by arithmetic, not by a branch that would be mispredicted half the time, and so is whether it
// is kept; the chain from one event to the next is a load, a subtraction, a shift and an add on
// f.
template <class Draws>
[[gnu::noinline]] bool first_pass(Draws& draws, Engine& failures_io, Engine& repairs_io,
                                  const Rows<typename Draws::Pick>& rows, int a, double horizon,
                                  Course& at, Kept& kept) {
  using Pick = typename Draws::Pick;
  Engine failures = failures_io, repairs = repairs_io;
  const double* const scale = rows.scale.data();
  const Pick* const fails = rows.fails.data();
  const Pick* const hits = rows.hits_active.data();
  double t = at.t;
  std::int64_t f = at.f;  // 64 bits: an index without a sign extension in the chain
  unsigned n = 0;
  const auto event = [&](double g, Pick u) {
    t += g * scale[f];
    if (t > horizon) [[unlikely]]
      return false;
    const auto hit = static_cast<int>(-Draws::below(u, hits[f]));
    f += 2 * Draws::below(u, fails[f]) + 1;  // a failure (-1) or a repair
    kept.when[n] = t;
    kept.what[n] = 2 * static_cast<int>(f) + hit;
    n += static_cast<unsigned>(hit | (f == a));
    return true;
  };
  unsigned i = 0;
  while (i < kBlock) {
    double g;
    Pick u;
    std::uint64_t bits = 0;
    for (; i < kBlock; ++i) {  // the draws that need no call, in a loop that holds none
      if (!draws.next(failures, repairs, g, u, bits)) break;
      if (!event(g, u)) break;
    }
    if (i == kBlock || t > horizon) break;
    draws.next_rare(failures, repairs, g, u, bits);
    if (!event(g, u)) break;
    ++i;
  }
  failures_io = failures, repairs_io = repairs;
  at.t = t, at.f = static_cast<int>(f), at.events += i;
  kept.n = n;
  return t <= horizon;
}

// The second pass: the kept events in order. A recovery that reached rho before an event
// succeeded before it (App::recovery_hit); one still running at the horizon is settled by
// App::finish. The common run, active failures while the application is not Down, is a loop
// without calls, so that the application's sums stay in registers. Inlined where it is used:
// compiled as a function of its own, GCC 12 at -O2 and above lost its writes to the sums
// across the call (its interprocedural mod/ref analysis; right with -fno-ipa-modref, and with
// Clang), which the end-of-run checks in result_of caught. The build turns that analysis off for
// GCC (CMakeLists.txt); the pass stays inlined so that a build with it on is right too.
[[gnu::always_inline]] inline void second_pass(const Kept& kept, App& app) {
  const int a = app.a;
  for (unsigned j = 0; j < kept.n;) {
    for (; j < kept.n && app.phase != Phase::down && (kept.what[j] & 1) != 0; ++j)
      app.recovery_hit(kept.when[j], kept.what[j] >> 1 >= a);
    if (j == kept.n) break;
    if (app.phase == Phase::down && kept.what[j] >> 1 == a)
      app.down_ends(kept.when[j]);  // a repair brought back a
    ++j;
  }
}

template <class Draws>
SimResult simulate(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  using Pick = typename Draws::Pick;
  Draws draws{};
  const int N = cfg.N, a = cfg.a;
  const double lambda = 1.0 / cfg.failure.mean(), mu = 1.0 / cfg.repair.mean();
  Rows<Pick> rows;
  for (int f = 0; f <= N; ++f) {
    const double rate = f * lambda + (N - f) * mu;
    rows.scale.push_back(1.0 / rate);
    rows.fails.push_back(Draws::threshold(f * lambda / rate));
    rows.hits_active.push_back(Draws::threshold(f >= a ? a * lambda / rate : 0.0));
  }
  // Every processor starts functional; the application starts a recovery at time 0.
  App app{cfg.I_s, cfg.I_s - cfg.C_s, cfg.R_s + cfg.I_s + cfg.L_s, a};
  app.start_recovery(0);
  Course at{0.0, N, 0};
  Kept kept;
  for (bool within = true; within;) {
    within = first_pass(draws, failures, repairs, rows, a, cfg.horizon_s, at, kept);
    second_pass(kept, app);
  }
  app.finish(cfg.horizon_s);
  // Each failure lowers f by one and each repair raises it: failures - repairs = N - f.
  const std::uint64_t n_failures = (at.events + static_cast<std::uint64_t>(N - at.f)) / 2;
  return result_of(app, cfg.horizon_s, at.events, n_failures, N - at.f);
}

}  // namespace

SimResult simulate_superposed(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  FS_CHECK(
      cfg.failure.kind() == dist::Kind::exponential && cfg.repair.kind() == dist::Kind::exponential,
      "the superposition sampler needs exponential failures and repairs");
  return cfg.exp_draws == ExpDraws::ziggurat ? simulate<ZigguratDraws>(cfg, failures, repairs)
                                             : simulate<InversionDraws>(cfg, failures, repairs);
}

}  // namespace faultsweep::avail::detail
