#pragma once
// Reader of PNNL's MPP2 hardware-failure log (Computer Failure Data Repository: a CSV whose
// header starts "Date, Hardware Identifier, What Failed, ..."). One row per failed part:
//   - the header is the first line naming both "Date" and "Hardware Identifier" (case and
//     blanks ignored); other columns (What Failed, ...) are not used;
//   - only rows about a node are kept: a Hardware Identifier that matches node_pattern (whole
//     identifier, case-insensitive, RE2 syntax: linear time, no backreferences or lookaround;
//     default "(node|n) *[0-9]+", e.g. "node 13" as in the public 2007 log, "n123" or "node7")
//     is a node; other rows (switches, racks, disks named alone) are dropped and counted
//     (TraceLog::not_node); when no row matches, the error lists identifiers seen;
//   - every kept row is a point failure at Date; the log has no repair times, so each failure
//     takes its node down for the user's downtime_s (required; no default is honest);
//   - Date is m/d/YYYY or m/d/YY (a date alone is at 0:00) or YYYY-MM-DD, each optionally with
//     a time H:MM; t = 0 at the earliest kept row;
//   - nodes are numbered 0..k-1 in order of first appearance (TraceLog::node_names);
//   - bad rows (field count, unreadable dates) are counted, or thrown with stop_on_bad.
#include <filesystem>
#include <string>
#include <string_view>

#include "faultsweep/failures/trace.hpp"

namespace faultsweep::failures {

struct PnnlOptions {
  double downtime_s = -1;  // required: >= 0
  std::string node_pattern = "(node|n) *[0-9]+";
  bool stop_on_bad = false;  // bad_lines = "fail"
};

TraceLog read_pnnl(const std::filesystem::path& file, const PnnlOptions& options);
TraceLog parse_pnnl(std::string_view text, const std::string& file, const PnnlOptions& options);

}  // namespace faultsweep::failures
