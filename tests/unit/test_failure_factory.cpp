// The failures table (failures/factory.hpp): the same table, nodes and replica give the same
// events; Zhang et al.'s streams paired across W, alpha and downtime; 'none', duration keys and
// bad input naming its key; and Zhang et al. Table 1's failures per day beside ours.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "failure_support.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/zhang.hpp"
#include "input_support.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::Value;
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
using faultsweep::testing::take;
using faultsweep::testing::zhang_config;
using faultsweep::testing::zhang_source;

// ---------------------------------------------------------------------------------------------
// The factory

TEST_CASE("Factory: same table, nodes and replica give the same events", "[failures]") {
  const std::vector<Params> tables = {
      make_params({{"process", str("renewal")},
                   {"dist", str("weibull")},
                   {"shape", 0.7},
                   {"scale", 30 * kDay},
                   {"downtime", 3600.0}}),
      lognormal_renewal_table(),
      bathtub_table(),
      make_params({{"process", str("zhang")},
                   {"shape", 0.85},
                   {"scale", 18000.0},
                   {"W", std::int64_t{8}},
                   {"alpha", 0.99},
                   {"downtime", 120.0},
                   {"downtime_dist", str("lognormal")},
                   {"downtime_sigma", 1.0}}),
      make_params({{"process", str("trace")},
                   {"file", str("lanl_small.csv")},
                   {"system", std::int64_t{20}},
                   {"node_offset", std::int64_t{5}}}),
  };
  for (const auto& t : tables) {
    INFO(t.canonical_text());
    REQUIRE_NOTHROW(validate_failures(t, 64, context().base_dir));
    auto a = make_failure_source(t, 64, 365 * kDay, context(0));
    auto b = make_failure_source(t, 64, 365 * kDay, context(0));
    auto c = make_failure_source(t, 64, 365 * kDay, context(1));
    const auto ea = take(*a, 2000), eb = take(*b, 2000), ec = take(*c, 2000);
    REQUIRE(!ea.empty());
    require_time_ordered(ea);
    REQUIRE(ea.size() == eb.size());
    bool differs = ea.size() != ec.size();
    for (std::size_t i = 0; i < ea.size(); ++i) {
      REQUIRE(ea[i].time_s == eb[i].time_s);
      REQUIRE(ea[i].node == eb[i].node);
      REQUIRE(ea[i].downtime_s == eb[i].downtime_s);
      if (i < ec.size()) differs = differs || ea[i].time_s != ec[i].time_s;
      REQUIRE(ea[i].node < 64);
    }
    if (t.str("process") != "trace") CHECK(differs);  // another replica, other failures
  }
}

TEST_CASE("Factory: Zhang's streams are paired across W, alpha and downtime", "[failures]") {
  auto zhang = [](std::int64_t w, double alpha, double down) {
    return make_params({{"process", str("zhang")},
                        {"shape", 0.65},
                        {"scale", 18000.0},
                        {"W", w},
                        {"alpha", alpha},
                        {"downtime", down}});
  };
  const auto base = take(*make_failure_source(zhang(2, 0.5, 120), 320, kInf, context()), 64);
  const auto down = take(*make_failure_source(zhang(2, 0.5, 3600), 320, kInf, context()), 64);
  const auto skew = take(*make_failure_source(zhang(2, 0.99, 120), 320, kInf, context()), 64);
  const auto corr = take(*make_failure_source(zhang(64, 0.5, 120), 320, kInf, context()), 64);
  for (std::size_t i = 0; i < 64; ++i) {
    CHECK(down[i].time_s == base[i].time_s);
    CHECK(down[i].node == base[i].node);
    CHECK(down[i].downtime_s == 3600);
    CHECK(skew[i].time_s == base[i].time_s);
  }
  // W = 64 reorders the same 64 draws: the segment ends at the same time.
  CHECK(corr[63].time_s == Approx(base[63].time_s).epsilon(1e-12));
}

