// `faultsweep fit` on small LANL-format logs written here: the per-node TTFs, the documented
// handling of bad input (empty log, unknown system, a node with one failure, same-minute
// failures, unparsable dates), the HDF5 file and the k_node model reading it back.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <hdf5.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/models/registry.hpp"
#include "faultsweep/reliability/node_table.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;
using namespace faultsweep::reliability;
using namespace faultsweep::fit_command;

namespace {

const char* kHeader =
    "System,machine type,nodes,procstot,procsinnode,nodenum,nodenumz,node install,node prod,"
    "node decom,fru type,mem,cputype,memtype,num intercon,purpose,Prob Started,Prob Fixed,"
    "Down Time,Facilities,Hardware,Human Error,Network,Undetermined,Software,Same Event\n";

std::string record(int system, int node, const std::string& started) {
  return fmt::format(
      "{},cluster,4,16,4,{},{},5-Apr,5-Jun,current,part,8,1,1,0,compute,{},{},10,,"
      "Memory,,,,,No\n",
      system, node, node, started, started);
}

std::filesystem::path write(const testing::TempDir& dir, const std::string& name,
                            const std::string& text) {
  const auto p = dir.path() / name;
  std::ofstream(p) << text;
  return p;
}

// System 2: node 0 fails on days 1, 3, 6, 10 (TTFs 48, 72, 96 h) and twice in one minute on
// day 10; node 1 fails once (no TTF); node 5 fails on days 2, 4.5, 5, 9 (TTFs 60, 12, 96 h).
// System 7: one record with an unparsable date. Then one bad line of system 2.
std::string small_log() {
  std::string s = kHeader;
  for (const char* d :
       {"1/1/2004 0:00", "1/3/2004 0:00", "1/6/2004 0:00", "1/10/2004 0:00", "1/10/2004 0:00"})
    s += record(2, 0, d);
  s += record(2, 1, "1/5/2004 12:00");
  for (const char* d : {"1/2/2004 0:00", "1/4/2004 12:00", "1/5/2004 0:00", "1/9/2004 0:00"})
    s += record(2, 5, d);
  s += record(7, 0, "yesterday");
  s += record(2, 0, "13/45/2004 99:00");
  return s;
}

FitLogOptions options() {
  FitLogOptions o;
  o.min_ttfs = 3;
  return o;
}

}  // namespace

TEST_CASE("fit: TTFs per node, same-minute repeats dropped, one-failure nodes counted",
          "[reliability][fit]") {
  testing::TempDir dir("fit");
  const auto log = write(dir, "log.csv", small_log());
  const SystemAnalysis a = analyse_lanl_system(log, 2, options());
  REQUIRE(a.nodes.size() == 3);
  CHECK(a.nodes[0].node_id == 0);
  CHECK(a.nodes[0].ttf == std::vector<double>{48, 72, 96});
  CHECK(a.nodes[0].zero_ttfs == 1);
  CHECK(a.nodes[1].ttf.empty());
  CHECK(a.nodes[2].ttf == std::vector<double>{60, 12, 96});
  CHECK(a.nodes_without_ttf == 1);
  CHECK(a.nodes_fitted == 2);
  CHECK(a.zero_ttfs == 1);
  // The end of observation is the system's last failure (day 10): node 5 survived 24 h after
  // its last failure, node 0 none.
  CHECK(a.nodes[2].censored == Approx(24.0));
  CHECK(a.nodes[0].censored == 0.0);
  // The unparsable date of system 2 is a bad line, reported with file:line.
  CHECK(a.bad_lines == 1);
  REQUIRE(a.bad_messages.size() == 1);
  CHECK_THAT(a.bad_messages[0], Catch::Contains("log.csv:13") && Catch::Contains("13/45/2004"));
  // Fig. 4.1 over the three nodes: system failures on days 1, 2, 3, 4.5, 5, 5.5, 6, 9, 10.
  // In order: k = 2, then all 3 nodes; at random: k = 2.
  REQUIRE(a.systems_of_k.size() == 3);
  const SystemOfK& all = a.systems_of_k[1];
  CHECK((!all.random && all.k == 3));
  CHECK(all.ttf == std::vector<double>{24, 24, 36, 12, 12, 12, 72, 24});
  CHECK(a.systems_of_k[2].random);
}

TEST_CASE("fit: bad logs are clear errors", "[reliability][fit]") {
  testing::TempDir dir("fit");
  const auto empty = write(dir, "empty.csv", "");
  CHECK_THROWS_WITH(run_fit(empty, "lanl", "", false, options(), stdout),
                    Catch::Contains("empty.csv") && Catch::Contains("empty file"));
  const auto header = write(dir, "header.csv", kHeader);
  CHECK_THROWS_WITH(run_fit(header, "lanl", "", false, options(), stdout),
                    Catch::Contains("no failure records"));
  const auto log = write(dir, "log.csv", small_log());
  FitLogOptions o = options();
  o.system = 99;
  CHECK_THROWS_WITH(
      run_fit(log, "lanl", "", false, o, stdout),
      Catch::Contains("no usable failure records") && Catch::Contains("12 of other systems"));
  o.system = 7;  // its only record has an unparsable date
  CHECK_THROWS_WITH(run_fit(log, "lanl", "", false, o, stdout),
                    Catch::Contains("1 bad") && Catch::Contains("yesterday"));
  o.system = 2;
  o.stop_on_bad = true;
  CHECK_THROWS_WITH(run_fit(log, "lanl", "", false, o, stdout), Catch::Contains("log.csv:13"));
  // A system whose nodes each failed once has no TTF at all.
  std::string once = kHeader;
  once += record(3, 0, "1/1/2004 0:00") + record(3, 1, "1/2/2004 0:00");
  o = options();
  o.system = 3;
  CHECK_THROWS_WITH(run_fit(write(dir, "once.csv", once), "lanl", "", false, o, stdout),
                    Catch::Contains("failed twice"));
}

