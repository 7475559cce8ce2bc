#include "faultsweep/policy/reliability_order.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Room left on each side of the bound's threshold before the interval decides: the exact test
// computes ln L within ~1e-13 (above_level), the interval's own arithmetic within ~1e-14.
constexpr double kSlack = 1e-6;

// The hazard of an exponential node of this scale over x, as OnlineReliability::hazard computes
// it (scale +inf: never fails).
double exponential_hazard(double scale_s, double x_s) {
  return scale_s < kInf ? x_s / scale_s : 0.0;
}

// A node's age at now: the time since its last failure, or since 0 if it never failed.
double age(double last_failure_s, double now_s) {
  return std::max(0.0,
                  now_s - (last_failure_s == failures::NodeHistory::kNever ? 0.0 : last_failure_s));
}
}  // namespace

// log2 m lies between m - 1 and m - 1 + 0.086072 for 1 <= m < 2 (the chord under the concave
// log2 on [1, 2]; the gap is largest at m = 1 / ln 2), so ln y lies in (e + m - 1) ln 2 +
// [0, 0.05966] for y = 2^e m.
LogInterval log_interval(double y) {
  if (!(y >= std::numeric_limits<double>::min()) || !(y < kInf)) return {};
  const auto bits = std::bit_cast<std::uint64_t>(y);
  const auto e = static_cast<double>(static_cast<std::int64_t>(bits >> 52) - 1023);
  const double m =
      std::bit_cast<double>((bits & 0x000f'ffff'ffff'ffffULL) | 0x3ff0'0000'0000'0000ULL);
  const double lo = (e + (m - 1)) * std::numbers::ln2;
  return {lo, lo + 0.05967, true};
}

void ReliabilityOrder::sync(const reliability::OnlineReliability& model, int nodes) {
  if (model.refits() == synced_refits_) return;
  // The nodes that failed since the previous refit are the only ones that move.
  if (synced_refits_ >= 0 && model.refits() == synced_refits_ + 1 &&
      place_.size() == static_cast<std::size_t>(nodes)) {
    for (const std::int32_t i : model.changed()) {
      remove(i);
      place(model, i);
    }
  } else {
    rebuild(model, nodes);
  }
  synced_refits_ = model.refits();
  // Every node of a bucket has the same scale (tau / n, or the pooled scale for n = 0). By
  // descending scale: non-decreasing hazard x / scale for every x >= 0 (equal scales are one
  // level in least(), so their order does not matter).
  order_.clear();
  for (std::size_t n = 0; n < by_count_.size(); ++n)
    if (by_count_[n].members > 0) order_.push_back(static_cast<std::int32_t>(n));
  std::sort(order_.begin(), order_.end(), [&](std::int32_t a, std::int32_t b) {
    return model.exponential_scale_s(a) > model.exponential_scale_s(b);
  });
  order_scale_s_.clear();
  for (const std::int32_t n : order_) order_scale_s_.push_back(model.exponential_scale_s(n));
}

void ReliabilityOrder::rebuild(const reliability::OnlineReliability& model, int nodes) {
  const std::size_t words = (static_cast<std::size_t>(nodes) + 63) / 64;
  for (Bucket& b : by_count_) b.words.assign(words, 0), b.members = 0;
  own_fit_.clear();
  place_.assign(static_cast<std::size_t>(nodes), 0);
  own_at_.assign(static_cast<std::size_t>(nodes), -1);
  own_bound_.assign(static_cast<std::size_t>(nodes), {});
  screen_.clear();
  for (std::int32_t i = 0; i < nodes; ++i) place(model, i);
}

void ReliabilityOrder::place(const reliability::OnlineReliability& model, std::int32_t node) {
  const auto i = static_cast<std::size_t>(node);
  if (model.own_fit(node)) {
    place_[i] = -1;
    own_at_[i] = static_cast<std::int32_t>(own_fit_.size());
    own_fit_.push_back(node);
    const double beta = model.shape(node), log_eta = std::log(model.scale_s(node));
    // The constants of the lower bounds in above_level (shape 1: no bound, the hazard is x / eta).
    const Bound& b =
        own_bound_[i] = {beta, std::log(beta) - beta * log_eta, log_eta, std::exp2(beta - 1)};
    // Shape 1 has no bound: ln L = -inf never clears a level.
    // (ln y's interval is [lo, lo + 0.05967]: c < 0 takes its top, c > 0 its bottom.)
    if (beta == 1.0)
      screen_.push_back({0, -kInf, 0, 1});
    else if (beta < 1)
      screen_.push_back({beta - 1, b.log_c + (beta - 1) * 0.05967, 1 / beta, 1});
    else
      screen_.push_back({beta - 1, b.log_c, b.two_pow / beta, 0});
    return;
  }
  const auto n = static_cast<std::size_t>(model.failures(node));
  if (n >= by_count_.size()) {
    const std::size_t words = (place_.size() + 63) / 64;
    by_count_.resize(n + 1);
    for (Bucket& b : by_count_)
      if (b.words.size() != words) b.words.assign(words, 0);
  }
  place_[i] = static_cast<std::int32_t>(n);
  Bucket& b = by_count_[n];
  b.words[i >> 6] |= std::uint64_t{1} << (i & 63);
  ++b.members;
}

void ReliabilityOrder::remove(std::int32_t node) {
  const auto i = static_cast<std::size_t>(node);
  if (place_[i] < 0) {  // swap with the last own-fit node
    const auto at = static_cast<std::size_t>(own_at_[i]);
    own_fit_[at] = own_fit_.back();
    screen_[at] = screen_.back();
    own_at_[static_cast<std::size_t>(own_fit_[at])] = static_cast<std::int32_t>(at);
    own_fit_.pop_back();
    screen_.pop_back();
    own_at_[i] = -1;
    return;
  }
  Bucket& b = by_count_[static_cast<std::size_t>(place_[i])];
  b.words[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
  --b.members;
}

std::size_t ReliabilityOrder::take_lowest(const Bucket& b, const NodeSet& free, double hazard,
                                          std::size_t limit, std::vector<Ranked>& out) const {
  const std::vector<std::uint64_t>& f = free.words();
  std::size_t taken = 0;
  for (std::size_t w = 0; w < b.words.size() && taken < limit; ++w) {
    for (std::uint64_t bits = b.words[w] & f[w]; bits != 0 && taken < limit; bits &= bits - 1) {
      const auto id = static_cast<std::int32_t>(64 * w + std::countr_zero(bits));
      out.emplace_back(hazard, id);
      ++taken;
    }
  }
  return taken;
}

void ReliabilityOrder::least(const reliability::OnlineReliability& model,
                             const failures::NodeHistory& h, const NodeSet& free, double now_s,
                             double x_s, std::size_t k, std::vector<Ranked>& out) {
  FS_CHECK(synced_refits_ == model.refits() && model.refit_instant() > 0,
           "reliability order used before its sync");
  out.clear();
  // Buckets of equal hazard form one level; a level contributes its `need` lowest free ids
  // (need = k minus the nodes of lower levels), which beat its other members on the tie. Once
  // k nodes are placed, every later level has a greater hazard. The levels come in ascending
  // hazard and a one-bucket level in ascending id, so only a level of several buckets is sorted.
  std::size_t placed = 0;
  double level = 0;
  for (std::size_t b = 0; b < order_.size() && placed < k;) {
    level = exponential_hazard(order_scale_s_[b], x_s);
    const std::size_t need = k - placed, from = out.size();
    std::size_t in_level = 0, buckets = 0;
    for (; b < order_.size() && exponential_hazard(order_scale_s_[b], x_s) == level; ++b, ++buckets)
      in_level +=
          take_lowest(by_count_[static_cast<std::size_t>(order_[b])], free, level, need, out);
    if (buckets > 1) std::sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end());
    placed += std::min(need, in_level);
  }
  // Once k exponential nodes have hazards <= level, a node certainly above it cannot be among
  // the k least: its hazard (two pow calls) is not needed.
  const bool bounded = placed == k && level > 0 && x_s > 0;
  const double log_level = bounded ? std::log(level) : 0, log_x = bounded ? std::log(x_s) : 0;
  const std::size_t undecided =
      bounded ? screen(h, free, now_s, x_s, log_x, log_level) : free_own_fit(free);
  own_.clear();
  for (std::size_t u = 0; u < undecided; ++u) {
    const std::int32_t id = undecided_[u];
    if (bounded && above_level(h, id, now_s, x_s, log_x, log_level)) continue;
    own_.emplace_back(model.hazard(h, id, now_s, x_s), id);
  }
  // The k least of the Weibull-fitted ones, sorted, merged with the sorted exponential ones
  // (keys are unique: the same k pairs in the same order as one sort of all).
  if (own_.size() > k) {
    std::nth_element(own_.begin(), own_.begin() + static_cast<std::ptrdiff_t>(k - 1), own_.end());
    own_.resize(k);
  }
  std::sort(own_.begin(), own_.end());
  FS_CHECK(out.size() + own_.size() >= k, "reliability order: fewer than k candidates");
  merged_.resize(out.size() + own_.size());
  std::merge(out.begin(), out.end(), own_.begin(), own_.end(), merged_.begin());
  merged_.resize(k);
  out.swap(merged_);
}

std::size_t ReliabilityOrder::free_own_fit(const NodeSet& free) {
  undecided_.resize(own_fit_.size());
  std::size_t n = 0;
  for (const std::int32_t id : own_fit_) {
    undecided_[n] = id;
    n += static_cast<std::size_t>(free.contains(id));
  }
  return n;
}

// above_level's lower bound (below) without std::log and without a branch on the node: every
// free Weibull-fitted node is read once, in a row, and most are settled here; the others are
// left in undecided_ for the exact test. As ln y lies in [lo, lo + 0.05967] (log_interval, up
// to 1e-12; lo here is within 2e-13 of its), ln L = base + c ln y >= base + min(c lo, c (lo +
// 0.05967)): where that clears the exact test's threshold by kSlack, the bound holds with room
// to spare (r is within a few ulps of the exact test's, far inside the slack). Shape > 1 with
// t < x (the other bound) is left to the exact test.
namespace {
constexpr std::int64_t kOne = 0x3ff0'0000'0000'0000;  // the bits of 1.0
constexpr double kLn2Ulp = std::numbers::ln2 * 0x1p-52;
}  // namespace

std::size_t ReliabilityOrder::screen(const failures::NodeHistory& h, const NodeSet& free,
                                     double now_s, double x_s, double log_x, double log_level) {
  undecided_.resize(own_fit_.size());
  const std::span<const double> last = h.last_failures_s();
  const double inv_x = 1 / x_s, level = log_level + 1e-9 + kSlack;
  std::size_t n = 0;
  for (std::size_t p = 0; p < own_fit_.size(); ++p) {
    const std::int32_t id = own_fit_[p];
    const Screen& s = screen_[p];
    const double t = age(last[static_cast<std::size_t>(id)], now_s);
    const double y = t + s.y_x * x_s, r = s.r_per * (t + x_s) * inv_x;
    // e + (m - 1) for y = 2^e m is y's bits less 1.0's, over 2^52 (rounded to a double
    // within 2^-43 of it).
    const double lo = kLn2Ulp * static_cast<double>(std::bit_cast<std::int64_t>(y) - kOne);
    const double least = s.log_c + log_x + s.c * lo;
    const bool settled = (y >= std::numeric_limits<double>::min()) & (y < kInf) & (r < 1e12) &
                         (t >= x_s * (1 - s.y_x)) & (least > level + 2e-15 * r);
    undecided_[n] = id;
    n += static_cast<std::size_t>(free.contains(id) & !settled);
  }
  return n;
}

bool ReliabilityOrder::above_level(const failures::NodeHistory& h, std::int32_t node, double now_s,
                                   double x_s, double log_x, double log_level) const {
  const Bound& b = own_bound_[static_cast<std::size_t>(node)];
  if (b.beta == 1.0) return false;
  const double t = age(h.last_failure_s(node), now_s);
  // Eq. 5.2, H = ((t + x)^beta - t^beta) / eta^beta, is at least (A = ((t + x) / eta)^beta):
  //   beta < 1:          L = beta x (t + x)^(beta - 1) / eta^beta (mean value theorem: the
  //                      derivative decreases), A / L = (t + x) / (beta x);
  //   beta > 1, t >= x:  L = beta x t^(beta - 1) / eta^beta (the derivative increases),
  //                      A / L = ((t + x) / t)^(beta - 1) (t + x) / (beta x) <= 2^(beta - 1) ..;
  //   beta > 1, t < x:   L = (x / eta)^beta (superadditivity of s^beta), A / L <= 2^beta.
  // The computed H is within 1e-15 A + 1.2e-16 H of H (each pow within an ulp of its rounded
  // argument, one subtraction), i.e. within L (1e-15 r + 1.2e-16) for r >= A / L; ln L is
  // computed within ~1e-13. So ln L > ln level + 1e-9 + 2e-15 r means the computed H exceeds
  // the level, which k nodes do not (r < 1e12 keeps the margin small).
  // ln L = base + c ln y. Before the log itself, an interval of ln y from y's exponent and
  // mantissa (below) often settles the comparison with room to spare; only an undecided node
  // pays for std::log, so every answer is the one the exact test gives.
  double base = 0, c = 0, y = 0, r = 0;
  if (b.beta < 1) {
    r = (t + x_s) / (b.beta * x_s);
    if (!(r < 1e12)) return false;
    base = b.log_c + log_x, c = b.beta - 1, y = t + x_s;
  } else if (t >= x_s) {
    r = b.two_pow * (t + x_s) / (b.beta * x_s);
    if (!(r < 1e12)) return false;
    base = b.log_c + log_x, c = b.beta - 1, y = t;
  } else {
    r = 2 * b.two_pow;
    return b.beta * (log_x - b.log_eta) > log_level + 1e-9 + 2e-15 * r;
  }
  const double threshold = log_level + 1e-9 + 2e-15 * r;
  if (const LogInterval in = log_interval(y); in.valid) {
    // c ln y lies between c lo and c hi; the exact test's rounding is far below the slack.
    const double one = base + c * in.lo, other = base + c * in.hi;
    if (std::min(one, other) > threshold + kSlack) return true;
    if (std::max(one, other) < threshold - kSlack) return false;
  }
  return base + c * std::log(y) > threshold;
}
}  // namespace faultsweep::policy
