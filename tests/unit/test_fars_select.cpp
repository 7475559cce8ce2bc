// Tests of FARS job selection (policy/fars_select, FARS §4): the dynamic-programming knapsack
// (Eq. 5) equals brute force on random small instances, including its tie-break; the residual
// rule (§4.4) picks the best remaining job; each gain formula (Eqs. 2-4) on a hand-worked case;
// the O_q estimator; bad `strategy` and `fars` input named by key.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/fars_select.hpp"
#include "input_support.hpp"

using namespace faultsweep;
using testing::make_params;
using testing::thrown_key;
using namespace faultsweep::policy;

namespace {

// The best subset by enumeration; among equal gains (within 1e-9) the smallest bit mask,
// item k = bit k: the tie-break Knapsack documents.
std::uint32_t brute_force(const std::vector<std::int32_t>& w, const std::vector<double>& v,
                          int capacity, double& best) {
  best = 0;
  std::uint32_t best_mask = 0;
  for (std::uint32_t mask = 1; mask < (1u << w.size()); ++mask) {
    int weight = 0;
    double value = 0;
    for (std::size_t k = 0; k < w.size(); ++k)
      if (mask >> k & 1u) weight += w[k], value += v[k];
    if (weight <= capacity && value > best + 1e-9) best = value, best_mask = mask;
  }
  return best_mask;
}

SuspiciousJob sjob(std::int64_t id, std::int32_t size, std::int32_t suspicious,
                   double safe_point_s = 0, double runtime_s = 1000) {
  return SuspiciousJob{id, size, suspicious, safe_point_s, runtime_s};
}

}  // namespace

TEST_CASE("fars: the dynamic-programming knapsack equals brute force on random instances",
          "[fars]") {
  // 600 instances (seed 20090601): 1-10 items, weights 1-8, capacity 0-30; half with real
  // gains in (-2, 8) (some items not worth taking), half with integer gains 0-4 (many ties).
  // The DP must reach the brute-force optimum, stay within capacity, and choose the same
  // subset (for ties: the documented smallest-mask rule).
  Engine rng = make_stream(20090601, 0, Purpose::tiebreaks, "knapsack");
  Knapsack ks(10, 30);
  std::vector<std::uint8_t> chosen;
  int ties = 0;
  for (int inst = 0; inst < 600; ++inst) {
    const auto n = static_cast<std::size_t>(1 + rng(10));
    const int capacity = static_cast<int>(rng(31));
    std::vector<std::int32_t> w(n);
    std::vector<double> v(n);
    for (std::size_t k = 0; k < n; ++k) {
      w[k] = static_cast<std::int32_t>(1 + rng(8));
      v[k] = inst % 2 ? static_cast<double>(rng(5)) : -2 + 10 * uniform01(rng);
    }
    double best = 0;
    const std::uint32_t mask = brute_force(w, v, capacity, best);
    const double got = ks.solve(w, v, capacity, chosen);
    std::uint32_t got_mask = 0;
    int weight = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (chosen[k]) got_mask |= 1u << k, weight += w[k];
    INFO("instance " << inst << ": " << n << " items, capacity " << capacity);
    REQUIRE(std::abs(got - best) < 1e-9);
    REQUIRE(weight <= capacity);
    REQUIRE(got_mask == mask);
    ties += inst % 2;
  }
  CHECK(ties == 300);
}

TEST_CASE("fars: the knapsack beats a greedy choice on a hand-checked case", "[fars]") {
  // Capacity 5; weights 4, 3, 2 with gains 5, 4, 4: the largest gain alone (5) leaves no room;
  // the optimum takes the 3- and 2-node items for 8.
  Knapsack ks(3, 5);
  std::vector<std::uint8_t> chosen;
  const std::vector<std::int32_t> w{4, 3, 2};
  const std::vector<double> v{5, 4, 4};
  CHECK(ks.solve(w, v, 5, chosen) == 8);
  CHECK(chosen == std::vector<std::uint8_t>{0, 1, 1});
  CHECK(ks.solve(w, v, 0, chosen) == 0);
  CHECK(chosen == std::vector<std::uint8_t>{0, 0, 0});
}

