#include "faultsweep/avail/checkpoint_sim.hpp"

#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {

namespace {

// The pending event of every processor (its next failure or repair), organised as a winner
// (tournament) tree over P = bit_ceil(N) leaves: node k holds the earliest time below it and the
// index of that processor; the root is node 1, leaf i is node P + i. Each simulated event changes
// exactly one leaf, the current winner, and replaying its path to the root costs log2(P)
// compare-and-select steps whose loads do not depend on the comparisons: cheaper than a heap's
// sift-down, whose early exit mispredicts.
//
// Times are non-negative, so their IEEE-754 bit patterns order like the values and compare as
// integers, which compiles to branch-free selects. Ties go to the lower processor index, i.e. to
// the left subtree, so simultaneous events (possible with constant distributions) are processed
// in index order.
class EventTree {
 public:
  explicit EventTree(int n) : leaves_(std::bit_ceil(static_cast<unsigned>(n))) {
    key_.assign(2 * leaves_, std::bit_cast<std::uint64_t>(kNever));
    win_.assign(2 * leaves_, 0);
    for (unsigned i = 0; i < leaves_; ++i) win_[leaves_ + i] = i;
  }

  // Sets leaves one by one, then builds the tree bottom-up.
  void set_initial(unsigned i, double t) { key_[leaves_ + i] = to_key(t); }
  void build() {
    for (unsigned k = leaves_ - 1; k >= 1; --k) {
      const bool right = key_[2 * k + 1] < key_[2 * k];
      key_[k] = key_[2 * k + right];
      win_[k] = win_[2 * k + right];
    }
  }

  unsigned top() const { return win_[1]; }
  double top_time() const { return std::bit_cast<double>(key_[1]); }

  // New time for the current winner; replays its path to the root.
  void replace_top(double t) {
    unsigned w = win_[1];
    std::uint64_t kw = to_key(t);
    for (unsigned k = leaves_ + w; k > 1; k >>= 1) {
      key_[k] = kw;
      win_[k] = w;
      // Sibling s takes over if earlier; on a tie only if it is the left one (k odd).
      // Selection by masks: compilers turn `take ? a : b` back into a branch here.
      const unsigned s = k ^ 1u;
      const std::uint64_t ks = key_[s];
      const unsigned ws = win_[s];
      const std::uint64_t take = -static_cast<std::uint64_t>(ks < kw + (k & 1u));
      kw ^= (kw ^ ks) & take;
      w ^= (w ^ ws) & static_cast<unsigned>(take);
    }
    key_[1] = kw;
    win_[1] = w;
  }

 private:
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  static std::uint64_t to_key(double t) { return std::bit_cast<std::uint64_t>(t); }

