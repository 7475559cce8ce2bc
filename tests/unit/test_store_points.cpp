// The results file's /points (sweep/store.hpp, DESIGN §7): each swept key is a column as the
// job file spells its values.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
namespace io = faultsweep::io;
using faultsweep::testing::TempDir;
using namespace faultsweep::sweep;

TEST_CASE("store: a boolean axis is written as the strings true and false", "[store]") {
  TempDir dir;
  const JobSpec job = parse_job(
      "[sweep]\nmodel = \"cluster\"\nseed = 1\nreplicas = 1\ndescription = \"boolean axis\"\n"
      "[params]\nnodes = 8\nqueue = \"easy\"\nstrategy = \"sul_d\"\n"
      "workload = { source = \"fars\", jobs = 10, mean_size = 2 }\n"
      "failures = { process = \"renewal\", dist = \"exponential\", mean = \"14d\", downtime = "
      "\"1h\" }\n"
      "fars = { interval = \"1h\", overhead = \"live\", restart_cost = \"30s\" }\n"
      "predictor = { precision = 0.7, recall = 0.7 }\n"
      "[axes]\n\"fars.hold_vacated\" = [false, true]\n",
      "jobs/flag.toml");
  REQUIRE(job.points.size() == 2);
  const fs::path out = dir.path() / "flag.h5";
  ResultTable t(job.points.size(), 1, job.metric_count());
  write_results(out, job, t, false);
  io::File f = io::File::open_read(out);
  const std::string name = out.string();
  io::Handle points = io::open_group(f.id(), "points", name);
  CHECK(io::read_strings(points.id(), "fars.hold_vacated", name) ==
        std::vector<std::string>{"false", "true"});
}
