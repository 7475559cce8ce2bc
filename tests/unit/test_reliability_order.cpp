// The ordered buckets behind allocator "ra" and RA-Opt (policy/reliability_order.hpp) choose
// exactly what a full sort of every free node's (hazard, id) chooses: large groups of equal
// hazard (no failure: the pooled rate; few failures: exponential), Weibull fits, several free
// sets, run times (0: every hazard ties), refit instants, and before the first refit; refits that
// move only the nodes that failed since the previous one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/reliability/online.hpp"

using namespace faultsweep;
using reliability::OnlineLaw;
using reliability::OnlineOptions;

namespace {

constexpr double kHour = 3600.0;
constexpr int kNodes = 150;

// Node i fails only if i % 5 != 0 and i % 7 != 0, at rate (i % 7) / (300 h): a third never
// fails, the others differ in reliability and many have the same failure count.
failures::NodeHistory sparse_history(double until) {
  std::vector<std::pair<double, int>> events;
  for (int n = 0; n < kNodes; ++n) {
    if (n % 5 == 0 || n % 7 == 0) continue;
    // One stream per node: the history up to an earlier time is a prefix of a later one.
    Engine rng = make_stream(31, static_cast<std::uint64_t>(n), Purpose::failures, "order");
    for (double t = 0; (t += -300 * kHour / (n % 7) * std::log(uniform01(rng))) < until;)
      events.emplace_back(t, n);
  }
  std::sort(events.begin(), events.end());
  failures::NodeHistory h;
  h.reset(kNodes, true);
  for (const auto& [t, n] : events) h.record_failure(n, t);
  return h;
}

// Every third (or fourth, fifth) node from an offset is busy.
policy::NodeSet free_nodes(int pattern) {
  policy::NodeSet s(kNodes);
  for (int n = 0; n < kNodes; ++n)
    if ((n - pattern) % (3 + pattern) != 0) s.insert(n);
  return s;
}

// The free nodes sorted by (hazard over x, id): what a full sort chooses.
std::vector<std::pair<double, int>> full_order(const reliability::OnlineReliability& m,
                                               const failures::NodeHistory& h,
                                               const policy::NodeSet& free, double now, double x) {
  std::vector<std::pair<double, int>> all;
  for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1))
    all.emplace_back(m.hazard(h, n, now, x), n);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

TEST_CASE("Allocator ra on ordered buckets = the k least (hazard, id) of a full sort",
          "[reliability_alloc]") {
  for (const OnlineLaw law : {OnlineLaw::exponential, OnlineLaw::weibull}) {
    const OnlineOptions o{law, 60 * kHour};
    policy::ReliabilityAllocator ra(policy::ReliabilityMode::ra, o, 86400);
    for (const double now : {30 * kHour, 200 * kHour, 450 * kHour, 899 * kHour}) {
      const auto h = sparse_history(now);  // the past only, as the engine keeps it
      reliability::OnlineReliability m(o);
      m.update(h, now);
      for (int pattern = 0; pattern < 3; ++pattern) {
        const auto free = free_nodes(pattern);
        for (const double x : {0.0, 0.5 * kHour, 30 * kHour, 3000 * kHour}) {
          const auto all = full_order(m, h, free, now, x);
          for (int k = 1; k <= free.count(); ++k) {
            std::vector<std::int32_t> got(static_cast<std::size_t>(k)), want;
            ra.allocate(policy::AllocationContext{now, 0, x, 0, &h}, free, got);
            for (int i = 0; i < k; ++i) want.push_back(all[static_cast<std::size_t>(i)].second);
            INFO("law " << static_cast<int>(law) << ", now " << now / kHour << " h, x " << x
                        << " s, k " << k << ", pattern " << pattern);
            CHECK(got == want);
          }
        }
      }
    }
  }
}

TEST_CASE("RA-Opt on a lazily ordered prefix = Fig. 6.6 on the fully sorted free nodes",
          "[reliability_alloc]") {
  const OnlineOptions o{OnlineLaw::weibull, 60 * kHour};
  int sizes_above_prefix = 0;
  for (const double serial : {0.0, 0.01, 0.105}) {
    const workload::Speedup speedup{serial, workload::SpeedupLaw::amdahl};
    const policy::RaOptSize chooser(o, 0.0);
    for (const double now : {200 * kHour, 899 * kHour}) {
      const auto h = sparse_history(now);  // the past only, as the engine keeps it
      reliability::OnlineReliability m(o);
      m.update(h, now);
      for (int pattern = 0; pattern < 3; ++pattern) {
        const auto free = free_nodes(pattern);
        for (const int taken : {0, 5}) {  // nodes already taken by jobs earlier in the pass
          policy::SizeRequest r;
          r.requested = 8;
          r.free_nodes = free.count() - taken;
          r.now_s = now;
          r.estimate_s = 20 * kHour;
          r.history = &h;
          r.free = &free;
          r.machine_nodes = kNodes;
          r.speedup = &speedup;
          const double one_s = r.estimate_s / speedup.relative_time(r.requested);
          const auto all = full_order(m, h, free, now, one_s);
          std::vector<policy::PlanNode> plan;
          for (std::size_t i = static_cast<std::size_t>(taken); i < all.size(); ++i) {
            const int n = all[i].second;
            const double age = now - std::max(0.0, h.last_failure_s(n));  // kNever: -inf
            plan.push_back({m.shape(n), m.scale_s(n), age});
          }
          const int want = policy::ra_opt_grow(plan, one_s, speedup, 0.0);
          sizes_above_prefix += want > 64;
          INFO("serial " << serial << ", now " << now / kHour << " h, pattern " << pattern
                         << ", taken " << taken);
          CHECK(chooser.choose(r) == want);
        }
      }
    }
  }
  CHECK(sizes_above_prefix > 0);  // the prefix was extended at least once
}

