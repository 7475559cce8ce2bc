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

// Draws by inversion are made this many at a time in a loop of draws alone, where consecutive
// logs overlap; each stream is still consumed in order, one value of each per event. The
// ziggurat's draws are cheap enough to be made where they are used, overlapping the event chain.
constexpr unsigned kBatch = 64;

// Results version 4 (the default): gaps from the ziggurat, and the pick as 53 random bits
// compared with integer thresholds (a failure if bits < p 2^53, rounded down: within 2^-53 of p).
struct ZigguratDraws {
  using Pick = std::uint64_t;
  static constexpr bool kBatched = false;
  const ExpZiggurat& exp1 = ziggurat();
  static const ExpZiggurat& ziggurat() {
    static const ExpZiggurat z;
    return z;
  }
  double gap(Engine& e) const { return exp1(e); }
  static Pick pick(Engine& e) { return e() >> 11; }
  static Pick threshold(double p) { return static_cast<Pick>(p * 0x1.0p53); }
};

// Results version 3: gaps by inversion, -ln U, and the pick as a double U compared with p.
struct InversionDraws {
  using Pick = double;
  static constexpr bool kBatched = true;
  static double gap(Engine& e) { return -std::log(uniform01(e)); }
  static Pick pick(Engine& e) { return uniform01(e); }
  static Pick threshold(double p) { return p; }
};

template <class Draws>
SimResult simulate(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  using Pick = typename Draws::Pick;
  const Draws draws{};
  const int N = cfg.N, a = cfg.a;
  const double horizon = cfg.horizon_s;
  const double lambda = 1.0 / cfg.failure.mean(), mu = 1.0 / cfg.repair.mean();
  // By functional count f: the time scale of the next event (1 / rate, rate = f lambda +
  // (N - f) mu), the pick below which it is a failure (probability f lambda / rate) and below
  // which a failure of an active processor (a lambda / rate while a processors are active; none
  // in Down). One row per f, so an event reads one row.
  struct Row {
    double scale;
    Pick fails, hits_active;
  };
  const std::size_t n_states = static_cast<std::size_t>(N) + 1;
  std::vector<Row> active_rows(n_states), down_rows(n_states);
  for (int f = 0; f <= N; ++f) {
    const auto k = static_cast<std::size_t>(f);
    const double rate = f * lambda + (N - f) * mu;
    const Pick fails = Draws::threshold(f * lambda / rate);
    active_rows[k] = {1.0 / rate, fails, Draws::threshold(f >= a ? a * lambda / rate : 0.0)};
    down_rows[k] = {1.0 / rate, fails, Draws::threshold(0.0)};
  }

  // Every processor starts functional; the application starts a recovery at time 0.
  App app{cfg.I_s, cfg.I_s - cfg.C_s, cfg.R_s + cfg.I_s + cfg.L_s, a};
  app.start_recovery(0);
  double due = app.recovery_due();
  int down_exit = app.down_exit();
  const auto rows_now = [&] {
    return app.phase == Phase::down ? down_rows.data() : active_rows.data();
  };
  const Row* rows = rows_now();
  int f = N;
  std::uint64_t events = 0, n_failures = 0;
  double t = 0;
  double gap[kBatch];  // Exp(1) draws
  Pick pick[kBatch];   // uniform draws
  unsigned pos = kBatch;
  // The kind of each event is random, so it is taken by arithmetic, not by a branch that would
  // be mispredicted half the time; only the events that touch the application branch. The chain
  // from one event to the next is a load, a compare and an add on f.
  for (;;) {
    double g;
    Pick u;
    if constexpr (Draws::kBatched) {
      if (pos == kBatch) [[unlikely]] {
        for (double& x : gap) x = draws.gap(failures);
        for (Pick& x : pick) x = Draws::pick(repairs);
        pos = 0;
      }
      g = gap[pos], u = pick[pos];
      ++pos;
    } else {
      g = draws.gap(failures), u = Draws::pick(repairs);
    }
    const Row& row = rows[static_cast<std::size_t>(f)];
    t += g * row.scale;
    if (t > horizon || t >= due) [[unlikely]] {
      if (t > horizon) break;
      // A recovery that reached rho before this event succeeded (at exactly rho: before it).
      app.recovery_succeeds();  // Recovery -> Up: the same a processors stay active
      due = kNever;
    }
    const int fails = u < row.fails;
    ++events;
    n_failures += static_cast<std::uint64_t>(fails);
    f += 1 - 2 * fails;
    const bool active_hit = u < row.hits_active;
    if (active_hit || f == down_exit) [[unlikely]] {
      if (active_hit)
        app.active_fails(t, f >= a);
      else
        app.down_ends(t);
      due = app.recovery_due();
      down_exit = app.down_exit();
      rows = rows_now();
    }
  }
  app.finish(horizon);
  return result_of(app, horizon, events, n_failures, N - f);
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
