// Reliability-aware allocation (Gottumukkala Ch. 5, §6.4): RAS / LJRAS / RA windows against brute
// force, refits on schedule from the history only, no allocator reading a failure after "now",
// waste by category, bad input naming its key (RA-Opt's own tests: test_ra_opt.cpp; the cluster
// model with these allocators: test_reliability_cluster.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/reliability/fit.hpp"
#include "faultsweep/reliability/online.hpp"
#include "faultsweep/sim/waste.hpp"
#include "faultsweep/workload/job.hpp"
#include "input_support.hpp"
#include "sim_support.hpp"

using namespace faultsweep;
using policy::ReliabilityAllocator;
using policy::ReliabilityMode;
using reliability::OnlineLaw;
using reliability::OnlineOptions;

namespace {

constexpr double kHour = 3600.0;

// A history of `nodes` nodes with random failures before `until` (seeded): node i fails at
// rate (i % 4 + 1) / (100 h), so the nodes differ in reliability.
failures::NodeHistory random_history(int nodes, double until, std::uint64_t seed) {
  failures::NodeHistory h;
  h.reset(nodes, true);
  Engine rng = make_stream(seed, 0, Purpose::failures, "reliability_alloc");
  std::vector<std::pair<double, int>> events;
  for (int n = 0; n < nodes; ++n) {
    double t = 0;
    const double mean = 100 * kHour / (n % 4 + 1);
    while ((t += -mean * std::log(uniform01(rng))) < until) events.emplace_back(t, n);
  }
  std::sort(events.begin(), events.end());
  for (const auto& [t, n] : events) h.record_failure(n, t);
  return h;
}

policy::NodeSet free_set(int nodes, const std::vector<int>& busy) {
  policy::NodeSet s(nodes);
  for (int n = 0; n < nodes; ++n)
    if (std::find(busy.begin(), busy.end(), n) == busy.end()) s.insert(n);
  return s;
}

// Brute force: R_sys (a product of R_i, Eq. 5.4) of every window of k consecutive free nodes.
std::vector<int> brute_window(const reliability::OnlineReliability& m,
                              const failures::NodeHistory& h, const policy::NodeSet& free,
                              double now, double x, int k, bool most) {
  std::vector<int> ids;
  for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1)) ids.push_back(n);
  double best = most ? -1 : 2;
  std::size_t at = 0;
  for (std::size_t s = 0; s + static_cast<std::size_t>(k) <= ids.size(); ++s) {
    double r = 1;
    for (int i = 0; i < k; ++i) r *= std::exp(-m.hazard(h, ids[s + i], now, x));
    if (most ? r > best * (1 + 1e-12) : r < best * (1 - 1e-12)) best = r, at = s;
  }
  return {ids.begin() + static_cast<std::ptrdiff_t>(at),
          ids.begin() + static_cast<std::ptrdiff_t>(at) + k};
}

std::vector<int> run_alloc(policy::Allocator& a, const failures::NodeHistory& h,
                           const policy::NodeSet& free, double now, double x, int k) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(k));
  policy::AllocationContext ctx{now, 0, x, 0, &h};
  a.allocate(ctx, free, out);
  return {out.begin(), out.end()};
}

}  // namespace

TEST_CASE("RAS picks the adjacent free window of maximum R_sys (brute force, both laws)",
          "[reliability_alloc]") {
  for (const OnlineLaw law : {OnlineLaw::exponential, OnlineLaw::weibull}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const int nodes = 12;
      const double now = 3000 * kHour;
      const auto h = random_history(nodes, now, seed);
      const auto free = free_set(nodes, {static_cast<int>(seed % 12), 5});
      OnlineOptions o{law, 100 * kHour};
      reliability::OnlineReliability m(o);
      m.update(h, now);
      for (int k = 1; k <= free.count(); ++k) {
        ReliabilityAllocator ras(ReliabilityMode::ras, o, 86400);
        INFO("seed " << seed << " k " << k);
        CHECK(run_alloc(ras, h, free, now, 20 * kHour, k) ==
              brute_window(m, h, free, now, 20 * kHour, k, true));
      }
    }
  }
}

TEST_CASE("LJRAS: longer than the threshold -> max R_sys window, not longer -> min",
          "[reliability_alloc]") {
  const int nodes = 10;
  const double now = 2000 * kHour;
  const auto h = random_history(nodes, now, 11);
  const auto free = free_set(nodes, {3});
  OnlineOptions o{OnlineLaw::weibull, 50 * kHour};
  reliability::OnlineReliability m(o);
  m.update(h, now);
  const double day = 86400;
  for (const double x : {0.5 * day, day, 1.0001 * day, 3 * day}) {
    ReliabilityAllocator lj(ReliabilityMode::ljras, o, day);
    const bool longer = x > day;  // Fig. 5.4 line 4: run_length > 1 day
    INFO("x = " << x / day << " days");
    CHECK(run_alloc(lj, h, free, now, x, 3) == brute_window(m, h, free, now, x, 3, longer));
  }
  // The split matters here: the most and the least reliable windows differ.
  CHECK(brute_window(m, h, free, now, day, 3, true) !=
        brute_window(m, h, free, now, day, 3, false));
}

