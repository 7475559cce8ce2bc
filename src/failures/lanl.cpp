// The reader of LANL's failure data 1996-2005 (LA-UR-05-7318; the layout in its README "Record
// layout"), declared in trace.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

// Title lines that may come before the header (a spreadsheet export's caption, notes).
constexpr std::int64_t kMaxHeaderLine = 50;

// "Prob Started (mm/dd/yy hh:mm)" -> "prob started": lower case, inner blanks collapsed, a
// trailing parenthesised unit or format dropped.
std::string column_key(const std::string& name) {
  std::string t = text::trim(name);
  if (!t.empty() && t.back() == ')') {
    const auto open = t.rfind('(');
    if (open != std::string::npos) t = text::trim(std::string_view(t).substr(0, open));
  }
  std::string out;
  for (const char c : text::lower(t)) {
    const bool blank = c == ' ' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  return out;
}

bool is_header(const std::vector<std::string>& f) {
  bool system = false, node = false;
  for (const auto& name : f) {
    const std::string k = column_key(name);
    system = system || k == "system";
    node = node || k == "nodenumz";
  }
  return system && node;
}

}  // namespace

const std::vector<std::string>& lanl_causes() {
  static const std::vector<std::string> kCauses = {"Facilities", "Hardware",     "Human Error",
                                                   "Network",    "Undetermined", "Software"};
  return kCauses;
}

TraceLog parse_lanl(std::string_view data, const std::string& file, const LanlOptions& options) {
  TraceLog log;
  text::BadRecords bad(log, file, options.stop_on_bad);
  text::Lines lines(data);
  std::string_view line;
  std::vector<std::string> f;
  // The header is the first line naming both System and nodenumz.
  bool found = false;
  while (!found && lines.line_no() < kMaxHeaderLine && lines.next(line)) {
    text::split_csv(line, f);
    found = is_header(f);
  }
  if (!found)
    throw InputError(fmt::format("{}: {}; is this the LANL LA-UR-05-7318 failure data?", file,
                                 lines.line_no() == 0
                                     ? std::string("empty file")
                                     : fmt::format("no header line (one naming the columns "
                                                   "System and nodenumz) in the first {} lines",
                                                   std::min(lines.line_no(), kMaxHeaderLine))));
  const std::int64_t header_line = lines.line_no();
  // Columns by header name (LANL README "Record layout"), so a reordered file still reads.
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < f.size(); ++i)
      if (column_key(f[i]) == column_key(name)) return i;
    throw InputError(
        fmt::format("{}:{}: no column \"{}\" in the header; is this the LANL "
                    "LA-UR-05-7318 failure data?",
                    file, header_line, name));
  };
  const std::size_t c_system = column("System"), c_node = column("nodenumz"),
                    c_started = column("Prob Started"), c_fixed = column("Prob Fixed"),
                    c_down = column("Down Time");
  std::vector<std::size_t> c_cause, c_keep;
  for (const auto& cause : lanl_causes()) c_cause.push_back(column(cause));
  for (const auto& want : options.causes) {
    bool known = false;
    for (std::size_t i = 0; i < lanl_causes().size(); ++i)
      if (text::lower(lanl_causes()[i]) == text::lower(text::trim(want)))
        c_keep.push_back(c_cause[i]), known = true;
    if (!known)
      throw InputError("cause", want,
                       "expected one of Facilities, Hardware, Human Error, Network, "
                       "Undetermined, Software");
  }
  const std::size_t n_columns = f.size();

  struct Raw {
    double start_unix_s;
    std::int64_t node;
    double downtime_s;
  };
  std::vector<Raw> raw;
  while (text::next_record(lines, f, n_columns, log, bad)) {
    const auto at = lines.line_no();
    const auto system = text::parse_int(f[c_system]);
    if (!system) {
      bad.report(at, fmt::format("System = \"{}\": not an integer", f[c_system]));
      continue;
    }
    if (*system != options.system) {
      ++log.other_system;
      continue;
    }
    const auto node = text::parse_int(f[c_node]);
    if (!node || *node < 0) {
      bad.report(at, fmt::format("nodenumz = \"{}\": not an integer >= 0", f[c_node]));
      continue;
    }
    const auto started = parse_civil_time_s(f[c_started]);
    if (!started) {
      bad.report(at,
                 fmt::format("Prob Started = \"{}\": expected a date m/d/YYYY H:MM", f[c_started]));
      continue;
    }
    double downtime_s = 0;
    if (options.downtime == LanlDowntime::down_time_column) {
      const auto minutes = text::parse_number(f[c_down]);
      // Finite in seconds too: 1e308 minutes would become an infinite down time.
      if (!minutes || *minutes < 0 || !std::isfinite(*minutes * 60.0)) {
        bad.report(at, fmt::format("Down Time = \"{}\": expected finite minutes >= 0", f[c_down]));
        continue;
      }
      downtime_s = *minutes * 60.0;
    } else {
      const auto fixed = parse_civil_time_s(f[c_fixed]);
      if (!fixed || *fixed < *started) {
        bad.report(at, fmt::format("Prob Fixed = \"{}\": expected a date m/d/YYYY H:MM not "
                                   "before Prob Started",
                                   f[c_fixed]));
        continue;
      }
      downtime_s = *fixed - *started;
    }
    if (!c_keep.empty()) {
      bool keep = false;
      for (const std::size_t c : c_keep) keep = keep || !text::trim(f[c]).empty();
      if (!keep) {
        ++log.filtered_cause;
        continue;
      }
    }
    if (options.start_unix_s && *started < *options.start_unix_s) {
      ++log.before_start;
      continue;
    }
    raw.push_back({*started, *node, downtime_s});
  }

  // Nodes of the selected system, sorted, become 0..k-1.
  std::map<std::int64_t, std::int32_t> index;
  for (const auto& r : raw) index.emplace(r.node, 0);
  for (auto& [original, i] : index) {
    i = static_cast<std::int32_t>(log.original_node.size());
    log.original_node.push_back(original);
  }
  log.nodes = static_cast<std::int64_t>(index.size());
  double origin = options.start_unix_s.value_or(std::numeric_limits<double>::infinity());
  if (!options.start_unix_s)
    for (const auto& r : raw) origin = std::min(origin, r.start_unix_s);
  log.origin_unix_s = raw.empty() && !options.start_unix_s ? 0.0 : origin;
  log.events.reserve(raw.size());
  for (const auto& r : raw)
    log.events.push_back({r.start_unix_s - origin, index.at(r.node), r.downtime_s});
  text::finish(log, file);
  return log;
}

TraceLog read_lanl(const std::filesystem::path& file, const LanlOptions& options) {
  return parse_lanl(text::read_log(file), file.string(), options);
}

}  // namespace faultsweep::failures