TEST_CASE("Factory: 'none' never fails, durations keys, bad input names the key", "[failures]") {
  auto none = make_failure_source(make_params({{"process", str("none")}}), 8, kInf, context());
  CHECK(none->next().time_s == kInf);
  const auto& d = failure_duration_keys();
  for (const char* k : {"downtime", "mtbf", "scale", "mean", "value"})
    CHECK(std::find(d.begin(), d.end(), k) != d.end());

  auto key_of = [](const Params& t, int nodes = 64) -> std::string {
    try {
      validate_failures(t, nodes, context().base_dir);
    } catch (const InputError& e) {
      return e.key() + " | " + e.expected();
    }
    return "";
  };
  CHECK(key_of(make_params({})).rfind("process |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("poisson")}})).rfind("process |", 0) == 0);
  const std::string unknown = key_of(make_params({{"process", str("zhang")},
                                                  {"shape", 0.85},
                                                  {"scale", 18000.0},
                                                  {"downtime", 120.0},
                                                  {"window", std::int64_t{8}}}));
  CHECK(unknown.rfind("window |", 0) == 0);
  CHECK(unknown.find("allowed keys: process, shape, scale, W, alpha, downtime") !=
        std::string::npos);
  CHECK(key_of(make_params({{"process", str("zhang")},
                            {"shape", -1.0},
                            {"scale", 18000.0},
                            {"downtime", 120.0}}))
            .rfind("shape |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("zhang")},
                            {"shape", 0.5},
                            {"scale", 18000.0},
                            {"W", std::int64_t{0}},
                            {"downtime", 120.0}}))
            .rfind("W |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("zhang")}, {"shape", 0.5}, {"scale", 18000.0}}))
            .rfind("downtime |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("bathtub")},
                            {"mtbf", 1e6},
                            {"downtime", 60.0},
                            {"downtime_dist", str("gamma")}}))
            .rfind("downtime_dist |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("bathtub")},
                            {"mtbf", 1e6},
                            {"downtime", 60.0},
                            {"downtime_dist", str("lognormal")}}))
            .rfind("downtime_sigma |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("renewal")},
                            {"dist", str("weibull")},
                            {"shape", 0.7},
                            {"downtime", 60.0}}))
            .rfind("scale |", 0) == 0);  // from Dist::from_params
  CHECK(key_of(make_params({{"process", str("renewal")},
                            {"dist", str("weibull")},
                            {"shape", 0.7},
                            {"scale", 1e5},
                            {"sigma", 1.0},
                            {"downtime", 60.0}}))
            .rfind("sigma |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("trace")}, {"file", str("lanl_small.csv")}}))
            .rfind("system |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"file", str("lanl_small.csv")},
                            {"system", std::int64_t{20}},
                            {"cause", str("Hardware, Gremlins")}}))
            .rfind("cause |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"file", str("lanl_small.csv")},
                            {"system", std::int64_t{20}},
                            {"start", str("soon")}}))
            .rfind("start |", 0) == 0);
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"file", str("lanl_small.csv")},
                            {"system", std::int64_t{99}}}))
            .rfind("file |", 0) == 0);  // no record of system 99
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"file", str("lanl_small.csv")},
                            {"system", std::int64_t{20}}}),
               2)
            .rfind("file |", 0) == 0);  // 3 trace nodes do not fit a 2-node machine
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"format", str("csv")},
                            {"file", str("trace_small.csv")},
                            {"system", std::int64_t{20}}}))
            .rfind("system |", 0) == 0);  // csv traces take no system
  CHECK(key_of(make_params({{"process", str("trace")},
                            {"format", str("csv")},
                            {"file", str("trace_small.csv")}})) == "");
}

