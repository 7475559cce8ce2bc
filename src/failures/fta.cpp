#include "faultsweep/failures/fta.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

// Column positions (0-based) of the fields the reader uses.
struct Columns {
  std::size_t node_id = 2, platform = 3, node_name = 4, event_type = 5, start = 6, stop = 7;
  bool has_node_id = true, has_platform = true;
  std::size_t min_fields = 8, max_fields = 9;  // event_end_reason may be absent
};

// Columns of a header line; throws InputError naming what is missing.
Columns header_columns(const std::vector<std::string>& f, const std::string& file,
                       std::int64_t line_no) {
  Columns c;
  const auto position = [&](const char* name) {
    for (std::size_t i = 0; i < f.size(); ++i)
      if (text::lower(f[i]) == name) return i;
    return f.size();
  };
  const auto find = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (position(n) < f.size()) return position(n);
    throw InputError(
        fmt::format("{}:{}: no column \"{}\" in the header; is this an FTA "
                    "event_trace.tab?",
                    file, line_no, *names.begin()));
  };
  c.node_name = find({"node_name"});
  c.event_type = find({"event_type"});
  c.start = find({"event_start_time"});
  c.stop = find({"event_stop_time", "event_end_time"});
  c.node_id = position("node_id");
  c.has_node_id = c.node_id < f.size();
  c.platform = position("platform_id");
  c.has_platform = c.platform < f.size();
  c.min_fields = c.max_fields = f.size();
  return c;
}

// The data rows of an event trace, split into fields: blank and '#' lines skipped, and a first
// line whose event_type field is not an integer read as a header giving the columns.
class Rows {
 public:
  Rows(std::string_view data, std::string file) : lines_(data), file_(std::move(file)) {}
  bool next(std::vector<std::string>& f) {
    std::string_view line;
    while (lines_.next(line)) {
      const std::string t = text::trim(line);
      if (t.empty() || t.front() == '#') continue;
      text::split_ws(t, f);
      const bool header =
          first_ && (f.size() <= col_.event_type || !text::parse_int(f[col_.event_type]));
      first_ = false;
      if (!header) return true;
      col_ = header_columns(f, file_, lines_.line_no());
      header_line_ = lines_.line_no();
    }
    return false;
  }
  const Columns& columns() const { return col_; }
  std::int64_t line_no() const { return lines_.line_no(); }
  std::int64_t header_line() const { return header_line_; }  // 0: none

 private:
  text::Lines lines_;
  std::string file_;
  Columns col_;
  bool first_ = true;
  std::int64_t header_line_ = 0;
};

// True if the record is of the selected platform and node-name prefix; false (counted as of
// another system) otherwise.
bool selected(const std::vector<std::string>& f, const Columns& col, const FtaOptions& options,
              text::BadRecords& bad, std::int64_t at, TraceLog& log) {
  if (options.platform) {
    const auto platform = text::parse_int(f[col.platform]);
    if (!platform) {
      bad.report(at, fmt::format("platform_id = \"{}\": not an integer", f[col.platform]));
      return false;
    }
    if (*platform != *options.platform) return ++log.other_system, false;
  }
  if (f[col.node_name].compare(0, options.node_prefix.size(), options.node_prefix) != 0)
    return ++log.other_system, false;
  return true;
}

