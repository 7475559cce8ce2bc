#include "faultsweep/avail/checkpoint_sim.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "checkpoint_app.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {

namespace {

using detail::App;
using detail::kNever;
using detail::Phase;

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

}  // namespace

SimResult simulate_checkpointing(const SimConfig& cfg, Engine& failures, Engine& repairs) {
  detail::check_config(cfg);
  if (cfg.sampler == Sampler::superposition)
    return detail::simulate_superposed(cfg, failures, repairs);

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
    if (active.test(i)) {
      active.reset(i);
      const bool spare_left = n_functional >= a;
      app.active_fails(t, spare_left);
      if (spare_left) {  // the lowest-index functional spare replaces it
        const int spare = functional.first_and_not(active);
        FS_CHECK(spare >= 0, "no functional spare although n_functional >= a");
        active.set(static_cast<unsigned>(spare));
      } else {
        active.clear();
      }
    } else if (n_functional == down_exit) {
      app.down_ends(t);
      active.assign(functional);
    }
    due = app.recovery_due();
    down_exit = app.down_exit();
  }
  app.finish(horizon);
  const Phase phase = app.phase;
  SimResult r = detail::result_of(app, horizon, events, n_failures, N - n_functional);
  FS_CHECK(functional.count() == n_functional, "functional count out of step with its bit set");
  FS_CHECK(phase == Phase::down || active.count() == a,
           fmt::format("{} active processors outside Down, expected a = {}", active.count(), a));
  return r;
}

}  // namespace faultsweep::avail