TEST_CASE("fars: each gain formula on a hand-worked case", "[fars]") {
  // p = 0.5 and 2 suspicious nodes: f = 1 - 0.5^2 = 0.75. t = 1000, I_F = 600, last safe point
  // 400: a failure in the next interval loses 1000 + 300 - 400 = 900 s. O_F = 100, O_r = 50,
  // O_q = 200, job of 8 nodes running 2000 s failure-free.
  CHECK(failure_probability(0.5, 2) == 0.75);
  CHECK(failure_probability(1.0, 3) == 1.0);
  CHECK(failure_probability(0.1, 1) == Approx(0.1));
  CHECK(failure_probability(0.5, 0) == 0.0);
  GainInputs in{.now_s = 1000,
                .precision = 0.5,
                .interval_s = 600,
                .overhead_s = 100,
                .restart_s = 50,
                .queue_wait_s = 200};
  const SuspiciousJob j = sjob(1, 8, 2, 400, 2000);
  const double f = failure_probability(0.5, 2);
  // SUL-D (Eq. 2): 0.75 x 8 x (900 - 100) = 4800 node-seconds.
  CHECK(fars_gain(FarsStrategy::sul_d, j, in, f) == Approx(4800));
  // JFR-D (Eq. 3): f itself.
  CHECK(fars_gain(FarsStrategy::jfr_d, j, in, f) == 0.75);
  // FSD-D (Eq. 4): 0.75 x (900 + 200 + 50 - 100) / 2000 = 0.39375.
  CHECK(fars_gain(FarsStrategy::fsd_d, j, in, f) == Approx(0.39375));
  // ... with t_i below the 10 s threshold of §5.3: divided by 10, not by 4.
  CHECK(fars_gain(FarsStrategy::fsd_d, sjob(1, 8, 2, 400, 4), in, f) == Approx(78.75));
  // A move that costs more than it saves has a negative SUL-D gain.
  in.overhead_s = 1000;
  CHECK(fars_gain(FarsStrategy::sul_d, j, in, f) < 0);
}

TEST_CASE("fars: the residual rule picks the best remaining job", "[fars]") {
  // JFR-D, p = 0.5, 3 spare nodes. Job 1 (2 suspicious, f = 0.75) fits and is chosen; R = 1 is
  // left. Jobs 2 and 3 (4 and 5 suspicious) do not fit.
  //   paper (§4.4): f over n^s - R: job 2 1 - 0.5^3 = 0.875, job 3 1 - 0.5^4 = 0.9375 -> job 3;
  //   reduction: job 2 0.5^3 - 0.5^4 = 0.0625, job 3 0.5^4 - 0.5^5 = 0.03125 -> job 2.
  const std::vector<SuspiciousJob> jobs{sjob(3, 6, 5), sjob(1, 4, 2), sjob(2, 4, 4)};
  const GainInputs in{.now_s = 1000, .precision = 0.5, .interval_s = 600};
  FarsSelector sel(8, 16);
  FarsSelection out;
  sel.select(FarsStrategy::jfr_d, jobs, in, 3, out);
  CHECK(out.jobs == std::vector<std::int64_t>{1});
  CHECK(out.nodes_used == 2);
  CHECK(out.gain == 0.75);
  REQUIRE(out.has_residual);
  CHECK(out.residual_job == 3);
  CHECK(out.residual_nodes == 1);
  CHECK(out.residual_gain == 0.9375);
  sel.select(FarsStrategy::jfr_d, jobs, in, 3, out, ResidualRule::reduction);
  CHECK(out.jobs == std::vector<std::int64_t>{1});
  REQUIRE(out.has_residual);
  CHECK(out.residual_job == 2);
  CHECK(out.residual_gain == 0.0625);

  // No spare node left (capacity 2 exactly used): no residual.
  sel.select(FarsStrategy::jfr_d, jobs, in, 2, out);
  CHECK(out.jobs == std::vector<std::int64_t>{1});
  CHECK_FALSE(out.has_residual);

  // SUL-D where every move costs more than it saves (O_F = 10,000 s): nothing, no residual.
  GainInputs costly = in;
  costly.overhead_s = 10000;
  sel.select(FarsStrategy::sul_d, jobs, costly, 3, out);
  CHECK(out.jobs.empty());
  CHECK_FALSE(out.has_residual);

  // Equal residual gains: the lower id wins (jobs 5 and 4 identical, 3 spare nodes, none fits).
  const std::vector<SuspiciousJob> twins{sjob(5, 8, 6), sjob(4, 8, 6)};
  sel.select(FarsStrategy::jfr_d, twins, in, 3, out);
  CHECK(out.jobs.empty());
  REQUIRE(out.has_residual);
  CHECK(out.residual_job == 4);
  CHECK(out.residual_nodes == 3);
}

