// `faultsweep fit` on the failure logs other than LANL's: csv traces whose nodes are large
// identifiers, FTA event traces (one system per platform, a node-name prefix), PNNL logs; the
// log's node names in the output; Spearman's pairs sampled above 10^6.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/parallel.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;
using namespace faultsweep::reliability;
using namespace faultsweep::fit_command;

namespace {

std::filesystem::path write(const testing::TempDir& dir, const std::string& name,
                            const std::string& text) {
  const auto p = dir.path() / name;
  std::ofstream(p) << text;
  return p;
}

// Runs fit quietly and returns the file's system_<S>/nodes/<column> as strings or numbers.
struct FitOut {
  std::filesystem::path file;
  std::vector<std::string> names(const std::string& system) const {
    io::File f = io::File::open_read(file);
    io::Handle g = io::open_group(f.id(), system + "/nodes", file.string());
    return io::read_strings(g.id(), "node_name", file.string());
  }
  std::vector<double> column(const std::string& path, const std::string& name) const {
    io::File f = io::File::open_read(file);
    io::Handle g = io::open_group(f.id(), path, file.string());
    std::vector<hsize_t> dims;
    return io::read_doubles(g.id(), name, dims, file.string());
  }
};

FitOut fit(const std::filesystem::path& log, const std::string& format, const FitLogOptions& o,
           const testing::TempDir& dir, int* systems = nullptr) {
  const auto out = dir.path() / (format + ".h5");
  std::FILE* sink = std::tmpfile();
  const int n = run_fit(log, format, out.string(), true, o, sink);
  std::fclose(sink);
  if (systems) *systems = n;
  return {out};
}

// Four failures per node: 3 TTFs each, so both nodes are fitted.
std::string csv_of(std::int64_t a, std::int64_t b) {
  std::string s = "time_s,node,downtime_s\n";
  for (int i = 0; i < 4; ++i) {
    s += fmt::format("{},{},60\n", 3600 * (i * i + 1), a);
    s += fmt::format("{},{},60\n", 5400 * (i * i * i + 1), b);
  }
  return s;
}

// FTA: platform 1 holds "cn1" and "cn2" (4 failures each), platform 2 holds "io7" (3).
std::string fta_log() {
  std::string s = "# event_id component_id node_id platform_id node_name event_type start stop\n";
  int id = 0;
  const auto add = [&](int platform, int node_id, const char* node, double start) {
    s += fmt::format("{} 0 {} {} {} 0 {} {} 0\n", ++id, node_id, platform, node, 1e9 + start,
                     1e9 + start + 60);
    s += fmt::format("{} 0 {} {} {} 1 {} {} 0\n", ++id, node_id, platform, node, 1e9 + start + 60,
                     1e9 + start + 61);
  };
  for (const double t : {0.0, 7200.0, 36000.0, 90000.0}) add(1, 2, "cn2", t);
  for (const double t : {3600.0, 18000.0, 19800.0, 100000.0}) add(1, 1, "cn1", t);
  for (const double t : {500.0, 9000.0, 40000.0}) add(2, 7, "io7", t);
  return s;
}

}  // namespace

TEST_CASE("fit csv: node identifiers are not indices (node 2147483647 with small memory)",
          "[reliability][fit][fit_formats]") {
  testing::TempDir dir("fitfmt");
  // Before, the analysis held one vector per identifier up to the largest: 2^31 of them.
  const auto log = write(dir, "big.csv", csv_of(2147483647, 12));
  const FitOut out = fit(log, "csv", FitLogOptions{}, dir);
  CHECK(out.column("system_0/nodes", "node_id") == std::vector<double>{12, 2147483647});
  CHECK(out.names("system_0") == std::vector<std::string>{"12", "2147483647"});
  CHECK(out.column("system_0/nodes", "ttf_count") == std::vector<double>{3, 3});
  // The same log with small identifiers gives the same analysis.
  testing::TempDir dir2("fitfmt2");
  const FitOut small = fit(write(dir2, "small.csv", csv_of(1, 0)), "csv", FitLogOptions{}, dir2);
  CHECK(small.column("system_0/nodes", "weibull_p1") == out.column("system_0/nodes", "weibull_p1"));
  CHECK(small.column("system_0/ttf", "ttf_h") == out.column("system_0/ttf", "ttf_h"));
}

