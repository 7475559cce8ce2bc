#pragma once
// Text handling shared by the failure-log readers (trace.cpp, lanl.cpp, fta.cpp, pnnl.cpp):
// reading a log into memory (plain, .gz or .xz), numbered lines, CSV fields, strict
// numbers and dates, and the bookkeeping of bad records. Every reader parses from memory, so
// the fuzz targets (fuzz/fuzz_traces.cpp) call exactly the code that reads files.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "faultsweep/failures/trace.hpp"

namespace faultsweep::failures::text {

// The whole text of a failure log, decompressed in memory when it is a .gz or .xz file
// (core/compressed.hpp; corrupt or truncated data is an InputError naming the file).
// Anything but a regular file (FIFO, device, folder) is refused before it is opened.
std::string read_log(const std::filesystem::path& file);

// Lines of a text, numbered from 1; "\n", "\r\n" and a last line without an end all work.
class Lines {
 public:
  explicit Lines(std::string_view text) : rest_(text) {}
  bool next(std::string_view& line);
  std::int64_t line_no() const { return line_no_; }

 private:
  std::string_view rest_;
  std::int64_t line_no_ = 0;
};

// One CSV line (RFC 4180 quoting: "a, b" is one field, "" inside quotes is a quote) into `out`
// (its strings are reused).
void split_csv(std::string_view line, std::vector<std::string>& out);
// Whitespace-separated fields.
void split_ws(std::string_view line, std::vector<std::string>& out);

std::string trim(std::string_view s);
std::string lower(std::string s);
// A finite number / an integer filling the whole (trimmed) text; nullopt otherwise.
std::optional<double> parse_number(std::string_view text);
std::optional<std::int64_t> parse_int(std::string_view text);

// Counts bad records in `log` and keeps the first ten "file:line: reason" messages, or throws
// InputError at the first one when `fail` (bad_lines = "fail").
class BadRecords {
 public:
  BadRecords(TraceLog& log, std::string file, bool fail)
      : log_(log), file_(std::move(file)), fail_(fail) {}
  void report(std::int64_t line_no, const std::string& reason);

 private:
  TraceLog& log_;
  std::string file_;
  bool fail_;
};

// Node names numbered 0..k-1 in order of first appearance (fta, pnnl); the names go to
// log.node_names and log.nodes.
class NodeNames {
 public:
  std::int32_t index(const std::string& name, TraceLog& log);

 private:
  std::unordered_map<std::string, std::int32_t> index_;
};

// The next non-blank CSV line with `columns` fields into `f` (each counted in log.lines);
// lines with another field count are reported to `bad` and skipped. False at the end.
bool next_record(Lines& lines, std::vector<std::string>& f, std::size_t columns, TraceLog& log,
                 BadRecords& bad);

// Events read with absolute times (UNIX seconds) become relative to the earliest one, kept in
// log.origin_unix_s.
void make_relative(TraceLog& log);

enum class Times { relative, absolute };

// Makes absolute times (UNIX seconds) relative to the earliest event (kept in
// log.origin_unix_s) when `times` is absolute, sorts the events by (time, node) and throws
// InputError naming the file with the log's summary (and the first bad record) when no event is
// left.
void finish(TraceLog& log, const std::string& file, Times times = Times::relative);

}  // namespace faultsweep::failures::text
