// The results file (sweep/store.hpp, DESIGN §7): what is written is read back exactly, it appears
// only by rename, and readers refuse files that are not ours or of another schema version.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/inspect.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/results_version.hpp"
#include "faultsweep/sweep/rounds.hpp"
#include "faultsweep/sweep/stats.hpp"
#include "faultsweep/sweep/store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
namespace io = faultsweep::io;
using faultsweep::InputError;
using faultsweep::IoError;
using namespace faultsweep::sweep;

namespace {

using faultsweep::testing::TempDir;

JobSpec store_job() {
  // 2 x 3 points, 3 replicas; sd and work vary together in a zip group.
  return parse_job(
      "[sweep]\nmodel = \"synthetic\"\nseed = 42\nreplicas = 3\ndescription = \"store test\"\n"
      "[axes]\nmean = [1.0, 2.0]\ng = { zip = { sd = [0.5, 1.5, 2.5], work = [0, 0, \"0ms\"] } "
      "}\n",
      "jobs/store.toml");
}

// Values that exercise the bits: negative zero, subnormal, huge, NaN where not done.
ResultTable filled_table(const JobSpec& job, bool all_done) {
  ResultTable t(job.points.size(), 3, job.metric_count());
  const double odd[] = {-0.0, 4.9e-324, 1.7976931348623157e308, 0.1, -3.25, 1.0 / 3.0};
  for (std::size_t task = 0; task < t.tasks(); ++task) {
    if (!all_done && task % 4 == 3) continue;  // not run: stays NaN
    t.done[task] = 1;
    t.value(0, task) = odd[task % 6] * (task % 5 == 0 ? 1.0 : static_cast<double>(task));
    t.value(1, task) = static_cast<double>(task) / 17.0;
  }
  return t;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("store: write_results then read_results gives back the same table", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  REQUIRE(job.points.size() == 6);
  const fs::path out = dir.path() / "out.h5";
  for (const bool complete : {false, true}) {
    DYNAMIC_SECTION("complete = " << complete) {
      const ResultTable t = filled_table(job, complete);
      write_results(out, job, t, complete);
      // Only the file itself: the temporary name is gone.
      CHECK(dir.entries() == std::vector<std::string>{"out.h5"});

      const StoredResults s = read_results(out);
      CHECK(s.complete == complete);
      CHECK(s.model == "synthetic");
      CHECK(s.master_seed == 42);
      CHECK(s.job_text == job.text);
      CHECK(s.job_file_name == "jobs/store.toml");
      CHECK(s.axes == std::vector<std::string>{"mean", "sd", "work"});
      CHECK(s.metrics == std::vector<std::string>{"value", "u"});
      CHECK(s.units == std::vector<std::string>{"1", "1"});
      CHECK_FALSE(s.created_utc.empty());
      CHECK_FALSE(s.version.empty());
      CHECK(s.table.points == 6);
      CHECK(s.table.replicas_max == 3);
      CHECK(s.table.metrics == 2);
      CHECK(s.table.done == t.done);
      CHECK(same_bits(s.table.values, t.values));  // NaN, -0.0 and subnormals included
      CHECK(s.table.done_count() == t.done_count());
    }
  }
}

TEST_CASE("store: the file holds points, summaries and attributes per DESIGN §7", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  const ResultTable t = filled_table(job, false);
  const fs::path out = dir.path() / "out.h5";
  write_results(out, job, t, false);

  io::File f = io::File::open_read(out);
  const std::string name = out.string();
  CHECK(io::read_attr_string(f.id(), "filetype", name) == "faultsweep-results");
  CHECK(io::read_attr_int(f.id(), "schema_version", name) == 1);
  CHECK(io::read_attr_int(f.id(), "complete", name) == 0);
  CHECK(io::read_attr_string(f.id(), "model", name) == "synthetic");
  CHECK(io::read_attr_string(f.id(), "job_file_sha256", name).size() == 64);
  CHECK(io::read_attr_string(f.id(), "description", name) == "store test");

  io::Handle points = io::open_group(f.id(), "points", name);
  std::vector<hsize_t> dims;
  CHECK(io::read_doubles(points.id(), "mean", dims, name) == std::vector<double>{1, 1, 1, 2, 2, 2});
  CHECK(dims == std::vector<hsize_t>{6});
  CHECK(io::read_doubles(points.id(), "sd", dims, name) ==
        std::vector<double>{0.5, 1.5, 2.5, 0.5, 1.5, 2.5});
  const auto params = io::read_strings(points.id(), "params", name);
  REQUIRE(params.size() == 6);
  CHECK(params[4] == job.points[4].canonical_text());

  // Each summary is summarize() of the point's replicas.
  io::Handle summary = io::open_group(f.id(), "summary", name);
  io::Handle value = io::open_group(summary.id(), "value", name);
  CHECK(io::read_attr_string(value.id(), "units", name) == "1");
  const auto n = io::read_doubles(value.id(), "n", dims, name);
  const auto mean = io::read_doubles(value.id(), "mean", dims, name);
  const auto hi = io::read_doubles(value.id(), "ci95_hi", dims, name);
  for (std::size_t p = 0; p < 6; ++p) {
    const Summary s = summarize(t.values.data() + p * 3, t.done.data() + p * 3, 3, false);
    CHECK(n[p] == s.n);
    CHECK(std::memcmp(&mean[p], &s.mean, sizeof(double)) == 0);
    CHECK(std::memcmp(&hi[p], &s.ci95_hi, sizeof(double)) == 0);
  }
  io::Handle results = io::open_group(f.id(), "results", name);
  CHECK(io::read_u8(results.id(), "done", dims, name) == t.done);
  CHECK(dims == std::vector<hsize_t>{6, 3});
}

TEST_CASE("store: a new file replaces the old one whole", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  const fs::path out = dir.path() / "out.h5";
  write_results(out, job, filled_table(job, false), false);
  write_results(out, job, filled_table(job, true), true);
  CHECK(dir.entries() == std::vector<std::string>{"out.h5"});
  const StoredResults s = read_results(out);
  CHECK(s.complete);
  CHECK(s.table.done_count() == 18);
}

TEST_CASE("store: a failed write leaves no temporary file and no output", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  // The output name is a non-empty folder: the rename into place must fail.
  const fs::path out = dir.path() / "taken";
  fs::create_directories(out / "inside");
  CHECK_THROWS_AS(write_results(out, job, filled_table(job, true), true), IoError);
  CHECK(dir.entries() == std::vector<std::string>{"taken"});
  CHECK(fs::is_directory(out / "inside"));
  // A missing folder: nothing can be created.
  CHECK_THROWS_AS(write_results(dir.path() / "no" / "such.h5", job, filled_table(job, true), true),
                  IoError);
  CHECK(dir.entries() == std::vector<std::string>{"taken"});
}

TEST_CASE("store: read_results checks filetype and schema_version first", "[store]") {
  TempDir dir;
  const JobSpec job = store_job();

  SECTION("an HDF5 file of someone else") {
    const fs::path p = dir.path() / "other.h5";
    {
      io::File f = io::File::create(p);
      io::write_attr(f.id(), "creator", std::string("h5py"), p.string());
      io::write_doubles(f.id(), "data", {1, 2, 3}, {3}, p.string());
    }
    CHECK_THROWS_AS(read_results(p), IoError);
    CHECK_THROWS_WITH(read_results(p), Catch::Contains(p.string()) &&
                                           Catch::Contains("not a faultsweep results file"));
  }
  SECTION("another program's filetype") {
    const fs::path p = dir.path() / "other.h5";
    {
      io::File f = io::File::create(p);
      io::write_attr(f.id(), "filetype", std::string("loadleveller-results"), p.string());
      io::write_attr(f.id(), "schema_version", std::int64_t{1}, p.string());
    }
    CHECK_THROWS_WITH(read_results(p), Catch::Contains("not a faultsweep results file"));
  }
  SECTION("a newer schema version") {
    const fs::path p = dir.path() / "v2.h5";
    {
      io::File f = io::File::create(p);
      io::write_attr(f.id(), "filetype", std::string(kFileType), p.string());
      io::write_attr(f.id(), "schema_version", std::int64_t{2}, p.string());
    }
    CHECK_THROWS_AS(read_results(p), IoError);
    CHECK_THROWS_WITH(read_results(p),
                      Catch::Contains(p.string()) && Catch::Contains("schema_version 2"));
  }
  SECTION("not HDF5 at all") {
    const fs::path p = dir.path() / "text.h5";
    std::ofstream(p) << "just text\n";
    CHECK_THROWS_AS(read_results(p), IoError);
    CHECK_THROWS_WITH(read_results(p), Catch::Contains(p.string()));
  }
  SECTION("no file") {
    CHECK_THROWS_AS(read_results(dir.path() / "absent.h5"), IoError);
  }
}

TEST_CASE("store: a table with no axes and one point", "[store]") {
  TempDir dir;
  const JobSpec job = parse_job("[sweep]\nmodel = \"synthetic\"\nreplicas = 2\n", "one.toml");
  ResultTable t(1, 2, 2);
  t.done[1] = 1;
  t.value(0, 1) = 5.0;
  t.value(1, 1) = 0.5;
  const fs::path out = dir.path() / "one.h5";
  write_results(out, job, t, false);
  const StoredResults s = read_results(out);
  CHECK(s.axes.empty());
  CHECK(s.table.done == std::vector<std::uint8_t>{0, 1});
  CHECK(std::isnan(s.table.value(0, 0)));
  CHECK(s.table.value(0, 1) == 5.0);
}

// --- slices and merge ---------------------------------------------------------------------------

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

TEST_CASE("store: /inputs records path, size and SHA-256 of each input file", "[store]") {
  TempDir dir;
  // checkpoint_sim reads the folder plank_inputs: its regular files are the inputs.
  fs::create_directories(dir.path() / "plank");
  const fs::path src = fs::path(FAULTSWEEP_SOURCE_DIR) / "inputs" / "plank";
  for (const char* f : {"apps.toml", "environments.toml"})
    fs::copy_file(src / f, dir.path() / "plank" / f);
  const std::string text =
      "[sweep]\nmodel = \"checkpoint_sim\"\nreplicas = 2\n[params]\nplank_inputs = \"plank\"\n"
      "env = \"LOW\"\napp = \"EP\"\na = 8\nI = \"1h\"\n";
  const JobSpec job = parse_job(text, (dir.path() / "job.toml").string());
  const auto paths = job_input_paths(job);
  REQUIRE(paths.size() == 2);
  CHECK(paths[0].filename() == "apps.toml");
  CHECK(paths[1].filename() == "environments.toml");
  ResultTable t(job.points.size(), 2, job.metric_count());
  const fs::path out = dir.path() / "out.h5";
  write_results(out, job, t, false);
  const StoredResults s = read_results(out);
  REQUIRE(s.inputs.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    std::ifstream in(paths[i], std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(s.inputs[i].path == paths[i].string());
    CHECK(s.inputs[i].size_bytes == bytes.size());
    CHECK(s.inputs[i].sha256 == faultsweep::sha256_hex(bytes));
  }
  // A model without input files writes an empty /inputs group.
  const JobSpec none = store_job();
  write_results(dir.path() / "none.h5", none, filled_table(none, true), true);
  CHECK(read_results(dir.path() / "none.h5").inputs.empty());
}

TEST_CASE("store: a results file that cannot be created leaves nothing, and HDF5 stays usable",
          "[store]") {
  // (A full disk is tests/integration/disk_full.sh: it needs a small tmpfs.)
  TempDir dir;
  const JobSpec job = store_job();
  const fs::path out = dir.path() / std::string(250, 'x');  // OUT.tmp.<pid> is too long
  CHECK_THROWS_AS(write_results(out, job, filled_table(job, true), true), IoError);
  CHECK(dir.entries().empty());
  // HDF5 still works afterwards (no half-closed file left behind).
  write_results(dir.path() / "ok.h5", job, filled_table(job, true), true);
  CHECK(read_results(dir.path() / "ok.h5").complete);
}

TEST_CASE("store: inspect says \"no values\" for a metric that is NaN in every replica",
          "[store]") {
  TempDir dir;
  const JobSpec job = store_job();
  ResultTable t = filled_table(job, true);
  for (std::size_t task = 0; task < t.tasks(); ++task)
    t.value(1, task) = std::numeric_limits<double>::quiet_NaN();
  const fs::path out = dir.path() / "nan.h5";
  write_results(out, job, t, true);
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  CHECK(inspect_file(out.string(), f) == 0);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  CHECK_THAT(text, Catch::Contains("    u ") && Catch::Contains("[1] no values"));
  CHECK_THAT(text, !Catch::Contains("from inf to -inf"));
  CHECK_THAT(text, Catch::Contains("[1] values from"));
}
