// The Failure Trace Archive reader (failures/fta.hpp) on hand-written event_trace.tab texts, and
// its hook in the failure-source factory (format = "fta").
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/fta.hpp"
#include "temp_dir.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::Value;
using namespace faultsweep::failures;

namespace {

// event_id component_id node_id platform_id node_name event_type start stop end_reason
// Node "hostB" appears first, so it is node 0; hostA node 1. Line 4 (event_type 1) is an
// availability event, line 7 ends before it starts, line 8 has 5 fields.
const char* const kTrace =
    "# a comment\n"
    "1\t0\t7\t1\thostB\t0\t1104537700\t1104541300\t0\n"
    "2\t0\t3\t1\thostA\t0\t1104537600.5\t1104537660.5\t1\n"
    "3\t0\t3\t1\thostA\t1\t1104537660.5\t1104540000\t0\n"
    "\n"
    "4\t1\t7\t1\thostB\t0\t1104600000\t1104600030\n"  // no end reason: 8 fields is fine
    "5\t0\t3\t1\thostA\t0\t1104700000\t1104690000\t0\n"
    "6\t0\t3\t1\thostA\n";

}  // namespace

TEST_CASE("FTA: unavailability events become failures, names numbered by first appearance",
          "[fta]") {
  const TraceLog log = parse_fta(kTrace, "event_trace.tab");
  CHECK(log.lines == 6);
  CHECK(log.not_failure == 1);
  CHECK(log.bad == 2);
  CHECK(log.nodes == 2);
  REQUIRE(log.node_names.size() == 2);
  CHECK(log.node_names[0] == "hostB");
  CHECK(log.node_names[1] == "hostA");
  CHECK(log.origin_unix_s == 1104537600.5);
  REQUIRE(log.events.size() == 3);
  // Sorted by time: hostA at 0 for 60 s, hostB at 99.5 s for 3600 s, hostB again later for 30 s.
  CHECK(log.events[0].time_s == 0);
  CHECK(log.events[0].node == 1);
  CHECK(log.events[0].downtime_s == 60);
  CHECK(log.events[1].time_s == 99.5);
  CHECK(log.events[1].node == 0);
  CHECK(log.events[1].downtime_s == 3600);
  CHECK(log.events[2].time_s == 1104600000 - 1104537600.5);
  CHECK(log.events[2].downtime_s == 30);
  REQUIRE(log.bad_messages.size() == 2);
  CHECK(log.bad_messages[0] ==
        "event_trace.tab:7: event_stop_time = \"1104690000\": expected "
        "seconds since 1970, not before event_start_time");
  CHECK(log.bad_messages[1] == "event_trace.tab:8: 5 fields, expected 8 or 9");
  CHECK(log.summary() ==
        "6 records, 3 failures on 2 nodes kept; dropped: 2 bad, 1 not unavailability events");
  CHECK_THROWS_WITH(parse_fta(kTrace, "e.tab", FtaOptions{true}), Catch::Contains("e.tab:7:"));
}

TEST_CASE("FTA: a header line gives the columns by name", "[fta]") {
  const std::string text =
      "node_name event_type event_end_time event_start_time\n"
      "n1 0 200 100\n"
      "n2 0 350 300\n"
      "n1 1 400 350\n";
  const TraceLog log = parse_fta(text, "h.tab");
  REQUIRE(log.events.size() == 2);
  CHECK(log.events[1].time_s == 200);
  CHECK(log.events[1].downtime_s == 50);
  CHECK(log.not_failure == 1);
  CHECK_THROWS_WITH(parse_fta("node event_type\nx 0\n", "h.tab"),
                    Catch::Contains("h.tab:1: no column \"node_name\""));
}

TEST_CASE("FTA: logs without an unavailability event name the file and the counts", "[fta]") {
  CHECK_THROWS_WITH(parse_fta("", "empty.tab"),
                    Catch::Contains("empty.tab") && Catch::Contains("no usable failure records"));
  CHECK_THROWS_WITH(parse_fta("1 0 1 1 a 1 10 20 0\n", "up.tab"),
                    Catch::Contains("1 not unavailability events"));
  CHECK_THROWS_WITH(parse_fta("1 0 1 1 a 0 inf 20 0\n1 0 1 1 a 0 -5 20 0\n", "inf.tab"),
                    Catch::Contains("every record is bad"));
}

TEST_CASE("FTA: format = \"fta\" in a trace failure source", "[fta]") {
  faultsweep::testing::TempDir dir("fta");
  std::ofstream(dir.path() / "event_trace.tab") << kTrace;
  Params t;
  t.set("process", Value(std::string("trace")));
  t.set("format", Value(std::string("fta")));
  t.set("file", Value(std::string("event_trace.tab")));
  CHECK_NOTHROW(validate_failures(t, 2, dir.path()));
  CHECK_THROWS_WITH(validate_failures(t, 1, dir.path()), Catch::Contains("the trace has 2 nodes"));
  t.set("system", Value(std::int64_t{20}));
  CHECK_THROWS_WITH(validate_failures(t, 2, dir.path()), Catch::Contains("unknown key"));
}

TEST_CASE("FTA: nodes are node_ids, names that several nodes share become unique labels", "[fta]") {
  // LANL's archive names node n of system 20 "20.n" as a decimal: nodes 1, 10 and 100 are all
  // "20.1". tests/data/failures/fta_decimal_names.tab: node_ids 1..120 of platform 20 under 108
  // distinct names, 4 failures each (read by name: 108 nodes, 92 failures on merged ones).
  const std::filesystem::path file =
      std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/failures/fta_decimal_names.tab";
  FtaOptions o;
  o.platform = 20;
  const TraceLog log = read_fta(file, o);
  CHECK(log.nodes == 120);
  CHECK(log.events.size() == 480);
  CHECK(log.other_system == 15);
  CHECK(log.not_failure == 120);
  REQUIRE(log.node_names.size() == 120);
  CHECK(log.node_names[0] == "20.1 (node_id 1)");
  CHECK(log.node_names[9] == "20.1 (node_id 10)");
  CHECK(log.node_names[99] == "20.1 (node_id 100)");
  CHECK(log.node_names[12] == "20.13");
  std::vector<int> per_node(120, 0);
  for (const auto& e : log.events) ++per_node[static_cast<std::size_t>(e.node)];
  CHECK(per_node == std::vector<int>(120, 4));
  // The same node_id on another platform is another node; without a node_id column (a header
  // that names none), nodes are their names as before.
  const TraceLog two =
      parse_fta("1 0 5 1 a 0 100 200 0\n2 0 5 2 a 0 300 400 0\n3 0 6 1 a 0 500 600 0\n", "two.tab");
  CHECK(two.nodes == 3);
  CHECK(two.node_names == std::vector<std::string>{"a (platform_id 1, node_id 5)",
                                                   "a (platform_id 2, node_id 5)",
                                                   "a (node_id 6)"});
  const TraceLog by_name = parse_fta(
      "node_name event_type event_start_time event_stop_time\nx 0 1 2\nx 0 3 4\n", "names.tab");
  CHECK(by_name.nodes == 1);
  CHECK_THROWS_WITH(parse_fta("1 0 n5 1 a 0 100 200 0\n", "bad.tab", FtaOptions{true}),
                    Catch::Contains("bad.tab:1: node_id = \"n5\": not an integer"));
}
