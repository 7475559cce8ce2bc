// The reader of Slurm node events (failures/slurm_events.hpp) on
// tests/data/slurm/events_small.txt and hand-written dumps: host lists, open periods, the
// reason filter, node numbering, the start date, the CSV form, errors; its trace-format row.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/slurm_events.hpp"
#include "input_support.hpp"

using faultsweep::InputError;
using faultsweep::Value;
using namespace faultsweep::failures;

namespace {

const std::filesystem::path kEvents =
    std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/slurm/events_small.txt";

std::int64_t extra(const TraceLog& log, const std::string& name) {
  for (const auto& e : log.extra)
    if (e.name == name) return e.n;
  return -1;
}

// The events of node `name` as (time_s, downtime_s).
std::vector<std::pair<double, double>> of_node(const TraceLog& log, const std::string& name) {
  std::vector<std::pair<double, double>> out;
  for (const auto& e : log.events)
    if (log.node_names.at(static_cast<std::size_t>(e.node)) == name)
      out.emplace_back(e.time_s, e.downtime_s);
  return out;
}

}  // namespace

TEST_CASE("Slurm events: host lists, open periods, sorted node names", "[slurm_events]") {
  const TraceLog log = read_slurm_events(kEvents, {});
  CHECK(log.lines == 7);
  CHECK(log.not_node == 1);  // the cluster event
  CHECK(log.events.size() == 7);
  CHECK(log.node_names ==
        std::vector<std::string>{"cn001", "cn002", "cn003", "cn004", "cn005", "cn007"});
  CHECK(log.nodes == 6);
  // t = 0 at the first event (09:00); cn[001-002] both down 1.5 h.
  CHECK(of_node(log, "cn001") == std::vector<std::pair<double, double>>{{0, 5400}});
  CHECK(of_node(log, "cn002") ==
        std::vector<std::pair<double, double>>{{0, 5400}, {7.5 * 3600, 1800}});
  // Open at the dump: closed at the file's latest time (17:00).
  CHECK(of_node(log, "cn004") == std::vector<std::pair<double, double>>{{7 * 3600, 3600}});
  CHECK(extra(log, "open_at_dump") == 1);
  CHECK(extra(log, "reason:Not responding") == 3);
  CHECK(log.summary() ==
        "7 records, 7 failures on 6 nodes kept; dropped: 1 not about a node; 1 periods open at "
        "the dump closed there, 1 \"Kill task failed\", 1 \"NHC: disk /scratch full\", 3 \"Not "
        "responding\", 1 \"maintenance: PSU swap\"");
}

TEST_CASE("Slurm events: reason filter, node list, start, dump time", "[slurm_events]") {
  SlurmEventOptions o;
  o.reason = "not responding";
  TraceLog log = read_slurm_events(kEvents, o);
  CHECK(log.events.size() == 4);
  CHECK(log.filtered_cause == 3);
  o = {};
  o.exclude_reason = "maint";
  log = read_slurm_events(kEvents, o);
  CHECK(log.filtered_cause == 1);
  CHECK(of_node(log, "cn003").empty());

  o = {};
  o.node_list = "cn[001-008]";
  log = read_slurm_events(kEvents, o);
  CHECK(log.nodes == 8);
  CHECK(log.node_names.at(6) == "cn007");
  o.node_list = "cn[001-004]";  // events on cn005 and cn007 are not this machine's
  log = read_slurm_events(kEvents, o);
  CHECK(log.not_node == 1 + 2);

  o = {};
  o.start_unix_s = log.origin_unix_s + 3600;  // 10:00: cn[001-002]'s outage is cut there
  log = read_slurm_events(kEvents, o);
  CHECK(of_node(log, "cn001") == std::vector<std::pair<double, double>>{{0, 1800}});
  CHECK(extra(log, "clipped_at_start") == 2);
  o.start_unix_s = *o.start_unix_s + 3600;  // 11:00: it ended before
  log = read_slurm_events(kEvents, o);
  CHECK(log.before_start == 2);
  CHECK(of_node(log, "cn001").empty());

  o = {};
  o.dump_unix_s = read_slurm_events(kEvents, {}).origin_unix_s + 11 * 3600;  // 20:00
  CHECK(of_node(read_slurm_events(kEvents, o), "cn004") ==
        std::vector<std::pair<double, double>>{{7 * 3600, 4 * 3600}});
}