  unsigned leaves_;
  std::vector<std::uint64_t> key_;  // [2P]: bit pattern of the earliest time below each node
  std::vector<unsigned> win_;       // [2P]: the processor it belongs to (padding: +inf)
};

// A fixed-size bit set over processors (one word for N <= 64).
class Bits {
 public:
  explicit Bits(int n) : words_((static_cast<std::size_t>(n) + 63) / 64, 0) {}
  unsigned test(unsigned i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set(unsigned i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void reset(unsigned i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  void flip(unsigned i) { words_[i >> 6] ^= std::uint64_t{1} << (i & 63); }
  void clear() {
    for (auto& w : words_) w = 0;
  }
  void assign(const Bits& o) { words_ = o.words_; }
  int count() const {
    int c = 0;
    for (auto w : words_) c += std::popcount(w);
    return c;
  }
  // Lowest index set in *this and clear in `other`, or -1.
  int first_and_not(const Bits& other) const {
    for (std::size_t k = 0; k < words_.size(); ++k) {
      const std::uint64_t w = words_[k] & ~other.words_[k];
      if (w != 0) return static_cast<int>(64 * k + std::countr_zero(w));
    }
    return -1;
  }

 private:
  std::vector<std::uint64_t> words_;
};

enum class Phase { recovery, up, down };

}  // namespace

SimResult simulate_checkpointing(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  FS_CHECK(cfg.N >= 1 && cfg.a >= 1 && cfg.a <= cfg.N,
           fmt::format("simulate_checkpointing: N = {}, a = {}", cfg.N, cfg.a));
  FS_CHECK(cfg.I_s > cfg.C_s && cfg.I_s >= cfg.L_s && cfg.C_s >= 0 && cfg.L_s >= 0 &&
               cfg.R_s >= 0 && cfg.horizon_s > 0 && std::isfinite(cfg.horizon_s),
           fmt::format("simulate_checkpointing: I = {}, C = {}, L = {}, R = {}, horizon = {}",
                       cfg.I_s, cfg.C_s, cfg.L_s, cfg.R_s, cfg.horizon_s));

  const int N = cfg.N, a = cfg.a;
  const double I = cfg.I_s, work_per_interval = cfg.I_s - cfg.C_s;
  const double rho = cfg.R_s + cfg.I_s + cfg.L_s;  // recovery succeeds after R + I + L (§2)
  const double horizon = cfg.horizon_s;
  const dist::Dist failure = cfg.failure, repair = cfg.repair;

  // Every processor starts functional and new; the application starts a recovery at time 0 on
  // processors 0..a-1 (the long-run availability does not depend on the start).
  EventTree tree(N);
  Bits functional(N), active(N);
  for (int i = 0; i < N; ++i) {
    tree.set_initial(static_cast<unsigned>(i), failure.sample(failures));
    functional.set(static_cast<unsigned>(i));
    if (i < a) active.set(static_cast<unsigned>(i));
  }
  tree.build();
  int n_functional = N;

  Phase phase = Phase::recovery;
  double phase_start = 0;     // start of the current recovery, up or down phase
  double recovery_end = rho;  // when the current recovery succeeds, if no active failure first
  double useful = 0;
  double recovery_s = 0, up_s = 0, down_s = 0;
  std::uint64_t events = 0, n_failures = 0, active_failures = 0;
  std::uint64_t recoveries_ok = 0, up_intervals = 0;

  // Closes the Up phase at time t: Eq. 3 semantics, only completed intervals are useful.
  auto close_up = [&](double t) {
    const double n = std::floor((t - phase_start) / I);
    up_intervals += static_cast<std::uint64_t>(n);
    useful += n * work_per_interval;
    up_s += t - phase_start;
  };
  auto start_recovery = [&](double t) {
    phase = Phase::recovery;
    phase_start = t;
    recovery_end = t + rho;
  };

  // What an event draws, indexed by "this event is a failure": a repair draws the next time to
  // failure, a failure draws its repair time. The next value of each stream is drawn one event
  // ahead, so that the draw (dominated by a log) runs in parallel with the tree replay instead of
  // on the critical path from one event to the next; each stream is still consumed in order, so
  // results are the same as drawing on demand.
  const dist::Dist* const draw_dist[2] = {&failure, &repair};
  Engine* const draw_engine[2] = {&failures, &repairs};
  double ahead[2] = {failure.sample(failures), repair.sample(repairs)};

  for (;;) {
    const double t = tree.top_time();
    if (t > horizon) break;
    const unsigned i = tree.top();
    ++events;

    // A recovery that lasted rho without an active failure has succeeded (a failure at exactly
    // rho comes after the checkpoint): it commits I of useful work and the Up phase begins.
    if (phase == Phase::recovery && t >= recovery_end) {
      useful += I;
      ++recoveries_ok;
      recovery_s += rho;
      phase = Phase::up;
      phase_start = recovery_end;
    }

    // Processor i fails (active or spare) or is repaired. Both kinds share one code path, selected
    // by data rather than by a branch: they arrive in random order, and a mispredicted branch per
    // event would cost as much as the draw.
    const unsigned fails = functional.test(i);  // 1: failure, 0: repair
    tree.replace_top(t + ahead[fails]);
    ahead[fails] = draw_dist[fails]->sample(*draw_engine[fails]);
    functional.flip(i);
    n_functional += 1 - 2 * static_cast<int>(fails);
    n_failures += fails;

    if (active.test(i)) [[unlikely]] {
      // An active processor failed (actives are functional, so this event is a failure; Down
      // clears the active set, so the phase is Recovery or Up).
      ++active_failures;
      active.reset(i);
      if (phase == Phase::up)
        close_up(t);
      else
        recovery_s += t - phase_start;
      if (n_functional >= a) {
        // The lowest-index functional spare replaces it and the application recovers at once.
        const int spare = functional.first_and_not(active);
        FS_CHECK(spare >= 0, "no functional spare although n_functional >= a");
        active.set(static_cast<unsigned>(spare));
        start_recovery(t);
      } else {
        phase = Phase::down;
        phase_start = t;
        active.clear();
      }
    } else if (phase == Phase::down && n_functional == a) [[unlikely]] {
      // A repair (in Down a failure only lowers the count) left exactly a functional processors:
      // they become the active set and recover (state [R:0]).
      down_s += t - phase_start;
      active.assign(functional);
      start_recovery(t);
    }
  }

  // Close the phase in progress at the horizon: a recovery counts only if rho completed.
  if (phase == Phase::recovery && recovery_end <= horizon) {
    useful += I;
    ++recoveries_ok;
    recovery_s += rho;
    phase = Phase::up;
    phase_start = recovery_end;
  }
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

  SimResult r;
  r.useful_s = useful;
  r.total_s = horizon;
  r.down_s = down_s;
  r.recovery_s = recovery_s;
  r.up_s = up_s;
  r.events = events;
  r.active_failures = active_failures;
  r.checkpoints = recoveries_ok + up_intervals;
  r.recoveries = recoveries_ok;

  // End-of-run invariants (DESIGN §5): time adds up, work never exceeds time, counts agree.
  // The tolerance covers rounding in sums of up to ~1e9 terms; a logic error is off by at least
  // a fraction of one phase, which is far larger.
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
  FS_CHECK(std::abs(useful - (static_cast<double>(recoveries_ok) * I +
                              static_cast<double>(up_intervals) * work_per_interval)) <= tol,
           "useful work disagrees with the checkpoint counts");
  FS_CHECK(active_failures <= n_failures, "more active failures than failures");
  // Each processor alternates failure, repair, failure, ...: failures lead by one at most.
  const std::uint64_t n_repairs = events - n_failures;
  FS_CHECK(n_failures >= n_repairs &&
               n_failures - n_repairs == static_cast<std::uint64_t>(N - n_functional),
           fmt::format("failures {} - repairs {} != failed processors {}", n_failures, n_repairs,
                       N - n_functional));
  FS_CHECK(functional.count() == n_functional, "functional count out of step with its bit set");
  FS_CHECK(phase == Phase::down || active.count() == a,
           fmt::format("{} active processors outside Down, expected a = {}", active.count(), a));
  return r;
}

}  // namespace faultsweep::avail
