// The results file (sweep/store.hpp, DESIGN §7): what is written is read back exactly, it appears
// only by rename, and readers refuse files that are not ours or of another schema version.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/stats.hpp"
#include "faultsweep/sweep/store.hpp"

namespace fs = std::filesystem;
namespace io = faultsweep::io;
using faultsweep::IoError;
using namespace faultsweep::sweep;

namespace {

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / ("faultsweep-test-store-" + std::to_string(::getpid()) +
                                         "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(path_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

 private:
  fs::path path_;
};

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
