// Per-point summaries (sweep/stats.hpp) against values worked out by hand, and Student's t
// quantiles against the printed table.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "faultsweep/sweep/stats.hpp"

using faultsweep::sweep::student_t_quantile;
using faultsweep::sweep::summarize;
using faultsweep::sweep::Summary;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Summary summary_of(const std::vector<double>& v, bool deterministic = false) {
  const std::vector<std::uint8_t> done(v.size(), 1);
  return summarize(v.data(), done.data(), v.size(), deterministic);
}

}  // namespace

TEST_CASE("stats: student_t_quantile matches the table to 1e-5", "[stats]") {
  // t(0.975, df) as printed in every statistics table.
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706205).margin(1e-5));
  CHECK(student_t_quantile(0.975, 2) == Approx(4.302653).margin(1e-5));
  CHECK(student_t_quantile(0.975, 4) == Approx(2.776445).margin(1e-5));
  CHECK(student_t_quantile(0.975, 10) == Approx(2.228139).margin(1e-5));
  CHECK(student_t_quantile(0.975, 29) == Approx(2.045230).margin(1e-5));
  CHECK(student_t_quantile(0.995, 4) == Approx(4.604095).margin(1e-5));
  CHECK(student_t_quantile(0.9, 1) == Approx(3.077684).margin(1e-5));
  // Large df approaches the normal quantile 1.959964.
  CHECK(student_t_quantile(0.975, 1e6) == Approx(1.959964).margin(1e-5));
  // Tighter: the bisection is good to ~1e-10 relative in the tails (reference: scipy).
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706204736432095).epsilon(1e-9));
  CHECK(student_t_quantile(0.975, 29) == Approx(2.045229642132703).epsilon(1e-9));
  CHECK(student_t_quantile(0.975, 100) == Approx(1.983971518449633).epsilon(1e-9));
  // Symmetric about 0, and 0 at the median (to ~1e-8: the CDF is flat to rounding there).
  CHECK(student_t_quantile(0.5, 3) == Approx(0.0).margin(1e-7));
  CHECK(student_t_quantile(0.025, 4) == Approx(-2.776445).margin(1e-5));
  for (double df : {1.0, 2.0, 5.0, 29.0})
    CHECK(student_t_quantile(0.025, df) == Approx(-student_t_quantile(0.975, df)).epsilon(1e-12));
}

TEST_CASE("stats: summarize: mean, sample std, sem and t-based 95 % CI", "[stats]") {
  SECTION("two values: df = 1") {
    const Summary s = summary_of({1.0, 3.0});
    CHECK(s.n == 2);
    CHECK(s.mean == 2.0);
    CHECK(s.std == Approx(std::sqrt(2.0)).epsilon(1e-15));
    CHECK(s.sem == Approx(1.0).epsilon(1e-15));
    CHECK(s.ci95_lo == Approx(2.0 - 12.706205).margin(1e-5));
    CHECK(s.ci95_hi == Approx(2.0 + 12.706205).margin(1e-5));
  }
  SECTION("five values: df = 4") {
    // 1..5: mean 3, sum of squares 10, variance 2.5, sem = sqrt(2.5 / 5).
    const Summary s = summary_of({1, 2, 3, 4, 5});
    CHECK(s.n == 5);
    CHECK(s.mean == 3.0);
    CHECK(s.std == Approx(std::sqrt(2.5)).epsilon(1e-15));
    CHECK(s.sem == Approx(std::sqrt(0.5)).epsilon(1e-15));
    CHECK(s.ci95_hi - s.mean == Approx(2.776445 * std::sqrt(0.5)).margin(1e-5));
    CHECK(s.mean - s.ci95_lo == Approx(2.776445 * std::sqrt(0.5)).margin(1e-5));
  }
  SECTION("thirty values: df = 29") {
    // 1..30: mean 15.5, variance n (n + 1) / 12 = 77.5.
    std::vector<double> v;
    for (int i = 1; i <= 30; ++i) v.push_back(i);
    const Summary s = summary_of(v);
    CHECK(s.n == 30);
    CHECK(s.mean == 15.5);
    CHECK(s.std == Approx(std::sqrt(77.5)).epsilon(1e-14));
    CHECK(s.sem == Approx(std::sqrt(77.5 / 30)).epsilon(1e-14));
    CHECK(s.ci95_lo == Approx(15.5 - 2.045230 * std::sqrt(77.5 / 30)).margin(1e-5));
    CHECK(s.ci95_hi == Approx(15.5 + 2.045230 * std::sqrt(77.5 / 30)).margin(1e-5));
  }
  SECTION("the variance is stable for values with a large common offset") {
    const Summary s = summary_of({1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5});
    CHECK(s.mean == 1e9 + 3);
    CHECK(s.std == Approx(std::sqrt(2.5)).epsilon(1e-9));
  }
}

