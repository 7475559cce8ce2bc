// The SWF reader on hand-written fixtures (tests/data/swf/, each case explained where it is
// used), and on real Parallel Workloads Archive logs when FAULTSWEEP_DATA is set.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/swf.hpp"

using namespace faultsweep;
using namespace faultsweep::workload;

namespace {

std::filesystem::path fixture(const std::string& name) {
  return std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/swf" / name;
}

}  // namespace

TEST_CASE("SWF basic fixture: drops, fallbacks, repairs, sorting and relative times", "[swf]") {
  // basic.swf: 9 jobs on a 64-processor machine ("; MaxNodes: 64 (batch partition)").
  //   job 2: requested time -1            -> estimate = run time (fixed)
  //   job 4: requested procs -1 -> allocated 32; requested time 300 < run time 400 (fixed)
  //   job 5: run time 0, job 6: run time -1 -> dropped (no_runtime)
  //   job 7: 100 processors > 64           -> dropped (too_large)
  //   job 8: both processor counts -1      -> dropped (no_size)
  //   job 9: exactly 64 processors, fractional times 10.5 -> kept as is
  for (const char* name : {"basic.swf", "basic.swf.gz"}) {
    INFO(name);
    const Workload w = read_swf(fixture(name));
    CHECK(w.machine_nodes == 64);
    CHECK(w.stats.lines == 9);
    CHECK(w.stats.jobs == 5);
    CHECK(w.stats.no_runtime == 2);
    CHECK(w.stats.too_large == 1);
    CHECK(w.stats.no_size == 1);
    CHECK(w.stats.estimate_fixed == 2);
    CHECK(w.stats.bad_lines == 0);
    REQUIRE(w.jobs.size() == 5);
    // Sorted by submit time, then job number (jobs 1 and 2 both arrive at 100).
    const std::int64_t ids[] = {1, 2, 3, 4, 9};
    const double submits[] = {0, 0, 400, 600, 1100};
    const std::int32_t sizes[] = {4, 16, 8, 32, 64};
    const double estimates[] = {60, 30, 200, 400, 10.5};
    for (int i = 0; i < 5; ++i) {
      CHECK(w.jobs[i].id == ids[i]);
      CHECK(w.jobs[i].submit_s == submits[i]);
      CHECK(w.jobs[i].size == sizes[i]);
      CHECK(w.jobs[i].estimate_s == estimates[i]);
    }
    CHECK(w.jobs[0].runtime_s == 50);
    CHECK(w.jobs[0].user == 3);
    CHECK(w.jobs[3].user == -1);
    CHECK(w.jobs[4].runtime_s == 10.5);
  }
}

TEST_CASE("SWF options: allocated size, runtime estimates, machine override, procs per node",
          "[swf]") {
  SwfOptions o;
  o.size = SwfSize::allocated;  // job 1 allocated 6 of the 4 it requested
  Workload w = read_swf(fixture("basic.swf"), o);
  REQUIRE(w.jobs[0].id == 1);
  CHECK(w.jobs[0].size == 6);
  CHECK(w.jobs[1].size == 16);  // job 2: allocated -1 -> requested 16

  o = {};
  o.estimate = SwfEstimate::runtime;
  w = read_swf(fixture("basic.swf"), o);
  CHECK(w.stats.estimate_fixed == 0);
  for (const Job& j : w.jobs) CHECK(j.estimate_s == j.runtime_s);

  o = {};
  o.machine_nodes = 32;  // job 9 (64) is now too large as well; job 4 (32) fits exactly
  w = read_swf(fixture("basic.swf"), o);
  CHECK(w.machine_nodes == 32);
  CHECK(w.stats.too_large == 2);
  CHECK(w.stats.jobs == 4);

  o = {};
  o.procs_per_node = 4;  // sizes ceil(procs / 4); machine = MaxNodes 64, so job 7 (25) fits
  w = read_swf(fixture("basic.swf"), o);
  CHECK(w.machine_nodes == 64);
  CHECK(w.stats.too_large == 0);
  REQUIRE(w.stats.jobs == 6);
  CHECK(w.jobs[0].size == 1);   // 4 procs
  CHECK(w.jobs[2].size == 2);   // 8 procs
  CHECK(w.jobs[5].size == 16);  // job 9, 64 procs

  o = {};
  o.procs_per_node = 0;
  CHECK_THROWS_AS(read_swf(fixture("basic.swf"), o), InputError);
}

TEST_CASE("SWF header variants: no space after the colon, trailing text, CRLF, tabs", "[swf]") {
  // "; MaxNodes:16" and ";MaxProcs: 32 processors in 16 nodes", CRLF line ends, a tab-separated
  // job line and a blank line.
  const SwfHeader h = read_swf_header(fixture("header_variants.swf"));
  CHECK(h.max_nodes == 16);
  CHECK(h.max_procs == 32);
  Workload w = read_swf(fixture("header_variants.swf"));
  CHECK(w.machine_nodes == 32);  // procs_per_node 1: the processor count
  CHECK(w.stats.jobs == 2);
  CHECK(w.stats.bad_lines == 0);
  SwfOptions o;
  o.procs_per_node = 2;
  w = read_swf(fixture("header_variants.swf"), o);
  CHECK(w.machine_nodes == 16);
  CHECK(w.jobs[1].size == 2);  // ceil(3 / 2)

  const SwfHeader g = read_swf_header(fixture("basic.swf.gz"));
  CHECK(g.max_nodes == 64);
  CHECK(g.max_jobs == 9);

  // No header at all: the machine is the widest job.
  w = read_swf(fixture("noheader.swf"));
  CHECK(w.machine_nodes == 12);
  CHECK(w.jobs.front().submit_s == 0);
  CHECK(w.jobs.back().submit_s == 10);
}