TEST_CASE("Refits that move only the nodes failed since the last one = fitting from scratch",
          "[reliability_alloc]") {
  // One history growing as the engine writes it, refit every 60 h: the incremental model and
  // allocator against a model fitted from scratch at each instant and a full sort. Besides the
  // sparse nodes: node 0 has equal TTFs (no MLE, then one after a fourth failure), node 1 two
  // failures at one instant (too few TTFs).
  std::vector<std::pair<double, int>> events;
  const auto late = sparse_history(1e9);
  for (int n = 0; n < kNodes; ++n)
    for (const double t : late.failure_times_s(n))
      if (t < 2000 * kHour && n > 1) events.emplace_back(t, n);
  for (const double t : {10.0, 20.0, 30.0, 555.0}) events.emplace_back(t * kHour, 0);
  for (const double t : {50.0, 50.0, 70.0, 900.0}) events.emplace_back(t * kHour, 1);
  std::sort(events.begin(), events.end());
  for (const OnlineLaw law : {OnlineLaw::exponential, OnlineLaw::weibull}) {
    const OnlineOptions o{law, 60 * kHour};
    policy::ReliabilityAllocator ra(policy::ReliabilityMode::ra, o, 86400);
    reliability::OnlineReliability incremental(o);
    failures::NodeHistory h;
    h.reset(kNodes, true);
    std::size_t next = 0;
    const auto free = free_nodes(1);
    for (double now = 61 * kHour; now < 2000 * kHour; now += 37 * kHour) {
      for (; next < events.size() && events[next].first <= now; ++next)
        h.record_failure(events[next].second, events[next].first);
      incremental.update(h, now);
      reliability::OnlineReliability fresh(o);
      fresh.update(h, now);
      for (int n = 0; n < kNodes; ++n) {
        INFO("law " << static_cast<int>(law) << ", now " << now / kHour << " h, node " << n);
        CHECK(incremental.own_fit(n) == fresh.own_fit(n));
        CHECK(incremental.shape(n) == fresh.shape(n));
        CHECK(incremental.scale_s(n) == fresh.scale_s(n));
        CHECK(incremental.failures(n) == fresh.failures(n));
      }
      // Run times below and above the nodes' ages, so that every bound that spares a Weibull
      // node its hazard is used.
      for (const double x : {1.0, 60.0, kHour, 20 * kHour, 300 * kHour, 3000 * kHour}) {
        const auto all = full_order(fresh, h, free, now, x);
        for (const std::size_t k : {1, 10, 40, 90}) {
          std::vector<std::int32_t> got(k), want;
          ra.allocate(policy::AllocationContext{now, 0, x, 0, &h}, free, got);
          for (std::size_t i = 0; i < k; ++i) want.push_back(all[i].second);
          INFO("law " << static_cast<int>(law) << ", now " << now / kHour << " h, x " << x
                      << " s, k " << k);
          CHECK(got == want);
        }
      }
    }
    if (law == OnlineLaw::weibull) CHECK(incremental.own_fit(0));  // fitted after the 4th
  }
}

TEST_CASE("log_interval holds ln y: powers of two, the widest gap (m = 1 / ln 2), random y",
          "[reliability]") {
  // Seed 5; 10^6 log-uniform y over 1e-300 .. 1e300, and the mantissas where the chord is
  // exact (m = 1) or farthest from log2 (m = 1 / ln 2) at every exponent.
  std::vector<double> ys;
  for (int e = -1020; e <= 1020; ++e) {
    ys.push_back(std::ldexp(1.0, e));
    ys.push_back(std::ldexp(1 / std::numbers::ln2, e));
    ys.push_back(std::ldexp(std::nextafter(2.0, 0.0), e));
  }
  Engine rng(5);
  for (int k = 0; k < 1'000'000; ++k) ys.push_back(std::pow(10.0, 600 * uniform01(rng) - 300));
  double widest_miss = 0;
  for (const double y : ys) {
    const policy::LogInterval in = policy::log_interval(y);
    REQUIRE(in.valid);
    const double ln = std::log(y);
    widest_miss = std::max({widest_miss, in.lo - ln, ln - in.hi});
    REQUIRE(in.lo <= ln + 1e-12);
    REQUIRE(ln <= in.hi + 1e-12);
    REQUIRE(in.hi - in.lo < 0.0597);
  }
  INFO("largest step outside the interval: " << widest_miss);
  CHECK(widest_miss <= 1e-12);
  // Near m = 1 / ln 2 the interval is tight: ln y is within 1e-5 of its top.
  const policy::LogInterval at = policy::log_interval(1 / std::numbers::ln2);
  CHECK(at.hi - std::log(1 / std::numbers::ln2) < 1e-5);
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::denorm_min(), std::nan("")})
    CHECK_FALSE(policy::log_interval(bad).valid);
}