TEST_CASE("stats: summarize counts only done, non-NaN values", "[stats]") {
  // Replicas 1 and 3 did not run (their values are garbage), replica 4 ran and gave NaN.
  const std::vector<double> v{1.0, 1000.0, 2.0, -50.0, kNaN, 3.0, 4.0, 5.0};
  const std::vector<std::uint8_t> done{1, 0, 1, 0, 1, 1, 1, 1};
  const Summary s = summarize(v.data(), done.data(), v.size(), false);
  const Summary ref = summary_of({1, 2, 3, 4, 5});
  CHECK(s.n == 5);
  CHECK(s.mean == ref.mean);
  CHECK(s.std == ref.std);
  CHECK(s.sem == ref.sem);
  CHECK(s.ci95_lo == ref.ci95_lo);
  CHECK(s.ci95_hi == ref.ci95_hi);

  SECTION("nothing done: n = 0 and everything else NaN") {
    const std::vector<std::uint8_t> none(v.size(), 0);
    const Summary z = summarize(v.data(), none.data(), v.size(), false);
    CHECK(z.n == 0);
    CHECK(std::isnan(z.mean));
    CHECK(std::isnan(z.std));
    CHECK(std::isnan(z.sem));
    CHECK(std::isnan(z.ci95_lo));
    CHECK(std::isnan(z.ci95_hi));
    CHECK(summarize(nullptr, nullptr, 0, false).n == 0);
  }
  SECTION("only NaN values: same as nothing done") {
    const Summary z = summary_of({kNaN, kNaN});
    CHECK(z.n == 0);
    CHECK(std::isnan(z.mean));
  }
  SECTION("one value: a mean but no spread") {
    const Summary one = summary_of({7.5});
    CHECK(one.n == 1);
    CHECK(one.mean == 7.5);
    CHECK(std::isnan(one.std));
    CHECK(std::isnan(one.sem));
    CHECK(std::isnan(one.ci95_lo));
    CHECK(std::isnan(one.ci95_hi));
  }
}

TEST_CASE("stats: summarize of a deterministic model: zero spread, a CI of zero width", "[stats]") {
  const Summary s = summary_of({0.875}, true);
  CHECK(s.n == 1);
  CHECK(s.mean == 0.875);
  CHECK(s.std == 0);
  CHECK(s.sem == 0);
  CHECK(s.ci95_lo == 0.875);
  CHECK(s.ci95_hi == 0.875);
  // Not run yet: still NaN, even for a deterministic model.
  const double v = 0.875;
  const std::uint8_t not_done = 0;
  const Summary z = summarize(&v, &not_done, 1, true);
  CHECK(z.n == 0);
  CHECK(std::isnan(z.mean));
  CHECK(std::isnan(z.ci95_lo));
}

TEST_CASE("stats: summarize depends only on the values, not on earlier calls", "[stats]") {
  // The t quantile is memoised per df; results must not depend on the order of calls.
  const Summary first = summary_of({1, 2, 3, 4, 5});
  (void)summary_of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  (void)summary_of({1, 2});
  const Summary again = summary_of({1, 2, 3, 4, 5});
  CHECK(std::memcmp(&first, &again, sizeof(Summary)) == 0);
}
