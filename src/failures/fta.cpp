#include "faultsweep/failures/fta.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

// Column positions (0-based) of the fields the reader uses.
struct Columns {
  std::size_t node_name = 4, event_type = 5, start = 6, stop = 7;
  std::size_t min_fields = 8, max_fields = 9;  // event_end_reason may be absent
};

// Columns of a header line; throws InputError naming what is missing.
Columns header_columns(const std::vector<std::string>& f, const std::string& file,
                       std::int64_t line_no) {
  Columns c;
  const auto find = [&](std::initializer_list<const char*> names) {
    for (std::size_t i = 0; i < f.size(); ++i)
      for (const char* n : names)
        if (text::lower(f[i]) == n) return i;
    throw InputError(
        fmt::format("{}:{}: no column \"{}\" in the header; is this an FTA "
                    "event_trace.tab?",
                    file, line_no, *names.begin()));
  };
  c.node_name = find({"node_name"});
  c.event_type = find({"event_type"});
  c.start = find({"event_start_time"});
  c.stop = find({"event_stop_time", "event_end_time"});
  c.min_fields = c.max_fields = f.size();
  return c;
}

}  // namespace

TraceLog parse_fta(std::string_view data, const std::string& file, const FtaOptions& options) {
  TraceLog log;
  text::BadRecords bad(log, file, options.stop_on_bad);
  text::NodeNames names;
  text::Lines lines(data);
  std::string_view line;
  std::vector<std::string> f;
  Columns col;
  bool first = true;
  while (lines.next(line)) {
    const std::string t = text::trim(line);
    if (t.empty() || t.front() == '#') continue;
    text::split_ws(t, f);
    const auto at = lines.line_no();
    if (first && (f.size() <= col.event_type || !text::parse_int(f[col.event_type]))) {
      first = false;
      col = header_columns(f, file, at);
      continue;
    }
    first = false;
    ++log.lines;
    if (f.size() < col.min_fields || f.size() > col.max_fields) {
      bad.report(at, col.min_fields == col.max_fields
                         ? fmt::format("{} fields, expected {}", f.size(), col.min_fields)
                         : fmt::format("{} fields, expected {} or {}", f.size(), col.min_fields,
                                       col.max_fields));
      continue;
    }
    const auto type = text::parse_int(f[col.event_type]);
    if (!type) {
      bad.report(at, fmt::format("event_type = \"{}\": not an integer", f[col.event_type]));
      continue;
    }
    if (*type != 0) {  // 1 = available again; other types are not failures either
      ++log.not_failure;
      continue;
    }
    const auto start = text::parse_number(f[col.start]);
    const auto stop = text::parse_number(f[col.stop]);
    if (!start || *start < 0) {
      bad.report(at, fmt::format("event_start_time = \"{}\": expected seconds since 1970 >= 0",
                                 f[col.start]));
    } else if (!stop || *stop < *start || !std::isfinite(*stop - *start)) {
      bad.report(at, fmt::format("event_stop_time = \"{}\": expected seconds since 1970, not "
                                 "before event_start_time",
                                 f[col.stop]));
    } else {
      log.events.push_back({*start, names.index(f[col.node_name], log), *stop - *start});
    }
  }
  text::finish(log, file, text::Times::absolute);
  return log;
}

TraceLog read_fta(const std::filesystem::path& file, const FtaOptions& options) {
  return parse_fta(text::read_log(file), file.string(), options);
}

}  // namespace faultsweep::failures
