// Batsim JSON workloads as a workload source (source = "batsim"): delay profiles replayed,
// every other profile type refused by name, drops and changes counted and stored in /inputs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/store.hpp"
#include "faultsweep/workload/batsim.hpp"
#include "faultsweep/workload/factory.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::RunContext;
using faultsweep::testing::TempDir;
using namespace faultsweep::workload;

namespace {

const fs::path kData = fs::path(FAULTSWEEP_SOURCE_DIR) / "tests" / "data" / "batsim";

Params batsim_table(const fs::path& file) {
  Params t;
  t.set("source", std::string("batsim"));
  t.set("file", file.string());
  return t;
}

// The message of the InputError that reading `file` on `nodes` nodes throws ("" if none).
std::string error_of(const fs::path& file, int nodes = 0) {
  try {
    (void)make_workload(batsim_table(file), nodes, RunContext{});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

fs::path write(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name) << text;
  return dir / name;
}

}  // namespace

TEST_CASE("batsim: delay jobs are read with Batsim's times, drops and changes are counted",
          "[workload][batsim]") {
  const Params t = batsim_table(kData / "delays.json");
  validate_workload(t, ".");
  const Workload w = make_workload(t, 0, RunContext{});
  CHECK(w.machine_nodes == 4);  // nb_res
  REQUIRE(w.jobs.size() == 6);
  // Sorted by submit time; subtime kept as is (absolute, like Batsim's clock).
  std::vector<std::int64_t> ids;
  for (const Job& j : w.jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<std::int64_t>{1, 8, 2, 3, 4, 5});
  CHECK(w.jobs[0].submit_s == 0);
  CHECK(w.jobs[2].submit_s == 3.5);
  CHECK(w.jobs[2].size == 4);
  CHECK(w.jobs[2].runtime_s == 25.5);   // the DelayProfile spelling
  CHECK(w.jobs[2].estimate_s == 100);   // walltime
  CHECK(w.jobs[3].estimate_s == 10);    // no walltime: the delay
  CHECK(w.jobs[4].estimate_s == 25.5);  // walltime -1: the delay
  CHECK(w.jobs[5].runtime_s == 20);     // walltime 20 < delay 25.5: stopped at the walltime
  CHECK(w.stats.lines == 8);
  CHECK(w.stats.too_large == 1);
  CHECK(w.stats.no_runtime == 1);
  CHECK(w.stats.estimate_fixed == 2);
  REQUIRE(w.notes.size() == 1);
  CHECK(w.notes[0].find("1 jobs with a walltime below their delay") != std::string::npos);

  // On a 2-node machine the 4- and 3-wide jobs are dropped too.
  const Workload small = make_workload(t, 2, RunContext{});
  CHECK(small.machine_nodes == 2);
  CHECK(small.jobs.size() == 4);
  CHECK(small.stats.too_large == 3);
}

TEST_CASE("batsim: the reading (kept, dropped, changed) is what /inputs stores",
          "[workload][batsim][provenance]") {
  const auto r = swf_reading(batsim_table(kData / "delays.json"), 0, ".");
  REQUIRE(r);
  const auto count = [&](const std::string& name) {
    for (const auto& [k, v] : r->counts)
      if (k == name) return v;
    return std::int64_t{-1};
  };
  CHECK(count("jobs") == 6);
  CHECK(count("too_large") == 1);
  CHECK(count("no_runtime") == 1);
  CHECK(count("estimate_fixed") == 2);
  CHECK(count("walltime_cut") == 1);
  CHECK(count("ids_renumbered") == 0);
  CHECK(r->summary.find("8 lines, 6 jobs kept") != std::string::npos);

  TempDir dir;
  fs::copy_file(kData / "delays.json", dir.path() / "w.json");
  write(dir.path(), "fail.csv", "time_s,node,downtime_s\n100,3,60\n");
  const std::string text =
      "[sweep]\nmodel = \"cluster\"\nreplicas = 1\n[params]\nnodes = 4\n"
      "failures = { process = \"trace\", format = \"csv\", file = \"fail.csv\" }\n"
      "workload = { source = \"batsim\", file = \"w.json\" }\n";
  const auto job = faultsweep::sweep::parse_job(text, (dir.path() / "job.toml").string());
  const fs::path out = dir.path() / "out.h5";
  faultsweep::sweep::ResultTable table(job.points.size(), 1, job.metric_count());
  faultsweep::sweep::write_results(out, job, table, false);
  namespace io = faultsweep::io;
  io::File file = io::File::open_read(out);
  io::Handle g = io::open_group(file.id(), "inputs/0/read/0", out.string());
  CHECK(io::read_attr_int(g.id(), "walltime_cut", out.string()) == 1);
  CHECK(io::read_attr_int(g.id(), "too_large", out.string()) == 1);
  CHECK(io::read_attr_string(g.id(), "summary", out.string()).find("6 jobs kept") !=
        std::string::npos);
}

TEST_CASE("batsim: profiles other than delay are refused by name, with the file and the job",
          "[workload][batsim]") {
  const std::string e = error_of(kData / "refused.json");
  CHECK(e.find("refused.json") != std::string::npos);
  CHECK(e.find("job \"homo\" (jobs[1])") != std::string::npos);
  CHECK(e.find("\"parallel_homogeneous\"") != std::string::npos);
}

TEST_CASE("batsim: ids that are not numbers number the jobs in file order", "[workload][batsim]") {
  const Workload w = make_workload(batsim_table(kData / "string_ids.json"), 0, RunContext{});
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].id == 2);  // "second", submitted first
  CHECK(w.jobs[1].id == 1);
  REQUIRE(w.notes.size() == 1);
  CHECK(w.notes[0].find("numbered 1.. in file order") != std::string::npos);
}