TEST_CASE("fars: the selection depends on the jobs, not on the order they are listed", "[fars]") {
  // 12 JFR-D jobs with only 3 distinct suspicious counts: many equal gains. Every rotation of
  // the list gives the same chosen ids (ties resolved by id).
  std::vector<SuspiciousJob> jobs;
  for (int i = 0; i < 12; ++i) jobs.push_back(sjob(100 - 7 * i, 10, 1 + i % 3));
  const GainInputs in{.now_s = 50, .precision = 0.3, .interval_s = 60};
  FarsSelector sel(12, 64);
  FarsSelection first, out;
  sel.select(FarsStrategy::jfr_d, jobs, in, 7, first);
  CHECK(first.nodes_used <= 7);
  CHECK(!first.jobs.empty());
  for (int r = 1; r < 12; ++r) {
    std::rotate(jobs.begin(), jobs.begin() + 1, jobs.end());
    sel.select(FarsStrategy::jfr_d, jobs, in, 7, out);
    CHECK(out.jobs == first.jobs);
    CHECK(out.residual_job == first.residual_job);
  }
  sel.select(FarsStrategy::none, jobs, in, 7, out);
  CHECK(out.jobs.empty());
  CHECK_FALSE(out.has_residual);
}

TEST_CASE("fars: O_q is the last or the mean observed queue wait", "[fars]") {
  QueueWaitEstimator last(QueueWaitEstimator::Mode::last), mean(QueueWaitEstimator::Mode::mean);
  CHECK(last.estimate_s() == 0);
  CHECK(mean.estimate_s() == 0);
  for (const double w : {10.0, 40.0, 22.0}) last.observe(w), mean.observe(w);
  CHECK(last.estimate_s() == 22);
  CHECK(mean.estimate_s() == 24);
  CHECK(mean.observations() == 3);
}

TEST_CASE("fars: the fars table and the strategy are read and checked naming the key", "[fars]") {
  CHECK(fars_strategy_from("sul_d") == FarsStrategy::sul_d);
  CHECK(to_string(FarsStrategy::fsd_d) == "fsd_d");
  CHECK(thrown_key([] { fars_strategy_from("sul"); }) == "strategy");

  const FarsConfig c = FarsConfig::from_table(
      make_params({{"interval", 3600.0}, {"checkpoint_cost", 300.0}, {"restart_cost", 60.0}}));
  CHECK(c.interval_s == 3600);
  CHECK(c.migration_overhead_s() == 360);  // stop-and-restart: O_ckp + O_r
  CHECK(c.queue_wait == QueueWaitEstimator::Mode::mean);
  const FarsConfig live =
      FarsConfig::from_table(make_params({{"interval", 600.0},
                                          {"overhead", std::string("live")},
                                          {"restart_cost", 30.0},
                                          {"queue_wait", std::string("last")}}));
  CHECK(live.migration_overhead_s() == 30);  // live migration: O_r
  CHECK(live.queue_wait == QueueWaitEstimator::Mode::last);
  CHECK_FALSE(live.hold_vacated);  // the default: vacated nodes go back to the queue
  CHECK(FarsConfig::from_table(make_params({{"interval", 600.0},
                                            {"overhead", std::string("live")},
                                            {"restart_cost", 30.0},
                                            {"hold_vacated", true}}))
            .hold_vacated);

  const auto key_of = [](Params t) { return thrown_key([&] { FarsConfig::from_table(t); }); };
  CHECK(key_of(make_params({{"interval", 0.0}, {"restart_cost", 1.0}, {"checkpoint_cost", 1.0}})) ==
        "fars.interval");
  CHECK(key_of(make_params({{"restart_cost", 1.0}, {"checkpoint_cost", 1.0}})) == "fars.interval");
  CHECK(
      key_of(make_params({{"interval", 60.0}, {"restart_cost", 1.0}, {"checkpoint_cost", -1.0}})) ==
      "fars.checkpoint_cost");
  CHECK(
      key_of(make_params({{"interval", 60.0}, {"restart_cost", -5.0}, {"checkpoint_cost", 1.0}})) ==
      "fars.restart_cost");
  CHECK(key_of(make_params({{"interval", 60.0}, {"restart_cost", 1.0}})) == "fars.checkpoint_cost");
  CHECK(key_of(make_params(
            {{"interval", 60.0}, {"restart_cost", 1.0}, {"overhead", std::string("fast")}})) ==
        "fars.overhead");
  CHECK(key_of(make_params({{"interval", 60.0},
                            {"restart_cost", 1.0},
                            {"overhead", std::string("live")},
                            {"queue_wait", std::string("median")}})) == "fars.queue_wait");
  CHECK(key_of(make_params({{"interval", 60.0},
                            {"restart_cost", 1.0},
                            {"overhead", std::string("live")},
                            {"hold_vacated", std::string("yes")}})) == "fars.hold_vacated");
  CHECK(key_of(make_params({{"intervall", 60.0}})) == "fars.intervall");
}
