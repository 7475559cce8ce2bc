#include "faultsweep/failures/pnnl.hpp"

#include <fmt/format.h>

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

constexpr std::int64_t kMaxHeaderLine = 50;
constexpr std::size_t kMaxIdentifier = 256;
constexpr std::size_t kUnmatchedShown = 5;

// "Hardware  Identifier " -> "hardware identifier".
std::string column_key(const std::string& name) {
  std::string out;
  for (const char c : text::lower(text::trim(name))) {
    const bool blank = c == ' ' || c == '\t';
    if (blank && out.back() == ' ') continue;  // trimmed: never blank at the start
    out += blank ? ' ' : c;
  }
  return out;
}

// A date alone ("11/19/2003", "2003-11-19") or with a time.
std::optional<double> parse_date(const std::string& field) {
  if (auto t = parse_civil_time_s(field)) return t;
  const std::string s = text::trim(field);
  if (s.find('/') != std::string::npos && s.find(':') == std::string::npos)
    return parse_civil_time_s(s + " 0:00");
  return std::nullopt;
}

// RE2 runs in time linear in the identifier whatever the pattern (no backtracking), so a user's
// pattern such as "(a|aa)+b" cannot hang the reader.
std::unique_ptr<const RE2> node_regex(const std::string& pattern) {
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  auto re = std::make_unique<const RE2>(pattern, o);
  if (!re->ok())
    throw InputError("node_pattern", "\"" + pattern + "\"",
                     fmt::format("a regular expression (RE2 syntax): {}", re->error()));
  return re;
}

// The first few distinct identifiers that node_pattern did not match, for the message when
// none matched.
struct Unmatched {
  std::vector<std::string> seen;
  void add(const std::string& id) {
    if (seen.size() < kUnmatchedShown && std::find(seen.begin(), seen.end(), id) == seen.end())
      seen.push_back(id);
  }
};

// Nothing matched node_pattern: say what the identifiers look like, so the user can write one.
void check_some_node(const TraceLog& log, const PnnlOptions& options, const Unmatched& unmatched,
                     const std::string& file) {
  if (!log.events.empty() || log.not_node == 0) return;
  std::string seen;
  for (const auto& id : unmatched.seen)
    seen += fmt::format("{}\"{}\"", seen.empty() ? "" : ", ", id);
  throw InputError("node_pattern", "\"" + options.node_pattern + "\"",
                   fmt::format("a pattern matching the node identifiers of {}: it matches none "
                               "of its {} rows ({}); identifiers seen: {}",
                               file, log.not_node, log.summary(), seen));
}

}  // namespace

TraceLog parse_pnnl(std::string_view data, const std::string& file, const PnnlOptions& options) {
  if (!(options.downtime_s >= 0) || !std::isfinite(options.downtime_s))
    throw InputError("downtime", fmt::format("{}", options.downtime_s),
                     "required for format = \"pnnl\": the repair time of every failure, >= 0");
  const auto node = node_regex(options.node_pattern);
  Unmatched unmatched;
  TraceLog log;
  text::BadRecords bad(log, file, options.stop_on_bad);
  text::NodeNames names;
  text::Lines lines(data);
  std::string_view line;
  std::vector<std::string> f;
  std::size_t c_date = 0, c_hw = 0;
  bool found = false;
  while (!found && lines.line_no() < kMaxHeaderLine && lines.next(line)) {
    text::split_csv(line, f);
    bool date = false, hw = false;
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string k = column_key(f[i]);
      if (k == "date" && !date) c_date = i, date = true;
      if (k == "hardware identifier" && !hw) c_hw = i, hw = true;
    }
    found = date && hw;
  }
  if (!found)
    throw InputError(
        fmt::format("{}: no header line naming the columns \"Date\" and \"Hardware "
                    "Identifier\" in the first {} lines; is this PNNL's MPP2 log?",
                    file, std::min(lines.line_no(), kMaxHeaderLine)));
  const std::size_t n_columns = f.size();
  while (text::next_record(lines, f, n_columns, log, bad)) {
    const auto at = lines.line_no();
    const std::string hw = text::trim(f[c_hw]);
    if (hw.size() > kMaxIdentifier) {
      bad.report(at, fmt::format("Hardware Identifier of {} characters: longer than {}", hw.size(),
                                 kMaxIdentifier));
      continue;
    }
    if (!RE2::FullMatch(hw, *node)) {
      ++log.not_node;
      unmatched.add(hw);
      continue;
    }
    const auto when = parse_date(f[c_date]);
    if (!when) {
      bad.report(at, fmt::format("Date = \"{}\": expected m/d/YYYY [H:MM] or YYYY-MM-DD "
                                 "[HH:MM]",
                                 f[c_date]));
      continue;
    }
    log.events.push_back({*when, names.index(hw, log), options.downtime_s});
  }
  check_some_node(log, options, unmatched, file);
  text::finish(log, file, text::Times::absolute);
  return log;
}

TraceLog read_pnnl(const std::filesystem::path& file, const PnnlOptions& options) {
  return parse_pnnl(text::read_log(file), file.string(), options);
}

}  // namespace faultsweep::failures
