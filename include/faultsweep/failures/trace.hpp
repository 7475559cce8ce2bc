#pragma once
// Trace replay: failures read from a log and emitted in (time, node) order.
//
// Formats (fta.hpp and pnnl.hpp add two more):
//   csv  - "time_s,node,downtime_s" per line; '#' starts a comment; a first line whose first
//          field is not a number is a header. Times in seconds, nodes 0-based (0 .. 2^31 - 1).
//   lanl - LANL's LA-UR-05-7318 failure data 1996-2005 (one CSV, 26 columns; see its README):
//          one system is selected, its node numbers (`nodenumz`) are mapped to 0..k-1 in sorted
//          order, optionally filtered by root cause, times are made relative to the first
//          selected failure (or to a given start date), downtime from `Down Time` (minutes) or
//          from `Prob Fixed` - `Prob Started`. The header is the first line naming both
//          `System` and `nodenumz` (title lines before it are skipped); header names are
//          matched case-insensitively, ignoring a "(mm/dd/yy hh:mm)"-style suffix; dates are
//          m/d/YYYY or m/d/YY (YY < 69: 20YY, else 19YY) with H:MM; CRLF line ends are fine.
// .gz and .xz files are decompressed in memory (core/compressed.hpp); plain files are read
// directly. Bad records are reported as "file:line: reason", skipped and counted (or, with
// stop_on_bad, i.e. bad_lines = "fail", thrown as InputError). A log of which no event is left
// is an InputError naming the file with the counts of what was dropped (TraceLog::summary).
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

class TraceSource final : public FailureSource {
 public:
  // Sorts the events by (time, node); node_offset is added to every node. Events at or after
  // horizon_s are not emitted.
  explicit TraceSource(std::vector<FailureEvent> events, std::int32_t node_offset = 0,
                       double horizon_s = std::numeric_limits<double>::infinity());
  // Replays events shared with other sources (a parsed log's, read once for every replica),
  // already sorted as above (every reader sorts them, text::finish), without a copy. Each event
  // is checked and offset as it is emitted, so a replica costs nothing per event it never
  // reaches.
  TraceSource(std::shared_ptr<const std::vector<FailureEvent>> sorted_events,
              std::int32_t node_offset, double horizon_s);
  FailureEvent next() override;
  std::size_t size() const { return events_->size(); }

 private:
  std::shared_ptr<const std::vector<FailureEvent>> events_;
  std::int32_t node_offset_ = 0;  // added as events are emitted (0 when already added)
  std::size_t pos_ = 0;
  double horizon_s_;
};

// Sorts events by (time, node, downtime): the order every TraceSource replays.
void sort_events(std::vector<FailureEvent>& events);
bool is_sorted_events(const std::vector<FailureEvent>& events);

// The result of reading a log: events (unsorted order of the file is not kept: sorted by
// (time, node)), and what was skipped.
struct TraceLog {
  std::vector<FailureEvent> events;
  // k: distinct nodes (lanl, fta, pnnl) or max node + 1 (csv: up to 2^31, hence 64 bits)
  std::int64_t nodes = 0;
  std::vector<std::int64_t> original_node;  // lanl: original_node[i] = nodenumz of node i
  std::vector<std::string> node_names;      // fta, pnnl: node_names[i] = the log's name of node i
  std::size_t lines = 0;                    // data lines seen (header excluded)
  std::size_t other_system = 0;             // lanl: records of other systems (fta: platforms)
  std::size_t filtered_cause = 0;           // lanl: records dropped by the cause filter
  std::size_t before_start = 0;             // lanl: records before the start date
  std::size_t not_failure = 0;              // fta: events other than unavailability
  std::size_t not_node = 0;                 // pnnl: rows about hardware that is not a node
  std::size_t bad = 0;                      // bad records skipped
  std::vector<std::string> bad_messages;    // the first few "file:line: reason"
  double origin_unix_s = 0;                 // lanl, fta, pnnl: the time that became t = 0
  // A format's own counts (slurm: periods open at the dump, kept events by reason): appended
  // to counts() by name and to the summary as "n what"; empty for the other formats.
  struct Extra {
    std::string name;
    std::int64_t n = 0;
    std::string what;
  };
  std::vector<Extra> extra;

  // Every count by name (lines, events, nodes, bad, other_system, filtered_cause,
  // before_start, not_failure, not_node, then the extra ones), in that order.
  std::vector<std::pair<std::string, std::int64_t>> counts() const;
  // One line: "120 records, 80 failures on 12 nodes kept; dropped: 30 of other systems, 10 bad"
  // (only the non-zero counts).
  std::string summary() const;
};

enum class LanlDowntime { down_time_column, fixed_minus_started };

struct LanlOptions {
  std::int64_t system = 20;
  // Root-cause categories to keep (case-insensitive column names: Facilities, Hardware,
  // Human Error, Network, Undetermined, Software); empty keeps all.
  std::vector<std::string> causes;
  std::optional<double> start_unix_s;  // t = 0 here (records before it dropped) if given
  LanlDowntime downtime = LanlDowntime::down_time_column;
  bool stop_on_bad = false;
};

// The six root-cause columns, in file order.
const std::vector<std::string>& lanl_causes();

TraceLog read_lanl(const std::filesystem::path& file, const LanlOptions& options);
TraceLog read_trace_csv(const std::filesystem::path& file, bool stop_on_bad = false);
// The same from a text in memory; `file` names it in messages (the read_* functions read the
// file with text::read_log and call these).
TraceLog parse_lanl(std::string_view text, const std::string& file, const LanlOptions& options);
TraceLog parse_trace_csv(std::string_view text, const std::string& file, bool stop_on_bad = false);

// Seconds since 1970-01-01 00:00 (civil time, no time zone or DST) of "m/d/YYYY H:MM" or
// "m/d/YY H:MM" (LANL; YY < 69 is 20YY, else 19YY, as POSIX strptime's %y) or
// "YYYY-MM-DD[ HH:MM[:SS]]"; nullopt if the text is neither or names no real date (Feb 31,
// Feb 29 of a common year, hour 24, years outside 1900 .. 9999).
std::optional<double> parse_civil_time_s(const std::string& text);

}  // namespace faultsweep::failures