// Nodes by (platform_id, node_id), the archive's identity of a node, numbered 0..k-1 in order of
// first appearance; node_name is only a label. Names cannot identify nodes: LANL's are decimals
// written without trailing zeros, so nodes 1, 10 and 100 of a system are all named "20.1".
class NodeIds {
 public:
  std::int32_t index(const std::string& platform, std::int64_t id, const std::string& name,
                     TraceLog& log) {
    const auto [it, added] =
        index_.emplace(std::pair{platform, id}, static_cast<std::int32_t>(index_.size()));
    if (added) {
      keys_.push_back(it->first);
      log.node_names.push_back(name);
      log.nodes = static_cast<std::int64_t>(index_.size());
    }
    return it->second;
  }
  // A name that several nodes share gets their node_id (and platform_id, if that is not enough),
  // so that every label names one node.
  void make_labels_unique(TraceLog& log) const {
    if (keys_.size() != log.node_names.size()) return;  // nodes by name: no node_id column
    std::map<std::string, int> uses;
    for (const std::string& n : log.node_names) ++uses[n];
    std::map<std::pair<std::string, std::int64_t>, int> id_uses;  // (name, node_id)
    for (std::size_t i = 0; i < keys_.size(); ++i) ++id_uses[{log.node_names[i], keys_[i].second}];
    for (std::size_t i = 0; i < log.node_names.size(); ++i) {
      std::string& n = log.node_names[i];
      const auto& [platform, id] = keys_[i];
      if (id_uses[{n, id}] > 1)
        n += fmt::format(" (platform_id {}, node_id {})", platform, id);
      else if (uses[n] > 1)
        n += fmt::format(" (node_id {})", id);
    }
  }

 private:
  std::map<std::pair<std::string, std::int64_t>, std::int32_t> index_;
  std::vector<std::pair<std::string, std::int64_t>> keys_;
};

}  // namespace

TraceLog parse_fta(std::string_view data, const std::string& file, const FtaOptions& options) {
  TraceLog log;
  text::BadRecords bad(log, file, options.stop_on_bad);
  text::NodeNames names;  // a file whose header names no node_id column: nodes by name
  NodeIds ids;
  Rows rows(data, file);
  std::vector<std::string> f;
  while (rows.next(f)) {
    const Columns& col = rows.columns();
    const auto at = rows.line_no();
    if (options.platform && !col.has_platform)
      throw InputError("platform", fmt::format("{}", *options.platform),
                       fmt::format("a platform_id column in {}; its header (line {}) has none",
                                   file, rows.header_line()));
    ++log.lines;
    if (f.size() < col.min_fields || f.size() > col.max_fields) {
      bad.report(at, col.min_fields == col.max_fields
                         ? fmt::format("{} fields, expected {}", f.size(), col.min_fields)
                         : fmt::format("{} fields, expected {} or {}", f.size(), col.min_fields,
                                       col.max_fields));
      continue;
    }
    if (!selected(f, col, options, bad, at, log)) continue;
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
    const auto id = col.has_node_id ? text::parse_int(f[col.node_id]) : std::nullopt;
    if (col.has_node_id && !id) {
      bad.report(at, fmt::format("node_id = \"{}\": not an integer", f[col.node_id]));
    } else if (!start || *start < 0) {
      bad.report(at, fmt::format("event_start_time = \"{}\": expected seconds since 1970 >= 0",
                                 f[col.start]));
    } else if (!stop || *stop < *start || !std::isfinite(*stop - *start)) {
      bad.report(at, fmt::format("event_stop_time = \"{}\": expected seconds since 1970, not "
                                 "before event_start_time",
                                 f[col.stop]));
    } else {
      const std::int32_t node = col.has_node_id ? ids.index(col.has_platform ? f[col.platform] : "",
                                                            *id, f[col.node_name], log)
                                                : names.index(f[col.node_name], log);
      log.events.push_back({*start, node, *stop - *start});
    }
  }
  ids.make_labels_unique(log);
  text::finish(log, file, text::Times::absolute);
  return log;
}

std::vector<std::int64_t> fta_platforms(std::string_view data) {
  std::set<std::int64_t> found;
  Rows rows(data, "");
  std::vector<std::string> f;
  while (rows.next(f)) {
    const Columns& col = rows.columns();
    if (!col.has_platform) return {};
    if (col.platform < f.size())
      if (const auto p = text::parse_int(f[col.platform])) found.insert(*p);
  }
  return {found.begin(), found.end()};
}

TraceLog read_fta(const std::filesystem::path& file, const FtaOptions& options) {
  return parse_fta(text::read_log(file), file.string(), options);
}

}  // namespace faultsweep::failures
