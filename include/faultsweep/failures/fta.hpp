#pragma once
// Reader of the Failure Trace Archive's event traces (`event_trace.tab`, the FTA standard
// layout; Kondo et al., "The Failure Trace Archive", CCGrid 2010). One event per line,
// whitespace-separated (tabs in the archive's files), nine columns:
//   1 event_id, 2 component_id, 3 node_id, 4 platform_id, 5 node_name, 6 event_type,
//   7 event_start_time, 8 event_stop_time, 9 event_end_reason (optional)
// event_type 0 = the component was unavailable (a failure) from start to stop, 1 = available;
// times are seconds since 1970-01-01 (UNIX epoch, fractions allowed).
// What the reader does:
//   - blank lines and lines starting with '#' are skipped; a first line whose event_type field is
//     not an integer is a header: columns are then found by name (event_type, event_start_time,
//     event_stop_time or event_end_time, node_name), so files with other column orders read too;
//   - with `platform`, only records of that platform_id are kept; with `node_prefix`, only nodes
//     whose node_name starts with it (an archive file may hold several machines: LANL's holds
//     all its systems); the others are counted as of other systems (TraceLog::other_system);
//   - events of a type other than 0 are dropped and counted (TraceLog::not_failure);
//   - each unavailability event is one failure of its node at event_start_time, down for
//     event_stop_time - event_start_time; several components of one node are the same node;
//   - nodes are identified by (platform_id, node_id) and numbered 0..k-1 in order of first
//     appearance among the kept events; node_name is their label (TraceLog::node_names), made
//     unique with " (node_id N)" where several nodes share it (LANL's archive names nodes 1, 10
//     and 100 of system 20 all "20.1"); a header naming no node_id column: nodes by node_name;
//   - t = 0 at the earliest kept event (TraceLog::origin_unix_s);
//   - bad records (field count, non-numbers (node_id too), negative or infinite times, stop before
//     start) are counted and reported as "file:line: reason", or thrown with stop_on_bad.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/failures/trace.hpp"

namespace faultsweep::failures {

struct FtaOptions {
  bool stop_on_bad = false;              // bad_lines = "fail"
  std::optional<std::int64_t> platform;  // keep only this platform_id
  std::string node_prefix;               // keep only node_names starting with this
};

TraceLog read_fta(const std::filesystem::path& file, const FtaOptions& options = {});
TraceLog parse_fta(std::string_view text, const std::string& file, const FtaOptions& options = {});
// The platform_ids present in an FTA text, ascending (empty if a header names no platform_id).
std::vector<std::int64_t> fta_platforms(std::string_view text);

}  // namespace faultsweep::failures