TEST_CASE("fit fta: one system per platform, --system picks one, --node-prefix filters",
          "[reliability][fit][fit_formats]") {
  testing::TempDir dir("fitfta");
  const auto log = write(dir, "event_trace.tab", fta_log());
  int systems = 0;
  FitOut out = fit(log, "fta", FitLogOptions{}, dir, &systems);
  CHECK(systems == 2);
  CHECK(out.names("system_1") == std::vector<std::string>{"cn2", "cn1"});
  CHECK(out.names("system_2") == std::vector<std::string>{"io7"});
  FitLogOptions o;
  o.system = 2;
  out = fit(log, "fta", o, dir, &systems);
  CHECK(systems == 1);
  CHECK(out.names("system_2") == std::vector<std::string>{"io7"});
  o = {};
  o.node_prefix = "cn1";
  out = fit(log, "fta", o, dir, &systems);
  CHECK(systems == 1);  // platform 2 has no cn1 node: skipped with a message
  CHECK(out.names("system_1") == std::vector<std::string>{"cn1"});
  o.system = 2;
  CHECK_THROWS_WITH(fit(log, "fta", o, dir), Catch::Contains("other systems"));
  // Options that belong to another format are refused, naming the option.
  o = {};
  o.node_prefix = "cn";
  CHECK_THROWS_WITH(fit(log, "csv", o, dir), Catch::Contains("--node-prefix"));
  o = {};
  o.system = 1;
  CHECK_THROWS_WITH(fit(log, "pnnl", o, dir), Catch::Contains("--system"));
  CHECK_THROWS_WITH(fit(log, "swf", FitLogOptions{}, dir), Catch::Contains("lanl, csv, fta, pnnl"));
}

TEST_CASE("fit pnnl: the log's node identifiers are the node names",
          "[reliability][fit][fit_formats]") {
  testing::TempDir dir("fitpnnl");
  std::string text = "Date,Hardware Identifier,What Failed\n";
  for (const char* d : {"1/1/2003", "1/5/2003", "1/6/2003", "2/9/2003"})
    text += fmt::format("{},node 13,Disk\n{},switch 2,Port\n", d, d);
  for (const char* d : {"1/2/2003", "1/9/2003", "1/29/2003", "3/1/2003"})
    text += fmt::format("{},node 7,Memory\n", d);
  const auto log = write(dir, "mpp2.csv", text);
  const FitOut out = fit(log, "pnnl", FitLogOptions{}, dir);
  CHECK(out.names("system_0") == std::vector<std::string>{"node 13", "node 7"});
  CHECK(out.column("system_0/nodes", "ttf_count") == std::vector<double>{3, 3});
  FitLogOptions o;
  o.node_pattern = "switch [0-9]+";
  CHECK(fit(log, "pnnl", o, dir).names("system_0") == std::vector<std::string>{"switch 2"});
  o.node_pattern = "(a|aa)+b";
  CHECK_THROWS_WITH(fit(log, "pnnl", o, dir), Catch::Contains("\"node 13\", \"switch 2\""));
}