TEST_CASE("RA takes the k most reliable free nodes, adjacent or not", "[reliability_alloc]") {
  const int nodes = 16;
  const double now = 2500 * kHour;
  const auto h = random_history(nodes, now, 5);
  const auto free = free_set(nodes, {0, 7});
  OnlineOptions o{OnlineLaw::weibull, 100 * kHour};
  reliability::OnlineReliability m(o);
  m.update(h, now);
  std::vector<std::pair<double, int>> all;
  for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1))
    all.emplace_back(m.hazard(h, n, now, 10 * kHour), n);
  std::sort(all.begin(), all.end());
  ReliabilityAllocator ra(ReliabilityMode::ra, o, 86400);
  auto got = run_alloc(ra, h, free, now, 10 * kHour, 5);
  std::vector<int> want;
  for (int i = 0; i < 5; ++i) want.push_back(all[static_cast<std::size_t>(i)].second);
  CHECK(got == want);
}

TEST_CASE("Refits happen at multiples of the period and use only failures up to that instant",
          "[reliability_alloc]") {
  failures::NodeHistory h;
  h.reset(2, true);
  // Node 0: failures at 100, 400, 1000, 1900, 2100 s; node 1: one failure at 50 s.
  for (const double t : {100.0, 400.0, 1000.0, 1900.0}) h.record_failure(0, t);
  h.record_failure(1, 50);
  reliability::OnlineReliability m(OnlineOptions{OnlineLaw::weibull, 1000});
  m.update(h, 999);  // before the first refit instant: nothing known, all equally reliable
  CHECK(m.refits() == 0);
  CHECK(m.hazard(h, 0, 999, 500) == 0);
  h.record_failure(0, 2100);  // recorded by "now" = 2500, after the refit instant 2000
  m.update(h, 2500);
  CHECK(m.refits() == 1);
  CHECK(m.refit_instant() == 2000);
  // The Weibull MLE of the TTFs up to 2000 s (300, 600, 900 s), not of the 2100 s failure.
  const reliability::Fit f =
      reliability::fit_mle(reliability::Law::weibull, {300 / kHour, 600 / kHour, 900 / kHour});
  CHECK(m.shape(0) == Approx(f.p1).epsilon(1e-12));
  CHECK(m.scale_s(0) == Approx(f.p2 * kHour).epsilon(1e-12));
  // Node 1 (one failure, no TTF): exponential MLE lambda = n / tau = 1 / 2000 s.
  CHECK(m.shape(1) == 1.0);
  CHECK(m.scale_s(1) == Approx(2000.0));
  m.update(h, 2999);  // same period: no refit
  CHECK(m.refits() == 1);
  m.update(h, 3000);
  CHECK(m.refits() == 2);
  const reliability::Fit g = reliability::fit_mle(
      reliability::Law::weibull, {300 / kHour, 600 / kHour, 900 / kHour, 200 / kHour});
  CHECK(m.shape(0) == Approx(g.p1).epsilon(1e-12));
  // Exponential law (Eq. 5.3): -log R = lambda x with lambda = 5 / 3000 s for node 0.
  reliability::OnlineReliability e(OnlineOptions{OnlineLaw::exponential, 1000});
  e.update(h, 3000);
  CHECK(e.hazard(h, 0, 3000, 600) == Approx(600 * 5 / 3000.0));
  // A node with no failure by tau gets the pooled rate: 6 failures / (3 nodes x 3000 s).
  failures::NodeHistory g3;
  g3.reset(3, true);
  for (const double t : {100.0, 400.0, 1000.0, 1900.0, 2100.0}) g3.record_failure(0, t);
  g3.record_failure(1, 50);
  reliability::OnlineReliability e3(OnlineOptions{OnlineLaw::exponential, 1000});
  e3.update(g3, 3000);
  CHECK(e3.scale_s(2) == Approx(3 * 3000.0 / 6));
  CHECK(e3.scale_s(1) == Approx(3000.0));
}

