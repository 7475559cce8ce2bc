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
#include "store_support.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
namespace io = faultsweep::io;
using faultsweep::InputError;
using faultsweep::IoError;
using namespace faultsweep::sweep;

using faultsweep::testing::filled_table;
using faultsweep::testing::same_bits;
using faultsweep::testing::store_job;
using faultsweep::testing::TempDir;

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
