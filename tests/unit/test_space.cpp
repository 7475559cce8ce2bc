// Parameter spaces (sweep/space.hpp) and the rounds of replicas a stopping rule asks for
// (sweep/rounds.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/space.hpp"
#include "faultsweep/sweep/stats.hpp"
#include "faultsweep/sweep/store.hpp"

using namespace faultsweep::sweep;

namespace {

Axis axis_of_size(const std::string& name, std::size_t n) {
  Axis a;
  a.name = name;
  AxisMember m;
  m.key = name;
  for (std::size_t i = 0; i < n; ++i) m.values.emplace_back(static_cast<double>(i));
  a.members.push_back(m);
  return a;
}

}  // namespace

TEST_CASE("space: linear_values: n evenly spaced values with exact end points", "[space]") {
  const auto v = linear_values(0.1, 0.3, 3);
  REQUIRE(v.size() == 3);
  CHECK(v[0] == 0.1);
  CHECK(v[1] == Approx(0.2).epsilon(1e-15));
  CHECK(v[2] == 0.3);  // 0.1 + 0.2 * 2 / 2 would be 0.30000000000000004
  const auto w = linear_values(-1.0, 1.0, 5);
  CHECK(w == std::vector<double>{-1.0, -0.5, 0.0, 0.5, 1.0});
  CHECK(linear_values(4.0, 9.0, 1) == std::vector<double>{4.0});
  CHECK(linear_values(2.0, 2.0, 3) == std::vector<double>{2.0, 2.0, 2.0});
  for (int n : {2, 7, 40, 1001}) {
    const auto x = linear_values(0.7, 13.1, n);
    CHECK(x.front() == 0.7);
    CHECK(x.back() == 13.1);
    for (std::size_t i = 1; i < x.size(); ++i) CHECK(x[i] > x[i - 1]);
  }
}

TEST_CASE("space: log_values: n values evenly spaced in log with exact end points", "[space]") {
  const auto v = log_values(1e-3, 1e3, 7);
  REQUIRE(v.size() == 7);
  CHECK(v.front() == 1e-3);
  CHECK(v.back() == 1e3);
  for (int i = 0; i < 7; ++i) CHECK(v[i] == Approx(std::pow(10.0, i - 3)).epsilon(1e-12));
  for (int n : {2, 3, 40, 999}) {
    const auto x = log_values(360.0, 86400.0, n);  // 6 min to 24 h
    CHECK(x.front() == 360.0);
    CHECK(x.back() == 86400.0);
    for (std::size_t i = 1; i < x.size(); ++i) {
      CHECK(x[i] > x[i - 1]);
      if (i >= 2) CHECK(x[i] / x[i - 1] == Approx(x[1] / x[0]).epsilon(1e-10));
    }
  }
  CHECK(log_values(5.0, 50.0, 1) == std::vector<double>{5.0});
}

