// The failure-log formats of process = "trace": per format its keys, the parse of its options
// and its reader (failures/trace.hpp, fta.hpp, pnnl.hpp).
#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {
namespace {

ParamSpec optional_key(std::string name, ParamKind kind, std::string help) {
  ParamSpec s = make_param(std::move(name), kind, "", std::nullopt, std::move(help));
  s.optional = true;
  return s;
}

// --- lanl: the LANL failure data (one system's records) ---

std::vector<ParamSpec> lanl_keys() {
  return {make_param("system", ParamKind::integer, "", std::nullopt, "the system to keep"),
          optional_key("cause", ParamKind::string,
                       "root causes to keep: \"Hardware\" or a comma-separated list of "
                       "Facilities, Hardware, Human Error, Network, Undetermined, Software "
                       "(default: all)"),
          optional_key("start", ParamKind::string,
                       "\"YYYY-MM-DD [HH:MM]\": t = 0 there, earlier records dropped (default: "
                       "the first selected failure)"),
          make_param("downtime_from", ParamKind::string, "", Value(std::string("down_time")),
                     "repair time: the Down Time column, or Fixed minus Problem Started",
                     {"down_time", "fixed_minus_started"})};
}

// One name of the `cause` list, checked against the log's categories (case-insensitive).
std::string lanl_cause(const TableReader& r, const std::string& item) {
  const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
  if (b == std::string::npos)
    throw InputError("cause", r.text("cause"), "empty category in the list");
  const std::string name = item.substr(b, e - b + 1);
  const auto& all = lanl_causes();
  const bool known = std::any_of(all.begin(), all.end(), [&](const std::string& a) {
    return std::equal(a.begin(), a.end(), name.begin(), name.end(),
                      [](char x, char y) { return std::tolower(x) == std::tolower(y); });
  });
  if (!known)
    throw InputError("cause", r.text("cause"),
                     fmt::format("unknown category \"{}\"; expected a comma-separated list of {}",
                                 name, fmt::join(all, ", ")));
  return name;
}

void parse_lanl(const TableReader& r, TraceSpec& t) {
  LanlOptions& o = t.lanl_options;
  const auto system = r.integer("system");
  if (!system) throw InputError("system", "", "required for format = \"lanl\"");
  o.system = *system;
  if (const auto cause = r.string("cause")) {
    // "Hardware" or a comma-separated list "Hardware, Software".
    std::string item;
    for (const char c : *cause + ",") {
      if (c != ',') {
        item += c;
        continue;
      }
      o.causes.push_back(lanl_cause(r, item));
      item.clear();
    }
  }
  if (const auto start = r.string("start")) {
    const auto s_unix = parse_civil_time_s(*start);
    if (!s_unix)
      throw InputError("start", r.text("start"),
                       "expected a date \"YYYY-MM-DD\", \"YYYY-MM-DD HH:MM\" or "
                       "\"m/d/YYYY H:MM\"");
    o.start_unix_s = *s_unix;
  }
  const std::string from = r.string("downtime_from").value_or("down_time");
  if (from == "down_time") {
    o.downtime = LanlDowntime::down_time_column;
  } else if (from == "fixed_minus_started") {
    o.downtime = LanlDowntime::fixed_minus_started;
  } else {
    throw InputError("downtime_from", r.text("downtime_from"),
                     "expected one of down_time, fixed_minus_started");
  }
  o.stop_on_bad = t.stop_on_bad;
}

// --- fta: the Failure Trace Archive ---

std::vector<ParamSpec> fta_keys() {
  return {optional_key("platform", ParamKind::integer, "keep only this platform_id"),
          make_param("node_prefix", ParamKind::string, "", Value(std::string()),
                     "keep only node_names starting with it")};
}

void parse_fta(const TableReader& r, TraceSpec& t) {
  t.fta.stop_on_bad = t.stop_on_bad;
  t.fta.platform = r.integer("platform");
  t.fta.node_prefix = r.string("node_prefix").value_or("");
}

// --- pnnl: a system log without repair times ---

std::vector<ParamSpec> pnnl_keys() {
  return {make_param("downtime", ParamKind::duration, "s", std::nullopt,
                     "the repair time of every failure (the log has none); >= 0", {}, 0.0),
          make_param("node_pattern", ParamKind::string, "", Value(PnnlOptions{}.node_pattern),
                     "regular expression of a node name in a record")};
}

void parse_pnnl(const TableReader& r, TraceSpec& t) {
  const auto down = r.number("downtime");
  if (!down || !(*down >= 0))
    throw InputError("downtime", down ? r.text("downtime") : "",
                     "required for format = \"pnnl\" (the log has no repair times): a "
                     "duration >= 0");
  t.pnnl.downtime_s = *down;
  t.pnnl.node_pattern = r.string("node_pattern").value_or(t.pnnl.node_pattern);
  t.pnnl.stop_on_bad = t.stop_on_bad;
}

}  // namespace

// One row per format, each built from its keys and reader above.

TraceFormatRow lanl_format() {
  TraceFormatRow f{"lanl", "the LANL failure data release (one system's records)"};
  f.keys = lanl_keys;
  f.parse = parse_lanl;
  f.read = [](const TraceSpec& t, const std::filesystem::path& path) {
    return read_lanl(path, t.lanl_options);
  };
  f.no_failures = [](const TraceSpec& t) {
    return fmt::format("no failures selected (system = {})", t.lanl_options.system);
  };
  return f;
}

// csv: lines "time, node, downtime".
TraceFormatRow csv_format() {
  TraceFormatRow f{"csv", "lines \"time_s,node,downtime_s\" (failures/trace.hpp)"};
  f.read = [](const TraceSpec& t, const std::filesystem::path& path) {
    return read_trace_csv(path, t.stop_on_bad);
  };
  return f;
}

TraceFormatRow fta_format() {
  TraceFormatRow f{"fta", "the Failure Trace Archive's event_trace.tab (failures/fta.hpp)"};
  f.keys = fta_keys;
  f.parse = parse_fta;
  f.read = [](const TraceSpec& t, const std::filesystem::path& path) {
    return read_fta(path, t.fta);
  };
  return f;
}

TraceFormatRow pnnl_format() {
  TraceFormatRow f{"pnnl",
                   "PNNL's MPP2 hardware-failure log, without repair times (failures/pnnl.hpp)"};
  f.keys = pnnl_keys;
  f.parse = parse_pnnl;
  f.read = [](const TraceSpec& t, const std::filesystem::path& path) {
    return read_pnnl(path, t.pnnl);
  };
  return f;
}

// The formats of `format = "..."`, in the order the errors and the reference list them. A new
// format is one file src/failures/trace_format_<name>.cpp defining `TraceFormatRow
// <name>_format()` + one line X(<name>_format) here (sources.cmake globs the file).
#define FAULTSWEEP_TRACE_FORMATS(X) \
  X(lanl_format)                    \
  X(csv_format)                     \
  X(fta_format)                     \
  X(pnnl_format)                    \
  X(slurm_format)

#define FAULTSWEEP_DECLARE(row) TraceFormatRow row();
FAULTSWEEP_TRACE_FORMATS(FAULTSWEEP_DECLARE)
#undef FAULTSWEEP_DECLARE

std::span<const TraceFormatRow> trace_formats() {
#define FAULTSWEEP_ROW(row) row(),
  static const std::vector<TraceFormatRow> rows = {FAULTSWEEP_TRACE_FORMATS(FAULTSWEEP_ROW)};
#undef FAULTSWEEP_ROW
  return rows;
}

}  // namespace faultsweep::failures
