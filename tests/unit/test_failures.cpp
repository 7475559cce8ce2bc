// Tests of the failure sources (renewal, Zhang et al.'s system-level process, trace replay) and
// the composite ("bathtub") Weibull of FARS §5.2.1 (the failures-table factory:
// test_failure_factory.cpp).
//
// Statistical tests draw from fixed streams (master seed 20240601 unless stated) and use
// tolerances at which a correct implementation would fail with probability ~1e-3 for a random
// seed: K-S distance < 1.95 / sqrt(n) (0.1 % level), counts within 5 standard deviations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "failure_support.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/composite_weibull.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/renewal.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/zhang.hpp"
#include "faultsweep/models/model.hpp"
#include "input_support.hpp"
#include "stat_support.hpp"

using faultsweep::Engine;
using faultsweep::InputError;
using faultsweep::make_stream;
using faultsweep::Params;
using faultsweep::Purpose;
using faultsweep::Value;
using faultsweep::dist::CompositeWeibull;
using faultsweep::dist::Dist;
using namespace faultsweep::failures;

using faultsweep::testing::bathtub_table;
using faultsweep::testing::context;
using faultsweep::testing::kDay;
using faultsweep::testing::kInf;
using faultsweep::testing::lognormal_renewal_table;
using faultsweep::testing::make_params;
using faultsweep::testing::require_time_ordered;
using faultsweep::testing::str;
using faultsweep::testing::stream;
using faultsweep::testing::take;
using faultsweep::testing::zhang_config;
using faultsweep::testing::zhang_source;

