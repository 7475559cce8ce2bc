// The PNNL MPP2 hardware-failure log reader (failures/pnnl.hpp) on hand-written logs, and its
// hook in the failure-source factory (format = "pnnl", downtime required).
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "temp_dir.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::Value;
using namespace faultsweep::failures;

namespace {

// Line 3 is about a switch (not a node), line 5 has an impossible date, line 6 has a time,
// line 7 is a second failure of n17 (same node id).
const char* const kLog =
    "PNNL MPP2 hardware failures\n"
    "Date,Hardware Identifier,What Failed,Notes\n"
    "11/19/2003,switch4,Port card,\n"
    "11/20/2003,n17,Disk,\"replaced, tested\"\n"
    "2/30/2004,n3,CPU,\n"
    "11/21/2003 13:30,node3,Memory,\n"
    "2003-11-22,N17,Fan,\n";

PnnlOptions options(double downtime_s) {
  PnnlOptions o;
  o.downtime_s = downtime_s;
  return o;
}

}  // namespace

TEST_CASE("PNNL: node rows only, point failures down for the chosen repair time", "[pnnl]") {
  const TraceLog log = parse_pnnl(kLog, "mpp2.csv", options(7200));
  CHECK(log.lines == 5);
  CHECK(log.not_node == 1);
  CHECK(log.bad == 1);
  REQUIRE(log.bad_messages.size() == 1);
  CHECK(log.bad_messages[0].find("mpp2.csv:5: Date = \"2/30/2004\"") != std::string::npos);
  // Identifiers are names: "n17" and "N17" are two names (no guessing); first appearance order.
  CHECK(log.nodes == 3);
  REQUIRE(log.node_names.size() == 3);
  CHECK(log.node_names[0] == "n17");
  CHECK(log.node_names[1] == "node3");
  REQUIRE(log.events.size() == 3);
  CHECK(log.events[0].time_s == 0);
  CHECK(log.events[0].node == 0);
  CHECK(log.events[1].time_s == 86400 + 13.5 * 3600);
  CHECK(log.events[1].node == 1);
  CHECK(log.events[2].time_s == 2 * 86400);
  for (const auto& e : log.events) CHECK(e.downtime_s == 7200);
}

TEST_CASE("PNNL: options and errors", "[pnnl]") {
  CHECK_THROWS_WITH(parse_pnnl(kLog, "mpp2.csv", options(-1)), Catch::Contains("downtime"));
  PnnlOptions o = options(60);
  o.node_pattern = "switch[0-9]+";
  const TraceLog switches = parse_pnnl(kLog, "mpp2.csv", o);
  CHECK(switches.events.size() == 1);
  CHECK(switches.not_node == 4);
  o.node_pattern = "(";
  CHECK_THROWS_WITH(parse_pnnl(kLog, "mpp2.csv", o), Catch::Contains("node_pattern"));
  CHECK_THROWS_WITH(parse_pnnl("Date,What\n1/1/2003,x\n", "other.csv", options(60)),
                    Catch::Contains("other.csv: no header line"));
  CHECK_THROWS_WITH(parse_pnnl("Date,Hardware Identifier\n1/1/2003,rack1\n", "r.csv", options(60)),
                    Catch::Contains("1 not about a node"));
  o = options(60);
  o.stop_on_bad = true;
  CHECK_THROWS_WITH(parse_pnnl(kLog, "mpp2.csv", o), Catch::Contains("mpp2.csv:5:"));
}

TEST_CASE("PNNL: format = \"pnnl\" needs a downtime in the failure source", "[pnnl]") {
  faultsweep::testing::TempDir dir("pnnl");
  std::ofstream(dir.path() / "mpp2.csv") << kLog;
  Params t;
  t.set("process", Value(std::string("trace")));
  t.set("format", Value(std::string("pnnl")));
  t.set("file", Value(std::string("mpp2.csv")));
  CHECK_THROWS_WITH(validate_failures(t, 8, dir.path()), Catch::Contains("downtime"));
  t.set("downtime", Value(3600.0));
  CHECK_NOTHROW(validate_failures(t, 8, dir.path()));
  t.set("node_pattern", Value(std::string("n[0-9]+")));
  CHECK_NOTHROW(validate_failures(t, 8, dir.path()));
}

TEST_CASE("PNNL: a pattern that backtracks exponentially is matched in linear time", "[pnnl]") {
  // "(a|aa)+b" against 200 a's: a backtracking engine tries ~fib(200) splits and never ends.
  const std::string long_id(200, 'a');
  const std::string text = "Date,Hardware Identifier\n1/1/2003," + long_id + "b\n1/2/2003," +
                           long_id + "\n1/3/2003," + long_id + "b\n";
  PnnlOptions o = options(60);
  o.node_pattern = "(a|aa)+b";
  const TraceLog log = parse_pnnl(text, "slow.csv", o);
  CHECK(log.events.size() == 2);
  CHECK(log.not_node == 1);
  CHECK(log.nodes == 1);
  // RE2 refuses what it cannot run in linear time (backreferences), naming the key.
  o.node_pattern = "(n)\\1";
  CHECK_THROWS_WITH(parse_pnnl(text, "slow.csv", o),
                    Catch::Contains("node_pattern") && Catch::Contains("RE2"));
}

TEST_CASE("PNNL: the public 2007 log's \"node 13\" is a node by default", "[pnnl]") {
  // The layout of the public MPP2 log: identifiers "node <number>", a blank between.
  const char* const text =
      "Date,Hardware Identifier,What Failed\n"
      "11/19/2003,node 13,Disk\n"
      "11/20/2003,node 7,Memory\n"
      "11/21/2003,node 13,Disk\n"
      "11/22/2003,switch 2,Port\n";
  const TraceLog log = parse_pnnl(text, "mpp2_2007.csv", options(3600));
  CHECK(log.events.size() == 3);
  CHECK(log.not_node == 1);
  REQUIRE(log.node_names.size() == 2);
  CHECK(log.node_names[0] == "node 13");
  CHECK(log.node_names[1] == "node 7");
}

TEST_CASE("PNNL: when node_pattern matches nothing the error shows identifiers seen", "[pnnl]") {
  const char* const text =
      "Date,Hardware Identifier\n1/1/2003,cn-0013\n1/2/2003,cn-0007\n1/3/2003,cn-0013\n"
      "1/4/2003,rack1\n1/5/2003,cn-0002\n1/6/2003,cn-0003\n1/7/2003,cn-0004\n";
  CHECK_THROWS_WITH(parse_pnnl(text, "other.csv", options(60)),
                    Catch::Contains("node_pattern") && Catch::Contains("none of its 7 rows") &&
                        Catch::Contains("\"cn-0013\", \"cn-0007\", \"rack1\", \"cn-0002\", "
                                        "\"cn-0003\"") &&
                        !Catch::Contains("cn-0004"));
}