TEST_CASE("No allocator reads a failure after now: decisions before T ignore failures after T",
          "[reliability_alloc]") {
  // Failures A; failures B = A plus a burst on nodes 0-7 after T. Jobs starting before T must
  // get the same nodes under both (the engine's history holds only the past).
  Engine rng = make_stream(3, 0, Purpose::failures, "no_future");
  std::vector<failures::FailureEvent> a;
  double t = 0;
  for (int i = 0; i < 300; ++i) {
    t += -2000 * std::log(uniform01(rng));
    a.push_back({t, static_cast<std::int32_t>(uniform01(rng) * 16), 600});
  }
  const double cut = a[80].time_s;
  auto b = a;
  for (int i = 0; i < 40; ++i) b.push_back({cut + 10 + i, static_cast<std::int32_t>(i % 8), 60});
  std::sort(b.begin(), b.end(), [](const auto& x, const auto& y) { return x.time_s < y.time_s; });
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 200; ++i)
    jobs.push_back(testing::job(i, i * 1500.0, 3000 + 97.0 * (i % 13), 1 + i % 5));

  struct Recorder final : policy::Allocator {
    explicit Recorder(policy::Allocator& a) : inner(a) {}
    policy::Allocator& inner;
    std::vector<std::pair<double, std::vector<std::int32_t>>> log;
    using policy::Allocator::allocate;
    std::string_view name() const override { return inner.name(); }
    bool needs_failure_times() const override { return inner.needs_failure_times(); }
    void allocate(const policy::AllocationContext& c, const policy::NodeSet& f,
                  std::span<std::int32_t> out) override {
      inner.allocate(c, f, out);
      log.emplace_back(c.now_s, std::vector<std::int32_t>(out.begin(), out.end()));
    }
  };
  for (const auto mode : {ReliabilityMode::ras, ReliabilityMode::ljras, ReliabilityMode::ra}) {
    std::vector<std::vector<std::pair<double, std::vector<std::int32_t>>>> logs;
    for (const auto* fails : {&a, &b}) {
      ReliabilityAllocator inner(mode, OnlineOptions{OnlineLaw::weibull, 20000}, 3000);
      Recorder rec(inner);
      testing::ListFailures src(*fails);
      auto q = policy::make_queue_policy("fcfs");
      sim::SimConfig cfg;
      cfg.nodes = 16;
      sim::Simulation s(cfg, jobs, src, *q, rec);
      (void)s.run();  // checks the engine's invariants
      logs.push_back(rec.log);
    }
    std::size_t before = 0;
    for (std::size_t i = 0; i < logs[0].size() && logs[0][i].first <= cut; ++i, ++before) {
      REQUIRE(i < logs[1].size());
      CHECK(logs[0][i] == logs[1][i]);
    }
    CHECK(before > 50);
    // The future burst does change later decisions (so a leak would have shown above).
    CHECK(logs[0] != logs[1]);
  }
}

TEST_CASE("Waste by run-length category and size: totals, %MWT, ACT/AWT, unit-length MCT/MWT",
          "[reliability_alloc]") {
  CHECK(sim::length_category(59) == 0);
  CHECK(sim::length_category(60) == 1);
  CHECK(sim::length_category(6 * kHour) == 3);
  CHECK(sim::length_category(2 * 86400) == 5);
  CHECK(sim::size_bin(32) == 0);
  CHECK(sim::size_bin(33) == 1);
  CHECK(sim::size_bin(1024) == 5);
  std::vector<sim::JobRecord> r(3);
  // Job 0: 2 h on 64 nodes, 1 h lost; job 1: 30 s on 1 node, no loss; job 2: rejected.
  r[0].state = sim::JobState::done;
  r[0].runtime_s = 2 * kHour, r[0].size = r[0].requested_size = 64;
  r[0].lost_s = kHour, r[0].first_start_s = 0, r[0].finish_s = 3 * kHour;
  r[1].state = sim::JobState::done;
  r[1].runtime_s = 30, r[1].size = r[1].requested_size = 1;
  r[1].first_start_s = 10, r[1].finish_s = 40;
  r[2].state = sim::JobState::rejected;
  const auto w = sim::waste_breakdown(r, workload::Speedup{});
  CHECK(w.total_h == Approx(1.0));
  CHECK(w.length_waste_h[2] == Approx(1.0));  // C: 1 h <= 2 h < 6 h
  CHECK(w.length_pmwt[2] == Approx(50.0));
  CHECK(w.length_jobs[0] == 1);
  CHECK(w.size_waste_h[1] == Approx(1.0));
  CHECK(w.act_s == Approx((3 * kHour + 30) / 2));
  CHECK(w.awt_s == Approx(kHour / 2));
  // Unit run lengths 2 h / 64 and 30 s / 1.
  CHECK(w.mwt_norm == Approx(kHour / (2 * kHour / 64 + 30)));
}

TEST_CASE("Bad input names its key: refit, ljras_threshold, reliability_law, workload.speedup",
          "[reliability_alloc]") {
  const auto key_of = [](auto&& f) { return faultsweep::testing::thrown_key(f); };
  CHECK(key_of([] {
          reliability::OnlineReliability m(OnlineOptions{OnlineLaw::weibull, 0});
        }) == "refit");
  CHECK(key_of([] {
          reliability::OnlineReliability m(OnlineOptions{OnlineLaw::weibull, -5});
        }) == "refit");
  CHECK(key_of([] { ReliabilityAllocator a(ReliabilityMode::ljras, OnlineOptions{}, -1); }) ==
        "ljras_threshold");
  CHECK(key_of([] { (void)reliability::online_law_from("gamma"); }) == "reliability_law");
  Params p;
  p.set("moldable_size", std::string("ra_opt"));
  CHECK(key_of([&] { (void)policy::make_point_size_chooser(p); }) == "workload.speedup");
  p.set("workload.speedup", std::string("amdahl"));
  p.set("reliability_law", std::string("lognormal"));
  CHECK(key_of([&] { (void)policy::make_point_size_chooser(p); }) == "reliability_law");
}