// Counts heap allocations of the whole test program, to check that sources do not allocate
// after construction (FailureSource::next runs in the simulator's hot loop). Every plain, array
// and nothrow form is replaced, not only the two the others forward to by default: a sanitizer's
// runtime defines each form itself, so a form left out would allocate with the runtime's new
// and free with this delete (std::stable_sort's buffer comes from the nothrow form).
namespace {

using faultsweep::testing::ks_critical;
using faultsweep::testing::ks_statistic;
std::atomic<long> g_allocations{0};

void* counted_malloc(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace
void* operator new(std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace {

double lag1_autocorrelation(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double mean = 0;
  for (double v : x) mean += v / n;
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    den += (x[i] - mean) * (x[i] - mean);
    if (i + 1 < x.size()) num += (x[i] - mean) * (x[i + 1] - mean);
  }
  return num / den;
}

std::vector<double> inter_failure_times(const std::vector<FailureEvent>& ev) {
  std::vector<double> x;
  double prev = 0;
  for (const auto& e : ev) x.push_back(e.time_s - prev), prev = e.time_s;
  return x;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Samplers against their cdfs

TEST_CASE("Weibull sampler matches its cdf at Zhang's shapes (K-S, n = 50000)",
          "[failures][statistical]") {
  for (const double shape : {0.2, 0.55, 0.65, 0.85}) {
    const Dist w = Dist::weibull(shape, 18000.0);
    Engine e = stream(Purpose::failures, w.canonical_text());
    std::vector<double> xs(50000);
    for (auto& x : xs) x = w.sample(e);
    INFO("shape = " << shape);
    CHECK(ks_statistic(xs, [&](double x) { return w.cdf(x); }) < ks_critical(xs.size()));
  }
}

TEST_CASE("Bathtub composite Weibull: FARS shapes, mean = MTBF, sampler matches cdf",
          "[failures][statistical]") {
  const double mtbf_s = 14 * kDay;  // FARS's baseline node MTBF (§6.1.3: 448 d / 32)
  const CompositeWeibull b = CompositeWeibull::bathtub(mtbf_s);
  REQUIRE(b.components().size() == 3);
  CHECK(b.components()[0].shape == 0.5);
  CHECK(b.components()[1].shape == 1.0);
  CHECK(b.components()[2].shape == 1.5);
  for (const auto& c : b.components()) CHECK(c.weight == Approx(1.0 / 3));
  CHECK(b.mean() == Approx(mtbf_s).epsilon(1e-12));
  // Equal weights, common scale: eta = MTBF / ((2 + 1 + Gamma(5/3)) / 3).
  CHECK(b.components()[0].scale_s == Approx(mtbf_s / ((2.0 + 1.0 + std::tgamma(5.0 / 3)) / 3)));
  CHECK(b.cdf(0) == 0.0);
  CHECK(b.cdf(1e3 * mtbf_s) == Approx(1.0));
  CHECK(b.survival(mtbf_s) == Approx(1.0 - b.cdf(mtbf_s)));

  Engine e = stream(Purpose::failures, b.canonical_text());
  std::vector<double> xs(50000);
  double sum = 0;
  for (auto& x : xs) sum += (x = b.sample(e));
  CHECK(ks_statistic(xs, [&](double x) { return b.cdf(x); }) < ks_critical(xs.size()));
  // The sample mean: CV^2 of this mixture is ~4.36, so its s.e. is 0.93 % of the mean.
  CHECK(sum / static_cast<double>(xs.size()) == Approx(mtbf_s).epsilon(0.05));

  // A general mixture: unequal weights and scales.
  const CompositeWeibull m({{1, 0.7, 100.0}, {3, 2.0, 1000.0}});
  CHECK(m.mean() == Approx(0.25 * 100 * std::tgamma(1 + 1 / 0.7) + 0.75 * 1000 * std::tgamma(1.5)));
  Engine e2 = stream(Purpose::failures, m.canonical_text());
  for (auto& x : xs) x = m.sample(e2);
  CHECK(ks_statistic(xs, [&](double x) { return m.cdf(x); }) < ks_critical(xs.size()));
}

// ---------------------------------------------------------------------------------------------
// Zhang et al. §3.2

TEST_CASE("Zhang W-ordering: first half descending, second ascending, W = 2 leaves the order",
          "[failures]") {
  std::vector<double> s = {3, 1, 4, 1, 5, 9, 2, 6};
  ZhangSource::order_segment(s);
  CHECK(s == std::vector<double>{4, 3, 1, 1, 2, 5, 6, 9});
  std::vector<double> two = {1, 5};
  ZhangSource::order_segment(two);
  CHECK(two == std::vector<double>{1, 5});
  two = {5, 1};
  ZhangSource::order_segment(two);
  CHECK(two == std::vector<double>{5, 1});  // the original series, not sorted pairs

  // Through the source: W = 2 gives exactly the i.i.d. draws of the failure stream.
  ZhangSource src = zhang_source(zhang_config(0.85, 2, 0.01), 320);
  Engine raw = stream(Purpose::failures, "zhang");
  const Dist w = Dist::weibull(0.85, 18000.0);
  double t = 0;
  for (int i = 0; i < 100; ++i) {
    t += w.sample(raw);
    REQUIRE(src.next().time_s == t);
  }
}

TEST_CASE("Zhang W-ordering keeps the Weibull marginal and correlates neighbours",
          "[failures][statistical]") {
  // K-S of the reordered inter-failure times against Weibull(0.85, 18000) (n = 64 x 800), and
  // lag-1 autocorrelation: the i.i.d. series (W = 2) has r ~ N(0, 1/n), |r| < 0.03 is > 6 s.d.;
  // W = 64 puts long gaps at the segment edges and short ones in the middle: r > 0.3.
  const std::size_t n = 64 * 800;
  const Dist weibull = Dist::weibull(0.85, 18000.0);
  double r2 = 0, r64 = 0;
  for (const int w : {2, 8, 64}) {
    ZhangSource src = zhang_source(zhang_config(0.85, w, 0.5), 320);
    const auto ev = take(src, n);
    REQUIRE(ev.size() == n);
    require_time_ordered(ev);
    const auto x = inter_failure_times(ev);
    INFO("W = " << w);
    CHECK(ks_statistic(x, [&](double v) { return weibull.cdf(v); }) < ks_critical(n));
    const double r = lag1_autocorrelation(x);
    if (w == 2) r2 = r;
    if (w == 64) r64 = r;
  }
  INFO("lag-1 autocorrelation: W = 2: " << r2 << ", W = 64: " << r64);
  CHECK(std::abs(r2) < 0.03);
  CHECK(r64 > 0.3);
}

TEST_CASE("Zhang locations: Zipf over nodes with node 0 ranked first", "[failures]") {
  const int nodes = 320;
  const std::size_t n = 200000;
  for (const double alpha : {0.01, 0.99}) {
    ZhangSource src = zhang_source(zhang_config(0.85, 8, alpha), nodes);
    std::vector<double> count(nodes, 0);
    for (const auto& e : take(src, n)) {
      REQUIRE(e.node >= 0);
      REQUIRE(e.node < nodes);
      REQUIRE(e.downtime_s == 120.0);
      count[static_cast<std::size_t>(e.node)] += 1;
    }
    const faultsweep::dist::Zipf z(alpha, nodes);
    const double p0 = z.pmf(1), sd = std::sqrt(p0 * (1 - p0) / static_cast<double>(n));
    INFO("alpha = " << alpha);
    CHECK(std::abs(count[0] / static_cast<double>(n) - p0) < 5 * sd);
    if (alpha > 0.5) CHECK(std::max_element(count.begin(), count.end()) == count.begin());
  }
}

TEST_CASE("Zhang: ties of time (shape 0.1, late in a long run) come out in node order",
          "[failures]") {
  // Inter-failure times below the spacing of doubles at t collapse onto one time; the source
  // must still emit (time, node) in order.
  ZhangSource src = zhang_source(zhang_config(0.1, 64, 0.5), 320);
  const auto ev = take(src, 200000);
  require_time_ordered(ev);
  std::size_t ties = 0;
  for (std::size_t i = 1; i < ev.size(); ++i) ties += ev[i].time_s == ev[i - 1].time_s;
  CHECK(ties > 100);  // the case is really exercised
}

TEST_CASE("Zhang: the horizon ends the stream", "[failures]") {
  ZhangSource src = zhang_source(zhang_config(0.85, 8, 0.5), 64, 0, 30 * kDay);
  const auto ev = take(src, 100000);
  CHECK(!ev.empty());
  CHECK(ev.back().time_s < 30 * kDay);
  CHECK(src.next().time_s == kInf);
  CHECK(src.next().time_s == kInf);
}

// ---------------------------------------------------------------------------------------------
// Per-node renewal

TEST_CASE("Renewal: each node fails at rate 1 / (mean TTF + downtime)", "[failures][statistical]") {
  const int nodes = 8;
  const double mean_s = 1e5, down_s = 1e3, horizon_s = 1e8;
  RenewalSource src(nodes, Dist::exponential(mean_s), Dist::constant(down_s),
                    stream(Purpose::failures, "renewal"), stream(Purpose::downtimes, "renewal"),
                    horizon_s);
  std::vector<double> count(nodes, 0);
  std::vector<double> up_since(nodes, 0);
  const auto ev = take(src, 1000000);
  require_time_ordered(ev);
  for (const auto& e : ev) {
    const auto i = static_cast<std::size_t>(e.node);
    REQUIRE(e.time_s >= up_since[i]);  // never fails while down
    up_since[i] = e.time_s + e.downtime_s;
    count[i] += 1;
  }
  // Renewal CLT: N(t) ~ N(t / mu, t sigma^2 / mu^3), cycle mean mu = 101000 s, sigma = 1e5 s.
  const double mu = mean_s + down_s;
  const double expected = horizon_s / mu,
               sd = std::sqrt(horizon_s * mean_s * mean_s / (mu * mu * mu));
  for (int i = 0; i < nodes; ++i) {
    INFO("node " << i << ": " << count[i] << " failures, expected " << expected);
    CHECK(std::abs(count[i] - expected) < 5 * sd);
  }
}

TEST_CASE("Renewal with bathtub lifetimes: stationary rate 1 / (MTBF + MTTR) per node",
          "[failures][statistical]") {
  // 512 nodes (FARS §5.2.1), MTBF 14 d, exponential repair of 1.73 h (FARS §5.2.2), 10 years;
  // failures counted in the second half only, past the transient of a new system.
  const int nodes = 512;
  const double mtbf_s = 14 * kDay, mttr_s = 1.73 * 3600, horizon_s = 3650 * kDay;
  const auto b = CompositeWeibull::bathtub(mtbf_s);
  RenewalSource src(nodes, b, Dist::exponential(mttr_s), stream(Purpose::failures, "bathtub"),
                    stream(Purpose::downtimes, "bathtub"), horizon_s);
  double late = 0;
  FailureEvent e;
  while ((e = src.next()).time_s != kInf) late += e.time_s >= horizon_s / 2;
  const double mu = mtbf_s + mttr_s;
  const double cv2 = 9.0618 / (1.3009 * 1.3009) - 1;  // E[X^2] / E[X]^2 - 1 of the mixture
  const double expected = nodes * (horizon_s / 2) / mu;
  const double sd = std::sqrt(expected * cv2);
  INFO(late << " failures in the second half, expected " << expected << " +- " << sd);
  CHECK(std::abs(late - expected) < 5 * sd);
}

TEST_CASE("Renewal: ties go to the lower node", "[failures]") {
  RenewalSource src(4, Dist::constant(10.0), Dist::constant(5.0), stream(Purpose::failures, "c"),
                    stream(Purpose::downtimes, "c"), 40.0);
  const auto ev = take(src, 100);
  REQUIRE(ev.size() == 8);  // t = 10 and 25 on every node; 40 is the horizon
  for (int i = 0; i < 8; ++i) {
    CHECK(ev[static_cast<std::size_t>(i)].node == i % 4);
    CHECK(ev[static_cast<std::size_t>(i)].time_s == (i < 4 ? 10.0 : 25.0));
  }
}

TEST_CASE("Sources do not allocate after construction", "[failures]") {
  const std::vector<Params> tables = {
      lognormal_renewal_table(),
      bathtub_table(),
      make_params({{"process", str("zhang")},
                   {"shape", 0.2},
                   {"scale", 18000.0},
                   {"W", std::int64_t{64}},
                   {"alpha", 0.99},
                   {"downtime", 120.0}}),
      make_params({{"process", str("trace")},
                   {"file", str("lanl_small.csv")},
                   {"system", std::int64_t{20}}}),
  };
  for (const auto& t : tables) {
    const long at_start = g_allocations.load();
    auto src = make_failure_source(t, 512, kInf, context());
    const long before = g_allocations.load();
    CHECK(before > at_start);  // the counter sees the construction's allocations
    double last = 0;
    for (int i = 0; i < 100000; ++i) {
      const FailureEvent e = src->next();
      if (e.time_s == kInf) break;
      last = e.time_s;
    }
    const long after = g_allocations.load();
    INFO(t.canonical_text() << " reached t = " << last);
    CHECK(after == before);
  }
}