TEST_CASE("fit: all systems skip the unusable one, the HDF5 file reads back into k_node",
          "[reliability][fit]") {
  testing::TempDir dir("fit");
  const auto log = write(dir, "log.csv", small_log());
  const auto out = dir.path() / "fit.h5";
  std::FILE* report = std::tmpfile();
  CHECK(run_fit(log, "lanl", out.string(), false, options(), report) == 1);  // 7 skipped
  std::rewind(report);
  char buf[4096] = {};
  CHECK(std::fread(buf, 1, sizeof buf - 1, report) > 0);
  std::fclose(report);
  CHECK_THAT(std::string(buf), Catch::Contains("system 7 skipped") && Catch::Contains("system 2:"));
  {
    io::File f = io::File::open_read(out);
    CHECK(io::read_attr_string(f.id(), "filetype", out.string()) == "faultsweep-fit");
    CHECK(io::read_attr_int(f.id(), "schema_version", out.string()) == 1);
    CHECK(io::read_attr_string(f.id(), "systems", out.string()) == "2");
    std::vector<hsize_t> dims;
    io::Handle g = io::open_group(f.id(), "system_2/nodes", out.string());
    const auto ttf_count = io::read_doubles(g.id(), "ttf_count", dims, out.string());
    CHECK(ttf_count == std::vector<double>{3, 0, 3});
  }
  // Nodes with a Weibull fit become k_node nodes (age 0).
  const std::vector<Node> nodes = read_fit_nodes(out, std::nullopt);
  CHECK(nodes.size() == 2);
  CHECK(nodes[0].law.kind() == dist::Kind::weibull);
  CHECK_THROWS_AS(read_fit_nodes(out, 5), InputError);
  // ... and the k_node model takes them from `node_fit`.
  const models::Model* m = models::find_model("k_node");
  REQUIRE(m != nullptr);
  Params p;
  for (const auto& s : m->params())
    if (s.default_value) p.set(s.name, *s.default_value);
  p.set("runtime", Value(10 * 3600.0));
  p.set("p", Value(0.9));
  p.set("node_fit", Value(out.string()));
  m->validate(p, ".");
  std::vector<double> metrics(m->metrics().size());
  m->run(p, models::RunContext{}, metrics);
  CHECK(metrics[7] >= 1);  // k_opt among the 2 fitted nodes
  CHECK(metrics[7] <= 2);
  CHECK(metrics[3] > 0);
  // An existing output is not replaced without overwrite.
  CHECK_THROWS_WITH(run_fit(log, "lanl", out.string(), false, options(), stdout),
                    Catch::Contains("--overwrite"));
}

TEST_CASE(
    "fit: Weibull TTFs of shape 0.6 make the Weibull best or as good on most nodes, and "
    "the exponential almost never (seed 7)",
    "[reliability][fit]") {
  Engine e = make_stream(7, 0, Purpose::failures, "test_reliability_fit");
  const dist::Dist law = dist::Dist::weibull(0.6, 500.0);
  std::vector<std::vector<double>> times(40);
  std::vector<std::int64_t> ids(40);
  for (std::size_t i = 0; i < times.size(); ++i) {
    ids[i] = static_cast<std::int64_t>(i);
    double t = 0;
    for (int j = 0; j < 60; ++j) times[i].push_back(t += law.sample(e));
  }
  const SystemAnalysis a = analyse_nodes(1, ids, times, options());
  CHECK(a.nodes_fitted == 40);
  // laws: exponential, weibull, gamma, lognormal
  INFO("as good: exponential " << a.as_good_count[0] << ", weibull " << a.as_good_count[1]);
  CHECK(a.as_good_count[1] > 20);
  CHECK(a.as_good_count[0] < 5);
  CHECK(a.spearman.size() == 40 * 39 / 2);
}

TEST_CASE("fit: a csv trace (time_s,node,downtime_s) is one system, silent nodes are left out",
          "[reliability][fit]") {
  testing::TempDir dir("fit");
  // Node 0 fails at 0, 1, 3, 6 h; node 2 at 2, 4, 8, 9 h; node 1 never.
  const auto log = write(dir, "trace.csv",
                         "time_s,node,downtime_s\n0,0,60\n3600,0,60\n7200,2,0\n10800,0,60\n"
                         "14400,2,0\n21600,0,60\n28800,2,0\n32400,2,0\n");
  const auto out = dir.path() / "fit.h5";
  std::FILE* sink = std::tmpfile();
  CHECK(run_fit(log, "csv", out.string(), false, options(), sink) == 1);
  std::fclose(sink);
  io::File f = io::File::open_read(out);
  std::vector<hsize_t> dims;
  io::Handle g = io::open_group(f.id(), "system_0/nodes", out.string());
  CHECK(io::read_doubles(g.id(), "node_id", dims, out.string()) == std::vector<double>{0, 2});
  io::Handle t = io::open_group(f.id(), "system_0/ttf", out.string());
  CHECK(io::read_doubles(t.id(), "ttf_h", dims, out.string()) ==
        std::vector<double>{1, 2, 3, 2, 4, 1});
  CHECK_THROWS_AS(run_fit(log, "swf", "", false, options(), stdout), InputError);
}
