// Slices and merge (sweep/rounds.hpp, sweep/store.hpp): every task in exactly one slice with
// balanced costs, --slice i/n parsed strictly, a stopping rule's slices made of whole points, and
// the union of slices equal to the whole table bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/merge.hpp"
#include "faultsweep/sweep/results_version.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/store.hpp"
#include "store_support.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using faultsweep::InputError;
using faultsweep::testing::filled_table;
using faultsweep::testing::same_bits;
using faultsweep::testing::store_job;
using faultsweep::testing::TempDir;
using namespace faultsweep::sweep;

namespace {

// The tasks of `mask` copied from `full`; everything else not done.
ResultTable masked(const ResultTable& full, const std::vector<char>& mask) {
  ResultTable t(full.points, full.replicas_max, full.metrics);
  for (std::size_t task = 0; task < t.tasks(); ++task)
    if (mask[task] && full.done[task]) {
      t.done[task] = 1;
      for (std::size_t m = 0; m < t.metrics; ++m) t.value(m, task) = full.value(m, task);
    }
  return t;
}

}  // namespace

TEST_CASE("slices: every task is in exactly one slice, and the costs are balanced", "[store]") {
  const JobSpec job = parse_job(
      "[sweep]\nmodel = \"synthetic\"\nreplicas = 5\n[axes]\n"
      "work = [\"1ms\", \"2ms\", \"4ms\", \"8ms\", \"16ms\", \"32ms\", \"64ms\"]\n",
      "jobs/slices.toml");
  const std::size_t tasks = job.points.size() * 5;
  for (int n : {1, 2, 3, 7, 40}) {
    std::vector<int> owners(tasks, 0);
    double lo = 1e300, hi = 0;
    for (int i = 0; i < n; ++i) {
      const auto mask = slice_tasks(job, Slice{i, n});
      REQUIRE(mask.size() == tasks);
      double cost = 0;
      for (std::size_t t = 0; t < tasks; ++t)
        if (mask[t]) ++owners[t], cost += job.costs[t / 5];
      lo = std::min(lo, cost), hi = std::max(hi, cost);
    }
    CHECK(std::all_of(owners.begin(), owners.end(), [](int o) { return o == 1; }));
    // Round-robin by cost: slices differ by at most the most expensive task.
    if (n <= 7) CHECK(hi - lo <= 0.065 + 1e-12);
  }
  // Deterministic: the same mask every time.
  CHECK(slice_tasks(job, Slice{1, 3}) == slice_tasks(job, Slice{1, 3}));
}

TEST_CASE("slices: parse_slice accepts i/n with 0 <= i < n and nothing else", "[store]") {
  CHECK(parse_slice("0/1").index == 0);
  CHECK(parse_slice("3/4").count == 4);
  CHECK(parse_slice("3/4").text() == "3/4");
  for (const char* bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "1/ 2", ""})
    CHECK_THROWS_WITH(parse_slice(bad), Catch::Contains("--slice"));
}

TEST_CASE("merge: slices of a stopping rule are whole points", "[store]") {
  const JobSpec job = parse_job(
      "[sweep]\nmodel = \"synthetic\"\nreplicas = { min = 2, max = 8, until = { metric = "
      "\"value\", ci95 = 0.1 } }\n[axes]\nsd = [0.1, 1.0, 2.0, 3.0, 4.0]\n",
      "jobs/adaptive.toml");
  const auto mask = slice_tasks(job, Slice{0, 2});
  for (std::size_t p = 0; p < job.points.size(); ++p)
    for (std::size_t r = 1; r < 8; ++r) CHECK(mask[p * 8 + r] == mask[p * 8]);
}

TEST_CASE("merge: the union of slices equals the whole table, bit for bit", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  const ResultTable full = filled_table(job, true);
  const fs::path whole = dir.path() / "whole.h5";
  write_results(whole, job, full, true);
  std::vector<fs::path> parts;
  for (int i = 0; i < 3; ++i) {
    parts.push_back(dir.path() / ("s" + std::to_string(i) + ".h5"));
    write_results(parts.back(), job, masked(full, slice_tasks(job, Slice{i, 3})), false,
                  Slice{i, 3}.text());
    CHECK(read_results(parts.back()).slice == Slice{i, 3}.text());
  }
  const fs::path out = dir.path() / "merged.h5";
  SECTION("two of three slices: incomplete") {
    const MergeOutcome r = merge_results(out, {parts[0], parts[1]}, false);
    CHECK_FALSE(r.complete);
    CHECK(r.tasks_total == full.tasks());
    CHECK(r.tasks_done < full.tasks());
    CHECK_FALSE(read_results(out).complete);
  }
  SECTION("all slices, a slice twice and the whole file: complete and identical") {
    const MergeOutcome r =
        merge_results(out, {parts[2], parts[0], parts[1], parts[0], whole}, false);
    CHECK(r.complete);
    CHECK(r.tasks_done == full.tasks());
    const StoredResults m = read_results(out), w = read_results(whole);
    CHECK(m.complete);
    CHECK(m.slice.empty());
    CHECK(m.table.done == w.table.done);
    CHECK(same_bits(m.table.values, w.table.values));
    // OUT exists now: refused unless told to overwrite.
    CHECK_THROWS_AS(merge_results(out, {whole}, false), InputError);
    CHECK_NOTHROW(merge_results(out, {whole}, true));
  }
  SECTION("a task that differs between two files is refused, naming the task") {
    ResultTable other = full;
    other.value(1, 4) = std::nextafter(other.value(1, 4), 2.0);
    const fs::path bad = dir.path() / "bad.h5";
    write_results(bad, job, other, true);
    CHECK_THROWS_WITH(merge_results(out, {whole, bad}, false),
                      Catch::Contains("task 4 (point 1, replica 1) differs"));
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("files of two results versions are refused, naming both; a merge keeps the version") {
    const std::int64_t other = faultsweep::sweep::kResultsVersion + 1;
    const fs::path v2 = dir.path() / "v2.h5";
    write_results(v2, job, masked(full, slice_tasks(job, Slice{1, 3})), false, Slice{1, 3}.text(),
                  nullptr, {}, nullptr, other);
    CHECK(read_results(v2).results_version == other);
    CHECK(read_results(parts[0]).results_version == faultsweep::sweep::kResultsVersion);
    CHECK_THROWS_WITH(
        merge_results(out, {parts[0], v2}, false),
        Catch::Contains(fmt::format("results_version {}", other)) &&
            Catch::Contains(fmt::format("results_version {}", faultsweep::sweep::kResultsVersion)));
    CHECK_FALSE(fs::exists(out));
    merge_results(out, {v2}, false);
    CHECK(read_results(out).results_version == other);
  }
  SECTION("files of another job are refused, naming the difference") {
    const JobSpec job2 = parse_job(
        "[sweep]\nmodel = \"synthetic\"\nseed = 43\nreplicas = 3\ndescription = \"store "
        "test\"\n[axes]\nmean = [1.0, 2.0]\ng = { zip = { sd = [0.5, 1.5, 2.5], work = [0, 0, "
        "\"0ms\"] } }\n",
        "jobs/store.toml");
    const fs::path other = dir.path() / "other.h5";
    write_results(other, job2, full, true);
    CHECK_THROWS_WITH(merge_results(out, {whole, other}, false),
                      Catch::Contains("different jobs") && Catch::Contains("seed"));
    CHECK_FALSE(fs::exists(out));
  }
}
