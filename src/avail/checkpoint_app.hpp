#pragma once
// The application side of Plank & Thomason's checkpointing system (§2, §3), shared by the two
// samplers of avail/checkpoint_sim.hpp: its phase (Recovery, Up, Down), the time in each and the
// useful work committed. The samplers decide which processor events hit the application; this
// only does the accounting.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::avail::detail {

inline constexpr double kNever = std::numeric_limits<double>::infinity();

enum class Phase { recovery, up, down };

// The application's phase and its accounting. It changes only at the application's events (a
// recovery succeeds, an active processor fails, a repair ends Down). The per-processor sampler
// calls them out of line, away from its per-event loop; the superposition sampler, where they
// can come every few events, calls recovery_hit, without branches, from a pass of its own.
struct App {
  double I, work_per_interval, rho;  // rho: a recovery succeeds after R + I + L (§2)
  int a;
  Phase phase = Phase::recovery;
  double phase_start = 0;   // start of the current recovery, up or down phase
  double recovery_end = 0;  // when the current recovery succeeds, if no active failure first
  double useful = 0, recovery_s = 0, up_s = 0, down_s = 0;
  std::uint64_t active_failures = 0, recoveries_ok = 0, up_intervals = 0;

  // The time from which the loop must call recovery_succeeds (never outside a recovery).
  double recovery_due() const { return phase == Phase::recovery ? recovery_end : kNever; }
  // The functional count at which a repair ends Down (-1: never, outside Down).
  int down_exit() const { return phase == Phase::down ? a : -1; }

  // A recovery that lasted rho without an active failure has succeeded (a failure at exactly
  // rho comes after the checkpoint): it commits I of useful work and the Up phase begins.
  [[gnu::noinline]] void recovery_succeeds() {
    useful += I;
    ++recoveries_ok;
    recovery_s += rho;
    phase = Phase::up;
    phase_start = recovery_end;
  }

  // Closes the Up phase at time t: Eq. 3 semantics, only completed intervals are useful.
  void close_up(double t) {
    const double n = std::floor((t - phase_start) / I);
    up_intervals += static_cast<std::uint64_t>(n);
    useful += n * work_per_interval;
    up_s += t - phase_start;
  }
  void start_recovery(double t) {
    phase = Phase::recovery;
    phase_start = t;
    recovery_end = t + rho;
  }

  // An active processor failed at t (the phase is Recovery or Up: Down has no active set). With
  // a functional spare left it replaces the failed one and the application recovers at once;
  // without, the application is Down until a processors are functional.
  [[gnu::noinline]] void active_fails(double t, bool spare_left) {
    ++active_failures;
    if (phase == Phase::up)
      close_up(t);
    else
      recovery_s += t - phase_start;
    if (spare_left) {
      start_recovery(t);
    } else {
      phase = Phase::down;
      phase_start = t;
    }
  }

  // An active processor failed at t, for a caller that leaves a recovery's success to the next
  // active failure (the phase is Recovery: the application is never left in Up): the same sums
  // as recovery_succeeds() where rho ended by t (t >= recovery_end), then active_fails(t,
  // spare_left). Only the order of the sums' terms matters, and no other term comes between the
  // two. Without branches on whether the recovery succeeded (where the application's events
  // are frequent, that is a coin toss): each sum gets its term, or +0.0 (x + 0.0 is x for every
  // sum here, none being -0.0).
  void recovery_hit(double t, bool spare_left) {
    const bool ok = t >= recovery_end;  // Up since recovery_end
    const double done = pick(ok, 1.0, 0.0);
    const double span = t - pick(ok, recovery_end, phase_start), n = std::floor(span / I);
    useful += I * done;                      // recovery_succeeds
    useful += n * work_per_interval * done;  // close_up: only completed intervals
    recovery_s += pick(ok, rho, span);       // the recovery, completed or cut short
    up_s += span * done;
    recoveries_ok += ok;
    up_intervals += static_cast<std::uint64_t>(n * done);
    ++active_failures;
    phase = spare_left ? Phase::recovery : Phase::down;  // start_recovery or Down
    phase_start = t;
    recovery_end = t + rho;
  }

  // x where c holds, else y, by a mask rather than a branch (a compiler turns a conditional
  // expression into a branch where it sees fit).
  static double pick(bool c, double x, double y) {
    const std::uint64_t m = 0 - static_cast<std::uint64_t>(c);
    return std::bit_cast<double>((std::bit_cast<std::uint64_t>(x) & m) |
                                 (std::bit_cast<std::uint64_t>(y) & ~m));
  }