TEST_CASE("batsim: bad workloads are errors naming the file, the job and the field",
          "[workload][batsim]") {
  TempDir dir;
  const std::string head =
      "{\"nb_res\": 4, \"profiles\": {\"d\": {\"type\": \"delay\", "
      "\"delay\": 5}}, \"jobs\": [";
  const auto job_error = [&](const std::string& job) {
    return error_of(write(dir.path(), "bad.json", head + job + "]}"));
  };
  CHECK(job_error(R"({"id": 3, "subtime": 0, "profile": "d"})") ==
        dir.path().string() +
            "/bad.json: job 3 (jobs[0]): res = (missing): an integer >= 1 "
            "(resources)");
  CHECK(job_error(R"({"id": 3, "subtime": "x", "res": 1, "profile": "d"})")
            .find("job 3 (jobs[0]): subtime = \"x\": a number") != std::string::npos);
  CHECK(job_error(R"({"id": 3, "subtime": -1, "res": 1, "profile": "d"})")
            .find("subtime = -1: a time from 0 to 2^32 s (~136 years)") != std::string::npos);
  CHECK(job_error(R"({"id": 3, "subtime": 0, "res": 1, "profile": "e"})")
            .find("profile = \"e\": a profile of the file's \"profiles\"") != std::string::npos);
  CHECK(job_error(R"({"id": 3, "subtime": 0, "res": 1, "walltime": 0, "profile": "d"})")
            .find("walltime = 0: a time > 0 and at most 2^32 s (~136 years), or -1 for none") !=
        std::string::npos);
  CHECK(job_error(R"({"id": 3, "subtime": 0, "res": 1, "profile": "d"},
                     {"id": 3, "subtime": 1, "res": 1, "profile": "d"})")
            .find("job 3 (jobs[1]): id = 3: unique (jobs[0] has it too)") != std::string::npos);
  CHECK(error_of(write(dir.path(), "nb.json", R"({"jobs": [], "profiles": {}})"))
            .find("nb.json: nb_res = (missing): an integer from 1 to 2^31 - 1") !=
        std::string::npos);
  CHECK(error_of(write(dir.path(), "syntax.json", "{\"nb_res\": 4,\n \"jobs\": [}"))
            .find("syntax.json: not valid JSON: parse error at line 2") != std::string::npos);
  CHECK(error_of(write(dir.path(), "none.json", head + "]}"))
            .find("no usable jobs in the Batsim workload") != std::string::npos);
  // A missing file is found when the table is checked, before anything is read.
  CHECK_THROWS_AS(validate_workload(batsim_table(dir.path() / "absent.json"), "."), InputError);
}

TEST_CASE("batsim: values out of range are refused, and messages never quote a whole value",
          "[workload][batsim]") {
  const std::string profiles = R"("profiles": {"d": {"type": "delay", "delay": 5}})";
  const auto error = [](const std::string& text) {
    try {
      (void)parse_batsim(text, "w.json", 0);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // nb_res beyond a 32-bit node count (it would wrap to another machine size).
  CHECK(error("{\"nb_res\": 4294967297, \"jobs\": [], " + profiles + "}")
            .find("nb_res = 4294967297: an integer from 1 to 2^31 - 1") != std::string::npos);
  CHECK(error("{\"nb_res\": 18446744073709551615, \"jobs\": [], " + profiles + "}")
            .find("nb_res = 18446744073709551615") != std::string::npos);
  // A literal beyond a double's range is refused by the parser, as an error of the file.
  const std::string head = "{\"nb_res\": 4, " + profiles + ", \"jobs\": [";
  CHECK(error(head + R"({"id": 1, "subtime": 1e999, "res": 1, "profile": "d"}]})") ==
        "w.json: not valid JSON: number overflow parsing '1e999'");
  // Times a double cannot run a job of seconds at.
  CHECK(error(head + R"({"id": 1, "subtime": 1e300, "res": 1, "profile": "d"}]})")
            .find("subtime = 1e+300: a time from 0 to 2^32 s") != std::string::npos);
  CHECK(error(head + R"({"id": 1, "subtime": 0, "res": 1, "walltime": 5e9, "profile": "d"}]})")
            .find("walltime = 5000000000.0: a time > 0 and at most 2^32 s") != std::string::npos);
  // A job that is a deep array, and a long string id: the message names their kind and size.
  const std::string deep = std::string(20000, '[') + std::string(20000, ']');
  CHECK(error(head + deep + "]}") ==
        "w.json: job (no id) (jobs[0]): job = an array of 1 values: an object");
  const std::string long_id = std::string(1000, 'x');
  const std::string msg = error(head + R"({"id": ")" + long_id + R"(", "subtime": -1})" + "]}");
  CHECK(msg.find("subtime = -1") != std::string::npos);
  CHECK(msg.size() < 200);
  // The text reader is the file reader's parse: the same workload.
  const BatsimWorkload w = parse_batsim(
      head + R"({"id": 1, "subtime": 3, "res": 2, "walltime": 4, "profile": "d"}]})", "w.json", 0);
  REQUIRE(w.workload.jobs.size() == 1);
  CHECK(w.workload.machine_nodes == 4);
  CHECK(w.walltime_cut == 1);
  CHECK(w.workload.jobs[0].runtime_s == 4);
}