// ---------------------------------------------------------------------------------------------
// Zhang et al. Table 1: failures per day of the four shapes at scale 18000 s.
//
// The paper's counts imply a workload span of 266 / 4.3 = 198 / 3.2 = 61.9 days (62.7 and 65
// from the other rows): we use 62 days. "Empirical" is our generator (ZhangSource, W = 2,
// scale 18000 s) started at t = 0 and cut at 62 days, 4000 replicas, master seed 20240601.
//
//   shape  exact mean rate          ours over 62 days                      paper
//          1/(scale G(1+1/k)) /d    mean count (/d)   median  10-90 %      count  /d
//   0.20   0.040  (2.5 in 62 d)      14.17 (0.228)     12      2-30         78    1.2
//   0.55   2.820  (174.8)           176.17 (2.841)    176    143-209       138    2.2
//   0.65   3.513  (217.8)           218.15 (3.519)    218    188-248       198    3.2
//   0.85   4.412  (273.5)           273.25 (4.407)    273    248-299       266    4.3
//
// Why ours differ from the paper:
// - Shapes 0.55-0.85: our means agree with renewal theory, E N(t) ~ t/mu + (CV^2 - 1)/2 for a
//   process started new at t = 0 (176.2, 218.6, 273.7), and sit 2-28 % above the paper's
//   counts. The paper's counts are one generated trace each, not means: 266 is the 37th
//   percentile of our count distribution, 198 the 20th, 138 the 7th. If the paper generated
//   its four traces from the same uniforms (the shapes then transform one sequence, so the
//   counts are co-monotone), one trace slightly below the median explains all three rows; the
//   paper's "failures/day" is then that trace's count / ~62 days, not the mean rate.
// - Shape 0.20 cannot be reproduced with scale 18000 s: the mean rate is 0.04/day
//   (mean inter-failure time scale * Gamma(6) = 25 days). Over a 62-day span from t = 0 the
//   count is larger (14 on average, because this law's CV^2 = 251 makes the early renewal count
//   far exceed t/mu), but 78 never occurred in 4000 replicas. A trace with 78 failures needs an
//   average gap of 0.8 day; it would follow e.g. from discarding draws longer than ~12 days
//   (we estimate ~83 failures then), i.e. from truncating the law to keep failures "spread
//   throughout the entire span" (§3.2), or from a different scale for that row. The paper does
//   not say; we implement the untruncated law it states.
// - The scale unit: seconds is the only reading under which shapes 0.55-0.85 come out near the
//   paper (in minutes every rate would be 60 times lower).
TEST_CASE("Zhang Table 1: failures per day at scale 18000 s, ours beside the paper",
          "[failures][table1]") {
  struct Row {
    double shape;
    double exact_per_day;  // 86400 / (18000 Gamma(1 + 1/shape))
    double count_sum;      // total failures of 4000 replicas in [0, 62 d) at seed 20240601
    double median;
  };
  const double span_s = 62 * kDay;
  const int replicas = 4000;
  // clang-format off
  const Row rows[] = {
      {0.20, 0.04,             56663,   12},
      {0.55, 2.819500764071,  704690,  176},
      {0.65, 3.513202765559,  872612,  218},
      {0.85, 4.411946862978, 1092980,  273},
  };
  // clang-format on
  const bool print = std::getenv("FAULTSWEEP_PRINT_TABLE1") != nullptr;
  for (const Row& row : rows) {
    INFO("shape = " << row.shape);
    const double g1 = std::tgamma(1.0 + 1.0 / row.shape);
    const double mu = 18000.0 * g1;
    CHECK(kDay / mu == Approx(row.exact_per_day).epsilon(1e-11));
    std::vector<double> counts;
    double sum = 0;
    for (int r = 0; r < replicas; ++r) {
      ZhangSource src = zhang_source(zhang_config(row.shape, 2, 0.01), 320,
                                     static_cast<std::uint64_t>(r), span_s);
      double n = 0;
      while (src.next().time_s != kInf) n += 1;
      counts.push_back(n);
      sum += n;
    }
    std::sort(counts.begin(), counts.end());
    const double median = counts[replicas / 2];
    if (print)
      std::printf(
          "shape %.2f: exact %.3f/d; ours: sum %.0f, mean %.2f (%.3f/d), median %.0f, "
          "10-90%% %.0f-%.0f\n",
          row.shape, kDay / mu, sum, sum / replicas, sum / replicas / 62, median,
          counts[replicas / 10], counts[replicas * 9 / 10]);
    // Pinned at the fixed seed (changes only with the stream definition or the sampler).
    CHECK(sum == row.count_sum);
    CHECK(median == row.median);
    // And statistically sound: for shapes >= 0.55 the renewal expansion
    // t/mu + (CV^2 - 1)/2 holds by 62 days; the mean is within 5 standard errors of it.
    if (row.shape >= 0.5) {
      const double cv2 = std::tgamma(1.0 + 2.0 / row.shape) / (g1 * g1) - 1.0;
      const double expected = span_s / mu + 0.5 * (cv2 - 1.0);
      const double se = std::sqrt(span_s * cv2 / mu / replicas);
      CHECK(std::abs(sum / replicas - expected) < 5 * se);
    }
  }
}