TEST_CASE("Slurm events: the CSV form reads the same", "[slurm_events]") {
  const std::string csv =
      "Cluster,NodeName,TimeStart,TimeEnd,State,Reason,User\n"
      "c,\"cn[001-002]\",2026-11-02T09:00:00,2026-11-02T10:30:00,DOWN*,\"Not responding, "
      "again\",slurm\n"
      "c,cn004,2026-11-02T16:00:00,Unknown,DOWN,Not responding,slurm\n";
  const TraceLog log = parse_slurm_events(csv, "e.csv", {});
  CHECK(log.events.size() == 3);
  CHECK(extra(log, "reason:Not responding, again") == 1);
  CHECK(of_node(log, "cn004") == std::vector<std::pair<double, double>>{{7 * 3600, 0}});
}

TEST_CASE("Slurm events: errors name the file, line, field and value", "[slurm_events]") {
  const std::string head = "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User\n";
  const auto error_of = [&](const std::string& record) {
    SlurmEventOptions o;
    o.stop_on_bad = true;
    const auto e = faultsweep::testing::thrown_error(
        [&] { (void)parse_slurm_events(head + record + "\n", "ev.txt", o); });
    return e ? std::string(e->what()) : "no error";
  };
  CHECK(error_of("c|cn1|yesterday|Unknown|DOWN|x|u") ==
        "ev.txt:2: field TimeStart = 'yesterday': not a Slurm time (YYYY-MM-DDTHH:MM:SS)");
  CHECK(error_of("c|cn1|2026-01-01T00:00:00|later|DOWN|x|u")
            .find("ev.txt:2: field TimeEnd = 'later': not a Slurm time") == 0);
  CHECK(error_of("c|cn1|2026-01-01T01:00:00|2026-01-01T00:00:00|DOWN|x|u") ==
        "ev.txt:2: field TimeEnd = '2026-01-01T00:00:00': before TimeStart "
        "'2026-01-01T01:00:00'");
  CHECK(error_of("c|cn[2-1]|2026-01-01T00:00:00|Unknown|DOWN|x|u") ==
        "ev.txt:2: field NodeName = 'cn[2-1]': not a Slurm host list: range \"2-1\" ends below "
        "its start");
  CHECK(error_of("c|cn1|2026-01-01T00:00:00") ==
        "ev.txt:2: expected 7 fields as in the header, found 3");
  const auto missing = faultsweep::testing::thrown_error(
      [] { (void)parse_slurm_events("Cluster|Node|TimeStart|TimeEnd\n", "h.txt", {}); });
  REQUIRE(missing);
  CHECK(std::string(missing->what()).find("h.txt:1: the event header has no column NodeName") == 0);
  SlurmEventOptions bad_re;
  bad_re.reason = "(";
  CHECK(faultsweep::testing::thrown_key([&] { (void)parse_slurm_events(head, "e", bad_re); }) ==
        "reason");
  SlurmEventOptions bad_list;
  bad_list.node_list = "cn[1-";
  CHECK(faultsweep::testing::thrown_key([&] { (void)parse_slurm_events(head, "e", bad_list); }) ==
        "node_list");
}

TEST_CASE("Slurm events: format = \"slurm\" of a trace, its keys checked", "[slurm_events]") {
  using faultsweep::testing::make_params;
  const auto dir = kEvents.parent_path();
  auto table = make_params({{"process", Value(std::string("trace"))},
                            {"format", Value(std::string("slurm"))},
                            {"file", Value(std::string("events_small.txt"))},
                            {"node_list", Value(std::string("cn[001-008]"))},
                            {"exclude_reason", Value(std::string("maint"))}});
  validate_failures(table, 8, dir);
  const auto reading = trace_reading(table, 8, dir);
  REQUIRE(reading);
  CHECK(reading->node_names.size() == 8);
  CHECK(reading->summary.find("6 failures on 8 nodes kept") != std::string::npos);
  using faultsweep::testing::thrown_key;
  const auto with = [&](const char* key, const char* value) {
    auto t = table;
    t.set(key, Value(std::string(value)));
    return thrown_key([&] { validate_failures(t, 8, dir); });
  };
  CHECK(with("reason", "[") == "reason");
  CHECK(with("utc_offset", "+2") == "utc_offset");
  CHECK(with("dump_time", "now") == "dump_time");
  CHECK(with("node_list", "cn[001-") == "node_list");
  CHECK(with("node_list", "cn[001-016]") == "file");  // 16 nodes on a machine of 8
}
