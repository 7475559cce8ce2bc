#pragma once
// Reader of Slurm's node events as `sacctmgr show event --parsable2` prints them (a header
// "Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User", one event per line, fields separated
// by '|'), e.g.
//   sacctmgr -P show event Event=Node Start=2026-01-01 End=2026-04-01
// or the same columns as a CSV a site exports (the header has no '|': fields are split as RFC
// 4180 CSV, so a reason may hold commas inside quotes). Columns are found by name, any case:
//   required: NodeName, TimeStart (or Start), TimeEnd (or End)
//   optional: Reason (required by a reason filter), others ignored
// Rules:
//   - each event is one outage of every node of NodeName, a Slurm host list ("cn[001-004,007]",
//     "a[1-2],b3"): down from TimeStart for TimeEnd - TimeStart; an empty NodeName is a
//     cluster event (not about a node: dropped, counted in not_node);
//   - a period still open at the dump (TimeEnd "Unknown", "None" or empty) ends at dump_time,
//     else at the latest time stamp of the file (a lower bound), counted as changed;
//   - reason / exclude_reason: RE2 regular expressions (case-insensitive, found anywhere in
//     Reason): keep only events whose reason matches `reason` and not `exclude_reason` (e.g.
//     reason = "not responding", exclude_reason = "maint"); dropped ones are counted
//     (filtered_cause); kept events are counted per reason;
//   - nodes: with node_list (a host list of the machine's nodes, e.g. "cn[001-128]"), node i is
//     its i-th name and events on other names are dropped (not_node); without it, the names of
//     the kept events in sorted order (digit runs compared as numbers: cn2 before cn10) are
//     nodes 0..k-1 (TraceLog::node_names);
//   - times: as sacct's (core/slurm_text.hpp) at utc_offset_s; t = 0 at start_unix_s when
//     given (events ended before it dropped, counted in before_start; events across it start
//     at 0), else at the earliest kept event;
//   - bad records (field count, a time that is not one, an end before its start, a host list
//     that is not one) are "file:line: field Name = 'value': what", counted or thrown with
//     stop_on_bad.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "faultsweep/failures/trace.hpp"

namespace faultsweep::failures {

struct SlurmEventOptions {
  std::string reason;          // keep only matching reasons (empty: all)
  std::string exclude_reason;  // drop matching reasons (empty: none)
  std::string node_list;       // the machine's nodes as a host list (empty: the events' names)
  double utc_offset_s = 0;
  std::optional<double> start_unix_s;
  std::optional<double> dump_unix_s;
  bool stop_on_bad = false;
  // The most names one host list may expand to (a bad record beyond it): far above any
  // machine's node count; lowered by the reader's fuzz target, whose inputs would otherwise
  // spend its time on a few ranges of millions of names.
  std::size_t max_host_names = std::size_t{1} << 24;
};

TraceLog parse_slurm_events(std::string_view text, const std::string& file,
                            const SlurmEventOptions& options);
TraceLog read_slurm_events(const std::filesystem::path& file, const SlurmEventOptions& options);

}  // namespace faultsweep::failures