TEST_CASE("fit: Spearman pairs are all pairs up to 10^6, a seeded sample of 10^6 above",
          "[reliability][fit][fit_formats]") {
  // 1,500 nodes with 3 TTFs each: 1,124,250 pairs, more than 10^6.
  std::vector<std::vector<double>> times(1500);
  std::vector<std::int64_t> ids(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    ids[i] = static_cast<std::int64_t>(i);
    const double s = 1 + static_cast<double>(i % 7);
    times[i] = {0, s, s + 2 + static_cast<double>(i % 3), s + 9 - static_cast<double>(i % 5)};
  }
  FitLogOptions o;
  o.min_ttfs = 100;  // no law fitted: only the pairs matter here
  const SystemAnalysis a = analyse_nodes(0, ids, times, o);
  CHECK(a.spearman_sampled);
  CHECK(a.spearman.size() <= 1000000);
  CHECK(a.spearman.size() > 100000);
  const SystemAnalysis b = analyse_nodes(0, ids, times, o);
  CHECK(b.spearman == a.spearman);  // seeded
  times.resize(1414);               // 999,191 pairs: all of them
  ids.resize(1414);
  CHECK_FALSE(analyse_nodes(0, ids, times, o).spearman_sampled);
}

TEST_CASE("fit: the per-node fits give the same bits on 1, 2 and 3 threads",
          "[reliability][fit][fit_formats]") {
  // 600 nodes, Weibull renewal TTFs of different lengths (some too short to fit), seeded.
  Engine g = make_stream(5, 0, Purpose::locations, "fit threads test");
  std::vector<std::vector<double>> times(600);
  std::vector<std::int64_t> ids(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    ids[i] = static_cast<std::int64_t>(1000 + 3 * i);
    double t = 0;
    for (std::size_t k = 0; k < 2 + i % 11; ++k)
      times[i].push_back(t += 10 * std::pow(-std::log(1 - uniform01(g)), 1 / 0.7));
  }
  const auto with = [&](unsigned threads) {
    FitLogOptions o;
    o.threads = threads;
    return analyse_nodes(0, ids, times, o);
  };
  const SystemAnalysis one = with(1);
  REQUIRE(one.nodes_fitted > 300);
  for (const unsigned t : {2u, 3u}) {
    const SystemAnalysis many = with(t);
    CHECK(many.nodes_fitted == one.nodes_fitted);
    CHECK(many.best_count == one.best_count);
    CHECK(many.as_good_count == one.as_good_count);
    CHECK(many.spearman == one.spearman);  // pairs computed on the threads, kept in order
    REQUIRE(many.nodes.size() == one.nodes.size());
    for (std::size_t i = 0; i < one.nodes.size(); ++i) {
      const NodeAnalysis &a = one.nodes[i], &b = many.nodes[i];
      CHECK(a.best == b.best);
      REQUIRE(a.laws.size() == b.laws.size());
      for (std::size_t l = 0; l < a.laws.size(); ++l) {
        CHECK(a.laws[l].fit.p1 == b.laws[l].fit.p1);
        CHECK(a.laws[l].ks.p == b.laws[l].ks.p);
      }
      CHECK(a.weibull_censored.fit.p2 == b.weibull_censored.fit.p2);
    }
  }
}

TEST_CASE("parallel_for: every item once, the first exception rethrown", "[core][parallel]") {
  std::vector<int> hits(1000, 0);
  faultsweep::parallel_for(hits.size(), 3, [&](std::size_t i) { ++hits[i]; });
  CHECK(std::count(hits.begin(), hits.end(), 1) == 1000);
  CHECK_THROWS_WITH(faultsweep::parallel_for(500, 2,
                                             [](std::size_t i) {
                                               if (i == 321) throw std::runtime_error("item 321");
                                             }),
                    "item 321");
  CHECK(faultsweep::thread_count(0) >= 1);
  CHECK(faultsweep::thread_count(3) == 3);
}

TEST_CASE("parallel_for: a few long items are shared by the threads", "[core][parallel]") {
  // Four items of 30 ms on two threads: each thread takes some (with blocks of 64 items, the
  // first thread took all four and the second none).
  std::vector<std::thread::id> who(4);
  faultsweep::parallel_for(who.size(), 2, [&](std::size_t i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    who[i] = std::this_thread::get_id();
  });
  std::sort(who.begin(), who.end());
  CHECK(std::unique(who.begin(), who.end()) - who.begin() == 2);
}

