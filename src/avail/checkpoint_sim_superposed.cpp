// The superposition sampler of the checkpointing system (avail/checkpoint_sim.hpp): with
// exponential failures (rate lambda per functional processor) and repairs (rate mu per failed
// one), the processors are exchangeable and memoryless, so the state that matters is how many are
// functional, f. The next event comes after an exponential time of rate f lambda + (N - f) mu;
// it is a failure with probability f lambda / rate, and a failure hits one of the f functional
// processors uniformly, an active one with probability a / f (Recovery and Up hold a active
// processors; Down holds none). One uniform u on [0, 1) decides both: a failure if
// u < f lambda / rate, of an active one if u < a lambda / rate. No processor is tracked by name, so
// an event costs one exponential draw, one uniform and a few operations, whatever N is.
#include <cmath>
#include <cstdint>
#include <vector>

#include "checkpoint_app.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"

namespace faultsweep::avail::detail {

namespace {

// Draws are made this many at a time in a loop of draws alone, where consecutive logs overlap;
// each stream is still consumed in order, one value of each per event.
constexpr unsigned kBatch = 64;

}  // namespace

SimResult simulate_superposed(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  FS_CHECK(
      cfg.failure.kind() == dist::Kind::exponential && cfg.repair.kind() == dist::Kind::exponential,
      "the superposition sampler needs exponential failures and repairs");
  const int N = cfg.N, a = cfg.a;
  const double horizon = cfg.horizon_s;
  const double lambda = 1.0 / cfg.failure.mean(), mu = 1.0 / cfg.repair.mean();
  // By functional count f: the time scale of the next event (1 / rate, rate = f lambda +
  // (N - f) mu), the probability that it is a failure (f lambda / rate) and that it is a failure
  // of an active processor (a lambda / rate while a processors are active; 0 in Down).
  const std::size_t n_states = static_cast<std::size_t>(N) + 1;
  std::vector<double> scale(n_states), p_fail(n_states), p_active(n_states), p_none(n_states, 0.0);
  for (int f = 0; f <= N; ++f) {
    const auto k = static_cast<std::size_t>(f);
    const double rate = f * lambda + (N - f) * mu;
    scale[k] = 1.0 / rate;
    p_fail[k] = f * lambda / rate;
    p_active[k] = f >= a ? a * lambda / rate : 0.0;
  }

  // Every processor starts functional; the application starts a recovery at time 0.
  App app{cfg.I_s, cfg.I_s - cfg.C_s, cfg.R_s + cfg.I_s + cfg.L_s, a};
  app.start_recovery(0);
  double due = app.recovery_due();
  int down_exit = app.down_exit();
  const auto active_table = [&] {
    return app.phase == Phase::down ? p_none.data() : p_active.data();
  };
  const double* hits_active = active_table();
  int f = N;
  std::uint64_t events = 0, n_failures = 0;
  double t = 0;
  double gap[kBatch], pick[kBatch];  // Exp(1) and U(0, 1) draws
  unsigned pos = kBatch;
  // The kind of each event is random, so it is taken by arithmetic, not by a branch that would
  // be mispredicted half the time; only the events that touch the application branch. The chain
  // from one event to the next is a load, a compare and an add on f.
  for (;;) {
    if (pos == kBatch) [[unlikely]] {
      for (double& g : gap) g = -std::log(uniform01(failures));
      for (double& p : pick) p = uniform01(repairs);
      pos = 0;
    }
    const auto k = static_cast<std::size_t>(f);
    t += gap[pos] * scale[k];
    const double u = pick[pos];
    ++pos;
    if (t > horizon || t >= due) [[unlikely]] {
      if (t > horizon) break;
      // A recovery that reached rho before this event succeeded (at exactly rho: before it).
      app.recovery_succeeds();  // Recovery -> Up: the same a processors stay active
      due = kNever;
    }
    const int fails = u < p_fail[k];
    ++events;
    n_failures += static_cast<std::uint64_t>(fails);
    f += 1 - 2 * fails;
    const bool active_hit = u < hits_active[k];
    if (active_hit || f == down_exit) [[unlikely]] {
      if (active_hit)
        app.active_fails(t, f >= a);
      else
        app.down_ends(t);
      due = app.recovery_due();
      down_exit = app.down_exit();
      hits_active = active_table();
    }
  }
  app.finish(horizon);
  return result_of(app, horizon, events, n_failures, N - f);
}

}  // namespace faultsweep::avail::detail
