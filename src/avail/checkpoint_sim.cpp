#include "faultsweep/avail/checkpoint_sim.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

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
//
// Each node's winner is tagged 2 i + f, f = 1 when processor i's pending event is a failure, so
// that the kind of the next event comes with the root instead of from a load that depends on it.
class EventTree {
 public:
  explicit EventTree(int n) : leaves_(std::bit_ceil(static_cast<unsigned>(n))) {
    key_.assign(2 * leaves_, std::bit_cast<std::uint64_t>(kNever));
    win_.assign(2 * leaves_, 0);
    for (unsigned i = 0; i < leaves_; ++i) win_[leaves_ + i] = 2 * i + 1;
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

  unsigned top_tag() const { return win_[1]; }
  double top_time() const { return std::bit_cast<double>(key_[1]); }

  // New time for the current winner, whose next event is of the other kind; replays its path
  // to the root.
  void replace_top(double t) {
    unsigned w = win_[1] ^ 1u;
    std::uint64_t kw = to_key(t);
    for (unsigned k = leaves_ + (w >> 1); k > 1; k >>= 1) {
      key_[k] = kw;
      win_[k] = w;
      // Sibling s takes over if earlier; on a tie only if it is the left one (k odd). The key
      // that goes up is the smaller one either way (a tie has equal keys), so the chain from one
      // level to the next is a compare and a conditional move.
      const unsigned s = k ^ 1u;
      const std::uint64_t ks = key_[s];
      const unsigned ws = win_[s];
      const bool take = ks < kw + (k & 1u);
      w = take ? ws : w;
      kw = std::min(ks, kw);
    }
    key_[1] = kw;
    win_[1] = w;
  }

 private:
  static std::uint64_t to_key(double t) { return std::bit_cast<std::uint64_t>(t); }

  unsigned leaves_;
  std::vector<std::uint64_t> key_;  // [2P]: bit pattern of the earliest time below each node
  std::vector<unsigned> win_;       // [2P]: the tag of the processor it belongs to
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

// The draws of each stream (times to failure, repair times) are made kBatch at a time in a tight
// loop and handed out in order. A draw is dominated by a log; in a loop of draws alone
// consecutive logs overlap, whereas one draw per event sits between two tree replays and overlaps
// with little. Each stream is consumed in the same order as drawing on demand, so results are
// identical; the engines end up to kBatch draws ahead, which no caller reads.
constexpr unsigned kBatch = 64;  // a power of two: a position reaching it is one bit test
void draw_batch(const dist::Dist& d, Engine& e, double (&batch)[kBatch]) {
  for (double& x : batch) x = d.sample(e);
}

enum class Phase { recovery, up, down };

// The application's phase and its accounting. It changes only at the rare events (a recovery
// succeeds, an active processor fails, a repair ends Down), which run out of line, away from the
// per-event loop.
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

  // Active processor i failed at t (actives are functional, so the event was a failure; Down
  // clears the active set, so the phase is Recovery or Up).
  [[gnu::noinline]] void active_fails(double t, unsigned i, const Bits& functional, Bits& active,
                                      int n_functional) {
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
  }

  // A repair at t (in Down a failure only lowers the count) left exactly a functional
  // processors: they become the active set and recover (state [R:0]).
  [[gnu::noinline]] void down_ends(double t, const Bits& functional, Bits& active) {
    down_s += t - phase_start;
    active.assign(functional);
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

}  // namespace

SimResult simulate_checkpointing(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  FS_CHECK(cfg.N >= 1 && cfg.a >= 1 && cfg.a <= cfg.N,
           fmt::format("simulate_checkpointing: N = {}, a = {}", cfg.N, cfg.a));
  FS_CHECK(cfg.I_s > cfg.C_s && cfg.I_s >= cfg.L_s && cfg.C_s >= 0 && cfg.L_s >= 0 &&
               cfg.R_s >= 0 && cfg.horizon_s > 0 && std::isfinite(cfg.horizon_s),
           fmt::format("simulate_checkpointing: I = {}, C = {}, L = {}, R = {}, horizon = {}",
                       cfg.I_s, cfg.C_s, cfg.L_s, cfg.R_s, cfg.horizon_s));

  const int N = cfg.N, a = cfg.a;
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
  std::uint64_t events = 0, n_failures = 0;

  App app{cfg.I_s, cfg.I_s - cfg.C_s, cfg.R_s + cfg.I_s + cfg.L_s, a};
  app.start_recovery(0);
  double due = app.recovery_due();
  int down_exit = app.down_exit();

  // What an event draws: a repair the next time to failure, a failure its repair time. Both
  // streams' next values are read before the event's kind is known and one is selected, so the
  // kind does not feed an indexed load on the way from one event to the next.
  double batch_f[kBatch], batch_r[kBatch];
  draw_batch(failure, failures, batch_f);
  draw_batch(repair, repairs, batch_r);
  unsigned pos_f = 0, pos_r = 0;

  // Processor `tag >> 1` fails (active or spare) or is repaired at t; returns the processor.
  // Both kinds share one code path, selected by data rather than by a branch: they arrive in
  // random order, and a mispredicted branch per event would cost as much as the draw.
  auto event = [&](double t, unsigned tag) {
    ++events;
    const unsigned fails = tag & 1u;  // 1: failure, 0: repair
    const std::uint64_t next_f = std::bit_cast<std::uint64_t>(batch_f[pos_f]);
    const std::uint64_t next_r = std::bit_cast<std::uint64_t>(batch_r[pos_r]);
    const std::uint64_t take_r = 0 - std::uint64_t{fails};
    tree.replace_top(t + std::bit_cast<double>(next_f ^ ((next_f ^ next_r) & take_r)));
    pos_f += 1 - fails;
    pos_r += fails;
    const unsigned i = tag >> 1;
    functional.flip(i);
    n_functional += 1 - 2 * static_cast<int>(fails);
    n_failures += fails;
    return i;
  };

  // The inner loop runs the events that change nothing but the processors and makes no call;
  // everything else (a recovery ending, an active failure, the end of Down, a spent batch of
  // draws, the horizon) drops to the outer loop.
  for (;;) {
    double t;
    unsigned i;
    for (;;) {
      t = tree.top_time();
      if (t > horizon || t >= due) [[unlikely]]
        break;
      i = event(t, tree.top_tag());
      if ((active.test(i) | static_cast<unsigned>(n_functional == down_exit) |
           ((pos_f | pos_r) & kBatch)) != 0) [[unlikely]]
        goto attend;
    }
    if (t > horizon) break;
    app.recovery_succeeds();
    due = kNever;
    i = event(t, tree.top_tag());
  attend:
    if (pos_f == kBatch) draw_batch(failure, failures, batch_f), pos_f = 0;
    if (pos_r == kBatch) draw_batch(repair, repairs, batch_r), pos_r = 0;
    if (active.test(i))
      app.active_fails(t, i, functional, active, n_functional);
    else if (n_functional == down_exit)
      app.down_ends(t, functional, active);
    due = app.recovery_due();
    down_exit = app.down_exit();
  }
  app.finish(horizon);
  const Phase phase = app.phase;
  const double useful = app.useful, recovery_s = app.recovery_s, up_s = app.up_s,
               down_s = app.down_s, I = app.I, work_per_interval = app.work_per_interval;
  const std::uint64_t active_failures = app.active_failures, recoveries_ok = app.recoveries_ok,
                      up_intervals = app.up_intervals;

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