TEST_CASE("fit slurm: sacctmgr events as the simulator reads them, the reason filters",
          "[reliability][fit][fit_formats]") {
  const testing::TempDir dir("fit-slurm");
  const auto log =
      std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/slurm/example_events.txt";
  FitLogOptions o;
  o.exclude_reason = "maint";
  int systems = 0;
  FitOut out = fit(log, "slurm", o, dir, &systems);
  CHECK(systems == 1);
  const auto names = out.names("system_0");
  REQUIRE(names.size() == 32);  // cn001..cn032, in sorted order
  CHECK(names.front() == "cn001");
  CHECK(names.back() == "cn032");
  o.reason = "no such reason";
  CHECK_THROWS_WITH(fit(log, "slurm", o, dir), Catch::Contains("no usable failure records"));
  // The reason options belong to the slurm format only.
  o = {};
  o.reason = "not responding";
  CHECK_THROWS_WITH(fit(log, "csv", o, dir), Catch::Contains("--reason"));
  o = {};
  o.exclude_reason = "maint";
  CHECK_THROWS_WITH(fit(log, "lanl", o, dir), Catch::Contains("--exclude-reason"));
}

TEST_CASE("fit fta: nodes by node_id, the file records the log, its format, filter and drops",
          "[reliability][fit][fit_formats][fta]") {
  // Platform 20 of this file: node_ids 1..120 named as LANL's archive names them, so that 12
  // names are shared (nodes 1, 10 and 100 are all "20.1"); the first failure of every node is
  // at one instant. Read by name, the shared names merged 23 nodes into 11 and turned their
  // common first failure into 12 "same-minute repeats".
  const std::filesystem::path log =
      std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/failures/fta_decimal_names.tab";
  testing::TempDir dir("fitftaid");
  FitLogOptions o;
  o.system = 20;
  const auto out = dir.path() / "fta.h5";
  std::FILE* report = std::tmpfile();
  run_fit(log, "fta", out.string(), true, o, report);
  std::rewind(report);
  std::string said(4096, '\0');
  said.resize(std::fread(said.data(), 1, said.size(), report));
  std::fclose(report);
  const FitOut f{out};
  const std::vector<std::string> names = f.names("system_20");
  CHECK(names.size() == 120);
  CHECK(std::count(names.begin(), names.end(), "20.1 (node_id 100)") == 1);
  CHECK(std::count(names.begin(), names.end(), "20.13") == 1);
  CHECK(f.column("system_20/nodes", "zero_ttfs") == std::vector<double>(120, 0.0));
  CHECK(f.column("system_20/nodes", "ttf_count") == std::vector<double>(120, 3.0));
  // `fit` says what the reader dropped, and the file keeps it with the log's identity.
  CHECK_THAT(said, Catch::Contains("dropped: 15 of other systems, 120 not unavailability"));
  io::File h = io::File::open_read(out);
  const std::string fn = out.string();
  CHECK(io::read_attr_string(h.id(), "log_format", fn) == "fta");
  CHECK(io::read_attr_string(h.id(), "node_filter", fn) == "platform_id = 20");
  CHECK(io::read_attr_string(h.id(), "log_sha256", fn).size() == 64);
  CHECK(io::read_attr_uint(h.id(), "log_size_bytes", fn) == std::filesystem::file_size(log));
  io::Handle g = io::open_group(h.id(), "system_20", fn);
  CHECK(io::read_attr_int(g.id(), "read_nodes", fn) == 120);
  CHECK(io::read_attr_int(g.id(), "read_events", fn) == 480);
  CHECK(io::read_attr_int(g.id(), "read_other_system", fn) == 15);
  CHECK(io::read_attr_int(g.id(), "read_not_failure", fn) == 120);
  CHECK(io::read_attr_int(g.id(), "zero_ttfs", fn) == 0);
}
