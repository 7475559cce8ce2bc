// What the input readers kept, dropped or changed is stored in the results file beside each
// input's SHA-256 (/inputs/<i>/read/<j>), not only printed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/store.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using faultsweep::InputReading;
using faultsweep::sweep::JobSpec;
using faultsweep::sweep::parse_job;
using faultsweep::sweep::ResultTable;
using faultsweep::testing::TempDir;
namespace io = faultsweep::io;

namespace {

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// 7 data lines on an 8-node machine: job 2 is 16 wide (dropped), job 3 has run time 0
// (dropped), job 4's line is junk (skipped), job 5 has no estimate (-1, replaced by its run
// time); 3 jobs are kept.
const char* kSwf =
    "; MaxNodes: 8\n"
    "1 0 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
    "2 5 0 100 16 -1 -1 16 200 -1 1 1 1 1 1 1 -1 -1\n"
    "3 6 0 0 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
    "4 7 0 abc 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
    "5 8 0 100 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n"
    "6 9 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n";

// 4 records: one bad (no downtime), 3 failures on nodes 0, 1, 3 kept.
const char* kTrace =
    "time_s,node,downtime_s\n"
    "100,3,60\n"
    "50,1,30\n"
    "150,0,10\n"
    "300,2\n";

JobSpec cluster_job(const fs::path& dir, const std::string& axes) {
  write(dir / "jobs.swf", kSwf);
  write(dir / "fail.csv", kTrace);
  const std::string text =
      "[sweep]\nmodel = \"cluster\"\nreplicas = 1\n[params]\nnodes = 8\n"
      "failures = { process = \"trace\", format = \"csv\", file = \"fail.csv\" }\n" +
      axes;
  return parse_job(text, (dir / "job.toml").string());
}

// The job's results file with no task done (what /inputs holds does not depend on them).
fs::path write_unrun(const JobSpec& job, const fs::path& dir) {
  const fs::path out = dir / "out.h5";
  ResultTable t(job.points.size(), 1, job.metric_count());
  faultsweep::sweep::write_results(out, job, t, false);
  return out;
}

std::int64_t count(hid_t g, const char* name, const std::string& f) {
  return io::read_attr_int(g, name, f);
}

}  // namespace

TEST_CASE("readings: the SWF and trace readers' drop counts are stored under /inputs/<i>/read",
          "[store][provenance]") {
  TempDir dir;
  const JobSpec job =
      cluster_job(dir.path(), "workload = { source = \"swf\", file = \"jobs.swf\" }\n");
  const auto files = faultsweep::sweep::describe_job_inputs(job);
  REQUIRE(files.size() == 2);
  REQUIRE(files[0].read.size() == 1);
  REQUIRE(files[1].read.size() == 1);
  CHECK(files[0].read[0].summary.find("3 jobs kept") != std::string::npos);

  const fs::path out = write_unrun(job, dir.path());
  io::File file = io::File::open_read(out);
  const std::string f = out.string();
  {
    io::Handle g = io::open_group(file.id(), "inputs/0/read/0", f);
    CHECK(io::read_attr_string(file.id(), "model", f) == "cluster");
    CHECK(count(g.id(), "lines", f) == 6);
    CHECK(count(g.id(), "jobs", f) == 3);
    CHECK(count(g.id(), "too_large", f) == 1);
    CHECK(count(g.id(), "no_runtime", f) == 1);
    CHECK(count(g.id(), "bad_lines", f) == 1);
    CHECK(count(g.id(), "estimate_fixed", f) == 1);
  }
  {
    io::Handle g = io::open_group(file.id(), "inputs/1/read/0", f);
    CHECK(count(g.id(), "lines", f) == 4);
    CHECK(count(g.id(), "events", f) == 3);
    CHECK(count(g.id(), "bad", f) == 1);
    CHECK(io::read_attr_string(g.id(), "summary", f).find("1 bad") != std::string::npos);
  }
  const auto stored = faultsweep::sweep::read_results(out);
  REQUIRE(stored.inputs.size() == 2);
  CHECK(stored.inputs[0].read.size() == 1);
}