TEST_CASE("space: range_values: lo, lo + step, ... up to and including hi", "[space]") {
  CHECK(range_values(1, 5, 1) == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK(range_values(1, 32, 8) == std::vector<std::int64_t>{1, 9, 17, 25});
  CHECK(range_values(0, 9, 3) == std::vector<std::int64_t>{0, 3, 6, 9});
  CHECK(range_values(-2, 2, 2) == std::vector<std::int64_t>{-2, 0, 2});
  CHECK(range_values(7, 7, 5) == std::vector<std::int64_t>{7});
  CHECK(range_values(3, 2, 1).empty());
}

TEST_CASE("space: range_count counts without overflow, a range ending at INT64_MAX ends",
          "[space]") {
  constexpr std::int64_t kMax = INT64_MAX, kMin = INT64_MIN;
  CHECK(range_count(1, 5, 1) == 5);
  CHECK(range_count(1, 32, 8) == 4);
  CHECK(range_count(3, 2, 1) == 0);
  CHECK(range_count(1, 1000000000000, 1) == 1000000000000ULL);  // counted, never built
  CHECK(range_count(kMax - 2, kMax, 1) == 3);
  CHECK(range_count(kMin, kMax, 1) == UINT64_MAX);  // 2^64 values saturate
  CHECK(range_count(kMin, kMax, kMax) == 3);        // kMin, -1, kMax - 1
  // Before, x += step overflowed past INT64_MAX and the loop never ended.
  CHECK(range_values(kMax - 2, kMax, 1) == std::vector<std::int64_t>{kMax - 2, kMax - 1, kMax});
  CHECK(range_values(kMax - 10, kMax, 7) == std::vector<std::int64_t>{kMax - 10, kMax - 3});
  CHECK(range_values(kMin, kMin + 2, 2) == std::vector<std::int64_t>{kMin, kMin + 2});
}

TEST_CASE("space: grid_size_checked stops at the limit instead of overflowing", "[space]") {
  CHECK(grid_size_checked({}, 10) == 1);
  CHECK(grid_size_checked({2, 5}, 10) == 10);
  CHECK(grid_size_checked({2, 6}, 10) == 11);
  CHECK(grid_size_checked({1764119, 2761926, 3785993}, kMaxPoints) == kMaxPoints + 1);
  CHECK(grid_size_checked({1ULL << 22, 1ULL << 21, 1ULL << 21}, kMaxPoints) == kMaxPoints + 1);
  CHECK(grid_size_checked({UINT64_MAX, UINT64_MAX}, UINT64_MAX - 1) == UINT64_MAX);
  CHECK(grid_size_checked({7, 0, UINT64_MAX}, 10) == 0);  // an empty axis: no points
}

TEST_CASE("space: grid coordinates: the first axis varies slowest", "[space]") {
  const std::vector<Axis> none;
  CHECK(grid_size(none) == 1);
  CHECK(grid_coordinates(none, 0).empty());

  const std::vector<Axis> axes{axis_of_size("a", 2), axis_of_size("b", 3), axis_of_size("c", 4)};
  REQUIRE(grid_size(axes) == 24);
  CHECK(grid_coordinates(axes, 0) == std::vector<std::size_t>{0, 0, 0});
  CHECK(grid_coordinates(axes, 1) == std::vector<std::size_t>{0, 0, 1});
  CHECK(grid_coordinates(axes, 4) == std::vector<std::size_t>{0, 1, 0});
  CHECK(grid_coordinates(axes, 12) == std::vector<std::size_t>{1, 0, 0});
  CHECK(grid_coordinates(axes, 23) == std::vector<std::size_t>{1, 2, 3});
  // Row-major: p = (i * 3 + j) * 4 + k for every point.
  for (std::size_t p = 0; p < 24; ++p) {
    const auto c = grid_coordinates(axes, p);
    CHECK((c[0] * 3 + c[1]) * 4 + c[2] == p);
  }
  // A zero-length axis empties the grid.
  CHECK(grid_size({axis_of_size("a", 2), axis_of_size("b", 0)}) == 0);
}

// --- RoundPlanner ---------------------------------------------------------------------------

namespace {

JobSpec adaptive_job(int points, int min, int max, double ci95) {
  std::string means = "[";
  for (int p = 0; p < points; ++p) means += (p ? ", " : "") + std::to_string(p) + ".0";
  means += "]";
  return parse_job("[sweep]\nmodel = \"synthetic\"\nreplicas = { min = " + std::to_string(min) +
                       ", max = " + std::to_string(max) +
                       ", until = { metric = \"value\", ci95 = " + std::to_string(ci95) +
                       " } }\n[params]\nwork = 0\n[axes]\nmean = " + means + "\n",
                   "rounds.toml");
}

// Marks the tasks done with value(p, r) for metric "value" and 0.5 for "u".
template <class F>
void finish(ResultTable& t, const std::vector<std::uint64_t>& tasks, F value) {
  for (std::uint64_t task : tasks) {
    REQUIRE_FALSE(t.done[task]);
    t.done[task] = 1;
    t.value(0, task) = value(task / t.replicas_max, task % t.replicas_max);
    t.value(1, task) = 0.5;
  }
}

// Replica values of point 0 spread widely (std ~ 3); those of other points barely at all.
double spread(std::size_t p, std::size_t r) {
  const double wiggle = (r % 2 == 0 ? 1.0 : -1.0) * (1.0 + 0.01 * static_cast<double>(r));
  return static_cast<double>(p) + (p == 0 ? 3.0 * wiggle : 1e-4 * wiggle);
}

std::vector<std::uint64_t> replicas_of(std::size_t p, std::size_t from, std::size_t to,
                                       std::size_t R) {
  std::vector<std::uint64_t> v;
  for (std::size_t r = from; r < to; ++r) v.push_back(p * R + r);
  return v;
}

}  // namespace

TEST_CASE("space: RoundPlanner: a fixed count is one round of every task", "[space]") {
  const JobSpec job =
      parse_job("[sweep]\nmodel = \"synthetic\"\nreplicas = 3\n[axes]\nwork = [\"1ms\", \"1s\"]\n",
                "fixed.toml");
  ResultTable t(job.points.size(), 3, job.metric_count());
  RoundPlanner planner(job);
  const auto first = planner.next_round(t);
  // The expensive point (work = 1 s) first, ties by task id.
  CHECK(first == std::vector<std::uint64_t>{3, 4, 5, 0, 1, 2});
  CHECK(planner.round() == 0);
  CHECK(planner.planned_tasks() == 6);
  finish(t, first, [](std::size_t, std::size_t) { return 1.0; });
  CHECK(planner.next_round(t).empty());
}

TEST_CASE(
    "space: RoundPlanner: a stopping rule grows only the points that need it, deterministically",
    "[space]") {
  const JobSpec job = adaptive_job(3, 3, 40, 0.5);
  const std::size_t R = 40;
  ResultTable t(job.points.size(), R, job.metric_count());
  RoundPlanner planner(job);

  const auto r0 = planner.next_round(t);
  CHECK(planner.round() == 0);
  REQUIRE(r0 == std::vector<std::uint64_t>{0, 1, 2, 40, 41, 42, 80, 81, 82});
  finish(t, r0, spread);

  // Point 0: n = 3, the half-width t(0.975, 2) * s / sqrt(3) is far above 0.5, so it grows to
  // min(max, 2 n, max(n + 1, ceil(1.2 n (half / goal)^2))) = 6. Points 1, 2 have converged.
  std::vector<double> v0{spread(0, 0), spread(0, 1), spread(0, 2)};
  const std::uint8_t done3[3] = {1, 1, 1};
  const Summary s = summarize(v0.data(), done3, 3, false);
  const double half = 0.5 * (s.ci95_hi - s.ci95_lo);
  REQUIRE(half > 0.5);
  const int expect = std::min(
      {40, 6, std::max(4, static_cast<int>(std::ceil(1.2 * 3 * (half / 0.5) * (half / 0.5))))});
  CHECK(expect == 6);
  const auto r1 = planner.next_round(t);
  CHECK(planner.round() == 1);
  CHECK(r1 == replicas_of(0, 3, 6, R));
  CHECK(planner.planned_tasks() == 6 + 3 + 3);
  finish(t, r1, spread);

  // Doubling continues while the target is missed, capped at max.
  std::vector<std::vector<std::uint64_t>> rounds{r0, r1};
  for (;;) {
    const auto r = planner.next_round(t);
    if (r.empty()) break;
    for (std::uint64_t task : r) CHECK(task / R == 0);  // only point 0 grows
    rounds.push_back(r);
    finish(t, r, spread);
  }
  // Point 0's target went 3 -> 6 -> 12 -> 24 -> 40: doubling, then capped at max.
  std::vector<std::size_t> sizes;
  for (const auto& r : rounds) sizes.push_back(r.size());
  CHECK(sizes == std::vector<std::size_t>{9, 3, 6, 12, 16});
  CHECK(t.done_count() == 40 + 3 + 3);  // point 0 stopped at max: std ~ 3 needs > 40 replicas
  for (std::size_t r = 0; r < R; ++r) CHECK(t.done[r] == 1);

  // A second planner over the same results decides exactly the same rounds.
  ResultTable t2(job.points.size(), R, job.metric_count());
  RoundPlanner again(job);
  for (const auto& expected : rounds) {
    const auto r = again.next_round(t2);
    CHECK(r == expected);
    finish(t2, r, spread);
  }
  CHECK(again.next_round(t2).empty());
  CHECK(t2.done == t.done);
}

TEST_CASE("space: RoundPlanner: after a resume, finished rounds are skipped, not rerun",
          "[space]") {
  const JobSpec job = adaptive_job(2, 4, 16, 0.5);
  const std::size_t R = 16;
  // Round 0 finished before an interruption, and part of round 1.
  ResultTable t(job.points.size(), R, job.metric_count());
  finish(t, replicas_of(0, 0, 4, R), spread);
  finish(t, replicas_of(1, 0, 4, R), spread);
  finish(t, replicas_of(0, 4, 6, R), spread);
  RoundPlanner planner(job);
  const auto r = planner.next_round(t);
  CHECK(planner.round() == 1);  // round 0 had nothing left to do
  CHECK(r == replicas_of(0, 6, 8, R));
}

TEST_CASE("space: RoundPlanner: a relative target and points that cannot converge", "[space]") {
  // All-NaN results (a model that reports nothing) give no CI: no growth, no endless loop.
  const JobSpec job = parse_job(
      "[sweep]\nmodel = \"synthetic\"\nreplicas = { min = 2, max = 8, until = { metric = \"u\", "
      "rel_ci95 = 0.001 } }\n",
      "rel.toml");
  ResultTable t(1, 8, 2);
  RoundPlanner planner(job);
  const auto r0 = planner.next_round(t);
  CHECK(r0 == std::vector<std::uint64_t>{0, 1});
  for (std::uint64_t task : r0) t.done[task] = 1;  // values stay NaN
  CHECK(planner.next_round(t).empty());

  // Identical values: half-width 0 meets any target.
  ResultTable same(1, 8, 2);
  RoundPlanner p2(job);
  const auto s0 = p2.next_round(same);
  for (std::uint64_t task : s0) same.done[task] = 1, same.value(1, task) = 0.25;
  CHECK(p2.next_round(same).empty());
}

// --- batch_cost_limit -----------------------------------------------------------------------

TEST_CASE("space: batch_cost_limit: long tasks go out one at a time, tiny ones in batches",
          "[space]") {
  // No speed measured yet: one task per batch (0 admits only the first task).
  CHECK(batch_cost_limit(1000.0, 2, 0.0) == 0.0);
  // Tasks of 1 s per cost unit: a batch holds about kBatchSeconds of work, not 1000 / 8.
  CHECK(batch_cost_limit(1000.0, 2, 1.0) == Approx(kBatchSeconds));
  // A task of 10 s (cost 1 at 10 s per unit) exceeds the limit: a batch of that one task.
  CHECK(batch_cost_limit(1000.0, 2, 10.0) < 1.0);
  // Microsecond tasks: the quarter of a fair share, as before.
  CHECK(batch_cost_limit(1000.0, 2, 1e-6) == Approx(125.0));
  CHECK(batch_cost_limit(1000.0, 4, 1e-6) == Approx(62.5));
}