  // A repair at t (in Down a failure only lowers the count) left exactly a functional
  // processors: they become the active set and recover (state [R:0]).
  [[gnu::noinline]] void down_ends(double t) {
    down_s += t - phase_start;
    start_recovery(t);
  }

  // Closes the phase in progress at the horizon: a recovery counts only if rho completed.
  void finish(double horizon) {
    if (phase == Phase::recovery && recovery_end <= horizon) recovery_succeeds();
    switch (phase) {
      case Phase::recovery:
        recovery_s += horizon - phase_start;
        break;
      case Phase::up:
        close_up(horizon);
        break;
      case Phase::down:
        down_s += horizon - phase_start;
        break;
    }
  }
};

// A configuration the model's validation should have rejected is a bug.
inline void check_config(const SimConfig& cfg) {
  FS_CHECK(cfg.N >= 1 && cfg.a >= 1 && cfg.a <= cfg.N,
           fmt::format("simulate_checkpointing: N = {}, a = {}", cfg.N, cfg.a));
  FS_CHECK(cfg.I_s > cfg.C_s && cfg.I_s >= cfg.L_s && cfg.C_s >= 0 && cfg.L_s >= 0 &&
               cfg.R_s >= 0 && cfg.horizon_s > 0 && std::isfinite(cfg.horizon_s),
           fmt::format("simulate_checkpointing: I = {}, C = {}, L = {}, R = {}, horizon = {}",
                       cfg.I_s, cfg.C_s, cfg.L_s, cfg.R_s, cfg.horizon_s));
}

// The result of a finished run (app.finish called), after the end-of-run invariants (DESIGN §5):
// time adds up, work never exceeds time, counts agree. The tolerance covers rounding in sums of
// up to ~1e9 terms; a logic error is off by at least a fraction of one phase, which is far
// larger. `failed` is the number of processors failed at the horizon.
inline SimResult result_of(const App& app, double horizon, std::uint64_t events,
                           std::uint64_t n_failures, int failed) {
  SimResult r;
  r.useful_s = app.useful;
  r.total_s = horizon;
  r.down_s = app.down_s;
  r.recovery_s = app.recovery_s;
  r.up_s = app.up_s;
  r.events = events;
  r.active_failures = app.active_failures;
  r.checkpoints = app.recoveries_ok + app.up_intervals;
  r.recoveries = app.recoveries_ok;

  const double useful = app.useful, down_s = app.down_s, recovery_s = app.recovery_s,
               up_s = app.up_s;
  const double tol = 1e-7 * horizon;
  FS_CHECK(useful >= 0 && useful <= horizon + tol,
           fmt::format("useful = {} s outside [0, horizon = {} s]", useful, horizon));
  FS_CHECK(down_s >= 0 && down_s <= horizon + tol,
           fmt::format("down = {} s outside [0, horizon = {} s]", down_s, horizon));
  FS_CHECK(std::abs(recovery_s + up_s + down_s - horizon) <= tol,
           fmt::format("recovery {} + up {} + down {} != horizon {}", recovery_s, up_s, down_s,
                       horizon));
  FS_CHECK(useful <= recovery_s + up_s + tol,
           fmt::format("useful = {} s exceeds recovery + up time", useful));
  FS_CHECK(
      std::abs(useful - (static_cast<double>(app.recoveries_ok) * app.I +
                         static_cast<double>(app.up_intervals) * app.work_per_interval)) <= tol,
      "useful work disagrees with the checkpoint counts");
  FS_CHECK(app.active_failures <= n_failures, "more active failures than failures");
  // Each processor alternates failure, repair, failure, ...: failures lead by one at most.
  const std::uint64_t n_repairs = events - n_failures;
  FS_CHECK(n_failures >= n_repairs && n_failures - n_repairs == static_cast<std::uint64_t>(failed),
           fmt::format("failures {} - repairs {} != failed processors {}", n_failures, n_repairs,
                       failed));
  return r;
}

// The superposition sampler (checkpoint_sim_superposed.cpp): both laws exponential.
SimResult simulate_superposed(const SimConfig& cfg, Engine& failures, Engine& repairs);

}  // namespace faultsweep::avail::detail