TEST_CASE("readings: points that read one file in two windows store two readings of it",
          "[store][provenance]") {
  TempDir dir;
  const JobSpec job = cluster_job(
      dir.path(),
      "workload = { source = \"swf\", file = \"jobs.swf\" }\n[axes]\n\"workload.skip_jobs\" = "
      "[0, 1]\nqueue = [\"fcfs\", \"easy\"]\n");
  const auto files = faultsweep::sweep::describe_job_inputs(job);
  REQUIRE(files.size() == 2);
  // Four points, two distinct windows (each read by two queues): two readings, 3 and 2 jobs.
  REQUIRE(files[0].read.size() == 2);
  CHECK(files[0].read[0].counts[1] == std::pair<std::string, std::int64_t>{"jobs", 3});
  CHECK(files[0].read[1].counts[1] == std::pair<std::string, std::int64_t>{"jobs", 2});
  CHECK(files[1].read.size() == 1);
}

TEST_CASE("readings: with size_scale = proportional the stored reading is the one the run uses",
          "[store][provenance]") {
  // The trace is read on its own 8-node machine and its sizes scaled to the 4 simulated nodes,
  // so the 6-wide job is kept (scaled to 3), not dropped as wider than the machine.
  TempDir dir;
  write(dir.path() / "wide.swf",
        "; MaxNodes: 8\n"
        "1 0 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
        "2 5 0 100 6 -1 -1 6 200 -1 1 1 1 1 1 1 -1 -1\n");
  write(dir.path() / "fail.csv", kTrace);
  const std::string text =
      "[sweep]\nmodel = \"cluster\"\nreplicas = 1\n[params]\nnodes = 4\n"
      "failures = { process = \"none\" }\n"
      "workload = { source = \"swf\", file = \"wide.swf\", size_scale = \"proportional\" }\n";
  const JobSpec job = parse_job(text, (dir.path() / "job.toml").string());
  const auto files = faultsweep::sweep::describe_job_inputs(job);
  REQUIRE(files.size() == 1);
  REQUIRE(files[0].read.size() == 1);
  const auto& counts = files[0].read[0].counts;
  const auto count = [&](const std::string& name) {
    for (const auto& [k, n] : counts)
      if (k == name) return n;
    return std::int64_t{-1};
  };
  CHECK(count("jobs") == 2);
  CHECK(count("too_large") == 0);
}

TEST_CASE("readings: a failure log that names its nodes stores node index -> name",
          "[store][provenance]") {
  TempDir dir;
  // FTA event trace of two platforms; with platform = 1 the nodes are hostB (0) and hostA (1).
  write(dir.path() / "event_trace.tab",
        "1 0 7 1 hostB 0 1104537700 1104541300 0\n"
        "2 0 3 1 hostA 0 1104537600 1104537660 1\n"
        "3 0 9 2 other 0 1104537800 1104537900 1\n");
  const std::string text =
      "[sweep]\nmodel = \"cluster\"\nreplicas = 1\n[params]\nnodes = 4\n"
      "failures = { process = \"trace\", format = \"fta\", file = \"event_trace.tab\", "
      "platform = 1 }\n"
      "workload = { source = \"fars\", jobs = 5, mean_interarrival = \"1000s\", "
      "mean_runtime = \"1500s\", mean_size = 1 }\n";
  const JobSpec job = parse_job(text, (dir.path() / "job.toml").string());
  const fs::path out = write_unrun(job, dir.path());
  io::File file = io::File::open_read(out);
  const std::string f = out.string();
  io::Handle g = io::open_group(file.id(), "inputs/0/read/0", f);
  CHECK(count(g.id(), "other_system", f) == 1);
  CHECK(io::read_strings(g.id(), "node_names", f) == std::vector<std::string>{"hostB", "hostA"});
}