TEST_CASE("SWF bad lines: skipped and counted with file:line, or fatal", "[swf]") {
  // bad.swf: line 3 has 17 fields, line 4 a non-number, line 5 a negative submit time (-5;
  // -1 would mean "unknown", test_swf_robust.cpp), line 6 has 19 fields; lines 2 and 7 are good.
  const auto path = fixture("bad.swf");
  const Workload w = read_swf(path);
  CHECK(w.stats.lines == 6);
  CHECK(w.stats.bad_lines == 4);
  CHECK(w.stats.jobs == 2);
  REQUIRE(w.stats.first_errors.size() == 4);
  CHECK(w.stats.first_errors[0] == path.string() + ":3: expected 18 fields, found 17");
  CHECK(w.stats.first_errors[1] == path.string() + ":4: field 4 (run time) = 'abc': not a number");
  CHECK(w.stats.first_errors[2] ==
        path.string() + ":5: field 2 (submit time) = -5: must be >= 0 or -1 (unknown)");
  CHECK(w.stats.first_errors[3] == path.string() + ":6: expected 18 fields, found 19");

  SwfOptions o;
  o.bad_lines = BadLines::fail;
  try {
    read_swf(path, o);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find(path.string() + ":3: expected 18 fields") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(read_swf(fixture("does_not_exist.swf")), InputError);
}

TEST_CASE("SWF truncated gzip is an error, not a shorter trace", "[swf]") {
  std::ifstream in(fixture("basic.swf.gz"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto path = std::filesystem::temp_directory_path() /
                    ("faultsweep_truncated_" + std::to_string(::getpid()) + ".swf.gz");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  CHECK_THROWS_WITH(read_swf(path), Catch::Contains("truncated or corrupt gzip"));
  std::filesystem::remove(path);
}

TEST_CASE("SWF real logs: KTH-SP2 and SDSC-SP2 (needs FAULTSWEEP_DATA)", "[swf][real_data]") {
  const char* data = std::getenv("FAULTSWEEP_DATA");
  if (!data) {
    WARN("FAULTSWEEP_DATA not set: skipping the real-log SWF checks");
    return;
  }
  const std::filesystem::path dir = std::filesystem::path(data) / "workloads";
  struct Case {
    const char* file;
    std::int64_t lines, machine, no_runtime;
  };
  // Record counts and machine sizes from the archive's headers (MaxRecords, MaxNodes);
  // no_runtime counted independently with awk ($4 <= 0).
  for (const Case& c : {Case{"KTH-SP2-1996-2.1-cln.swf.gz", 28476, 100, 8},
                        Case{"SDSC-SP2-1998-4.2-cln.swf.gz", 59715, 128, 5681}}) {
    INFO(c.file);
    const auto t0 = std::chrono::steady_clock::now();
    const Workload w = read_swf(dir / c.file);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    WARN(c.file << " read in " << ms << " ms");
    const SwfHeader h = read_swf_header(dir / c.file);
    CHECK(h.max_nodes == c.machine);
    CHECK(h.max_records == c.lines);
    CHECK(w.machine_nodes == c.machine);
    CHECK(w.stats.lines == c.lines);
    CHECK(w.stats.bad_lines == 0);
    CHECK(w.stats.no_runtime == c.no_runtime);
    CHECK(w.stats.jobs + w.stats.no_runtime + w.stats.too_large + w.stats.no_size == c.lines);
    CHECK(ms < 1000);
    for (std::size_t i = 1; i < w.jobs.size(); ++i)
      REQUIRE(w.jobs[i - 1].submit_s <= w.jobs[i].submit_s);
    CHECK(w.jobs.front().submit_s == 0);
  }
}

TEST_CASE("SWF: estimate_fixed counts only the jobs kept, not those dropped as too wide", "[swf]") {
  // Both jobs have no estimate (-1); job 2 is wider than the 8-node machine and dropped.
  const char* const text =
      "; MaxNodes: 8\n"
      "1 0 0 100 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n"
      "2 5 0 100 16 -1 -1 16 -1 -1 1 1 1 1 1 1 -1 -1\n";
  const Workload w = parse_swf(text, "wide.swf");
  CHECK(w.stats.jobs == 1);
  CHECK(w.stats.too_large == 1);
  CHECK(w.stats.estimate_fixed == 1);
  SwfOptions o;
  o.machine_nodes = 16;  // now both fit, and both estimates are repaired
  CHECK(parse_swf(text, "wide.swf", o).stats.estimate_fixed == 2);
}
