#include "faultsweep/failures/factory.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <variant>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/dist/composite_weibull.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/fta.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "faultsweep/failures/renewal.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/zhang.hpp"

namespace faultsweep::failures {
namespace {

const char* const kProcesses = "expected one of none, renewal, bathtub, zhang, trace";
const std::vector<std::string> kDowntimeKeys = {"downtime", "downtime_dist", "downtime_sigma"};

std::vector<std::string> allowed_keys(const std::string& process, const Params& t) {
  std::vector<std::string> keys = {"process"};
  auto add = [&](const std::vector<std::string>& more) {
    keys.insert(keys.end(), more.begin(), more.end());
  };
  if (process == "renewal") {
    const std::string d = t.has("dist") && std::holds_alternative<std::string>(t.at("dist"))
                              ? t.str("dist")
                              : std::string();
    add(dist::Dist::allowed_keys(d));  // includes "dist"
    add(kDowntimeKeys);
  } else if (process == "bathtub") {
    add({"mtbf"});
    add(kDowntimeKeys);
  } else if (process == "zhang") {
    add({"shape", "scale", "W", "alpha"});
    add(kDowntimeKeys);
  } else if (process == "trace") {
    add({"file", "format", "node_offset", "bad_lines"});
    const std::string format =
        t.has("format") && std::holds_alternative<std::string>(t.at("format"))
            ? t.str("format")
            : std::string("lanl");
    if (format != "csv" && format != "fta" && format != "pnnl")
      add({"system", "cause", "start", "downtime_from"});
    if (format == "pnnl") add({"downtime", "node_pattern"});
    if (format == "fta") add({"platform", "node_prefix"});
  }
  return keys;
}

struct TraceSpec {
  std::string file;
  bool lanl = true;
  LanlOptions lanl_options;
  std::int32_t node_offset = 0;
  bool stop_on_bad = false;
  std::string format = "lanl";  // lanl | csv | fta | pnnl
  PnnlOptions pnnl;
  FtaOptions fta;
};

struct Spec {
  std::string process;
  std::optional<Lifetime> ttf;  // renewal, bathtub
  dist::Dist downtime = dist::Dist::constant(0.0);
  ZhangConfig zhang;
  TraceSpec trace;
};

dist::Dist parse_downtime(const TableReader& r) {
  const double d = r.required("downtime");
  if (!(d >= 0)) throw InputError("downtime", r.text("downtime"), "must be >= 0");
  const std::string kind = r.string("downtime_dist").value_or("constant");
  if (r.has("downtime_sigma") && kind != "lognormal")
    throw InputError("downtime_sigma", r.text("downtime_sigma"),
                     "only allowed with downtime_dist = \"lognormal\"");
  if (kind == "constant") return dist::Dist::constant(d);
  if (kind != "exponential" && kind != "lognormal")
    throw InputError("downtime_dist", r.text("downtime_dist"),
                     "expected one of constant, exponential, lognormal");
  if (!(d > 0))
    throw InputError("downtime", r.text("downtime"),
                     fmt::format("must be > 0 (the mean) with downtime_dist = \"{}\"", kind));
  if (kind == "exponential") return dist::Dist::exponential(d);
  const double sigma = r.required_positive("downtime_sigma");
  // mean = exp(mu + sigma^2 / 2).
  return dist::Dist::lognormal(std::log(d) - 0.5 * sigma * sigma, sigma);
}

Spec parse(const Params& table, int nodes) {
  if (nodes < 1) throw InputError("nodes", std::to_string(nodes), "must be >= 1");
  Spec s;
  if (!table.has("process"))
    throw InputError("process", "", fmt::format("required; {}", kProcesses));
  const Value& pv = table.at("process");
  if (!std::holds_alternative<std::string>(pv))
    throw InputError("process", canonical_value(pv), kProcesses);
  s.process = std::get<std::string>(pv);
  if (s.process != "none" && s.process != "renewal" && s.process != "bathtub" &&
      s.process != "zhang" && s.process != "trace")
    throw InputError("process", canonical_value(pv), kProcesses);
  if (s.process == "renewal") {
    // The dist name decides which keys are allowed, so it is checked first.
    const char* const kDists =
        "expected one of exponential, weibull, lognormal, constant (for FARS's composite "
        "Weibull use process = \"bathtub\")";
    if (!table.has("dist"))
      throw InputError("dist", "", fmt::format("required for process = \"renewal\"; {}", kDists));
    const Value& dv = table.at("dist");
    const auto* name = std::get_if<std::string>(&dv);
    if (name == nullptr || dist::Dist::allowed_keys(*name).size() == 1)
      throw InputError("dist", canonical_value(dv), kDists);
  }
  const TableReader r(table, fmt::format("process = \"{}\"", s.process));
  r.check_keys(allowed_keys(s.process, table));

  if (s.process == "renewal") {
    Params dist_params;
    for (const auto& [key, value] : table.values())
      if (key != "process" &&
          std::find(kDowntimeKeys.begin(), kDowntimeKeys.end(), key) == kDowntimeKeys.end())
        dist_params.set(key, value);
    const dist::Dist d = dist::Dist::from_params(dist_params);
    if (!(d.mean() > 0))
      throw InputError(
          d.kind() == dist::Kind::constant ? "value" : "dist",
          canonical_value(table.at(d.kind() == dist::Kind::constant ? "value" : "dist")),
          "the time to failure must have a mean > 0");
    s.ttf = d;
    s.downtime = parse_downtime(r);
  } else if (s.process == "bathtub") {
    s.ttf = dist::CompositeWeibull::bathtub(r.required_positive("mtbf"));
    s.downtime = parse_downtime(r);
  } else if (s.process == "zhang") {
    s.zhang.shape = r.required_positive("shape");
    s.zhang.scale_s = r.required_positive("scale");
    const std::int64_t w = r.integer("W").value_or(2);
    if (w < 1 || w > (1 << 24)) throw InputError("W", r.text("W"), "must be in 1 .. 16777216");
    s.zhang.window = static_cast<std::int32_t>(w);
    s.zhang.alpha = r.number("alpha").value_or(0.0);
    if (!(s.zhang.alpha >= 0)) throw InputError("alpha", r.text("alpha"), "must be >= 0");
    s.zhang.downtime = parse_downtime(r);
  } else if (s.process == "trace") {
    TraceSpec& t = s.trace;
    const auto file = r.string("file");
    if (!file || file->empty())
      throw InputError("file", file ? "\"\"" : "", "required for process = \"trace\"");
    t.file = *file;
    const std::string format = r.string("format").value_or("lanl");
    if (format != "lanl" && format != "csv" && format != "fta" && format != "pnnl")
      throw InputError("format", r.text("format"), "expected one of lanl, csv, fta, pnnl");
    t.lanl = format == "lanl";
    t.format = format;
    const std::int64_t offset = r.integer("node_offset").value_or(0);
    if (offset < 0 || offset >= nodes)
      throw InputError("node_offset", r.text("node_offset"),
                       fmt::format("must be in 0 .. {} (nodes - 1)", nodes - 1));
    t.node_offset = static_cast<std::int32_t>(offset);
    const std::string bad = r.string("bad_lines").value_or("skip");
    // "fail" as for workloads; "stop" is its older synonym.
    if (bad != "skip" && bad != "fail" && bad != "stop")
      throw InputError("bad_lines", r.text("bad_lines"), "expected one of skip, fail");
    t.stop_on_bad = bad != "skip";
    if (format == "pnnl") {
      const auto down = r.number("downtime");
      if (!down || !(*down >= 0))
        throw InputError("downtime", down ? r.text("downtime") : "",
                         "required for format = \"pnnl\" (the log has no repair times): a "
                         "duration >= 0");
      t.pnnl.downtime_s = *down;
      t.pnnl.node_pattern = r.string("node_pattern").value_or(t.pnnl.node_pattern);
      t.pnnl.stop_on_bad = t.stop_on_bad;
    }
    t.fta.stop_on_bad = t.stop_on_bad;
    t.fta.platform = r.integer("platform");
    t.fta.node_prefix = r.string("node_prefix").value_or("");
    if (t.lanl) {
      const auto system = r.integer("system");
      if (!system) throw InputError("system", "", "required for format = \"lanl\"");
      t.lanl_options.system = *system;
      if (const auto cause = r.string("cause")) {
        // "Hardware" or a comma-separated list "Hardware, Software".
        std::string item;
        for (const char c : *cause + ",") {
          if (c != ',') {
            item += c;
            continue;
          }
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
                             fmt::format("unknown category \"{}\"; expected a comma-separated "
                                         "list of {}",
                                         name, fmt::join(all, ", ")));
          t.lanl_options.causes.push_back(name);
          item.clear();
        }
      }
      if (const auto start = r.string("start")) {
        const auto s_unix = parse_civil_time_s(*start);
        if (!s_unix)
          throw InputError("start", r.text("start"),
                           "expected a date \"YYYY-MM-DD\", \"YYYY-MM-DD HH:MM\" or "
                           "\"m/d/YYYY H:MM\"");
        t.lanl_options.start_unix_s = *s_unix;
      }
      const std::string from = r.string("downtime_from").value_or("down_time");
      if (from == "down_time") {
        t.lanl_options.downtime = LanlDowntime::down_time_column;
      } else if (from == "fixed_minus_started") {
        t.lanl_options.downtime = LanlDowntime::fixed_minus_started;
      } else {
        throw InputError("downtime_from", r.text("downtime_from"),
                         "expected one of down_time, fixed_minus_started");
      }
      t.lanl_options.stop_on_bad = t.stop_on_bad;
    }
  }
  return s;
}

TraceLog read_trace(const TraceSpec& t, const std::filesystem::path& path) {
  if (t.format == "fta") return read_fta(path, t.fta);
  if (t.format == "pnnl") return read_pnnl(path, t.pnnl);
  return t.lanl ? read_lanl(path, t.lanl_options) : read_trace_csv(path, t.stop_on_bad);
}

// Parsed logs, shared by validation, provenance and every replica of the process (read-only
// once inserted). Keyed by the resolved file, its modification time and the failures table
// (which holds every reader option); a parse error is not cached and is thrown each time.
std::shared_ptr<const TraceLog> cached_log(const TraceSpec& t, const std::filesystem::path& path,
                                           const std::string& table_text) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TraceLog>> cache;
  std::error_code ec;
  const auto abs = std::filesystem::weakly_canonical(path, ec);
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const std::string key = fmt::format("{}|{}|{}", (ec ? path : abs).string(),
                                      mtime.time_since_epoch().count(), table_text);
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, std::make_shared<const TraceLog>(read_trace(t, path))).first;
    const TraceLog& log = *it->second;
    if (log.bad > 0) {  // once per parse, not per point
      std::string text =
          fmt::format("warning: {}: {} bad record(s) skipped, e.g.", t.file, log.bad);
      for (const auto& m : log.bad_messages) text += "\n  " + m;
      say_once(text);
    }
  }
  return it->second;
}

std::filesystem::path resolve(const std::string& file, const std::filesystem::path& base_dir) {
  const std::filesystem::path p(file);
  return p.is_absolute() ? p : base_dir / p;
}

void check_trace_fits(const TraceSpec& t, const TraceLog& log, int nodes) {
  if (log.nodes + t.node_offset > nodes)
    throw InputError("file", "\"" + t.file + "\"",
                     fmt::format("the trace has {} nodes; with node_offset = {} it needs a "
                                 "machine of >= {} nodes, this one has {}",
                                 log.nodes, t.node_offset, log.nodes + t.node_offset, nodes));
}

}  // namespace

const std::vector<std::string>& failure_duration_keys() {
  // Time-valued sub-keys of every process (Dist fields included); "rate" is per second and
  // "mu" is a log-seconds location, so neither is a duration.
  static const std::vector<std::string> kKeys = {"downtime", "mean", "mtbf", "scale", "value"};
  return kKeys;
}

void validate_failures(const Params& table, int nodes, const std::filesystem::path& base_dir) {
  const Spec s = parse(table, nodes);
  if (s.process != "trace") return;
  const TraceLog& log =
      *cached_log(s.trace, resolve(s.trace.file, base_dir), table.canonical_text());
  if (log.events.empty())
    throw InputError("file", "\"" + s.trace.file + "\"",
                     s.trace.lanl ? fmt::format("no failures selected (system = {})",
                                                s.trace.lanl_options.system)
                                  : std::string("no failures in the file"));
  check_trace_fits(s.trace, log, nodes);
}

std::optional<InputReading> trace_reading(const Params& table, int nodes,
                                          const std::filesystem::path& base_dir) {
  const Spec s = parse(table, nodes);
  if (s.process != "trace") return std::nullopt;
  const std::filesystem::path path = resolve(s.trace.file, base_dir);
  const TraceLog& log = *cached_log(s.trace, path, table.canonical_text());
  InputReading reading{path.lexically_normal(), table.canonical_text(), log.counts(), log.summary(),
                       log.node_names};
  for (const std::int64_t n : log.original_node) reading.node_names.push_back(std::to_string(n));
  return reading;
}

std::unique_ptr<FailureSource> make_failure_source(const Params& table, int nodes, double horizon_s,
                                                   const RunContext& ctx) {
  const Spec s = parse(table, nodes);
  // Streams keyed by the failure configuration only (DESIGN §4): scheduling policies compared
  // in one replica see the same failures. For Zhang's process each stream is keyed by the keys
  // that shape its own draws, so the paper's one-factor-at-a-time comparisons are paired too:
  // the same shape and scale give the same inter-failure draws for every W (W only reorders
  // them), every alpha and every downtime; the same alpha gives the same ranks. In a renewal
  // process the downtime shifts later failures, so its streams take the whole table.
  const std::string config = table.canonical_text() + fmt::format("nodes={}\n", nodes);
  auto keyed = [&](std::initializer_list<const char*> keys, bool with_nodes) {
    std::string text = "process=\"zhang\"\n";
    for (const char* k : keys)
      if (table.has(k)) text += fmt::format("{}={}\n", k, canonical_value(table.at(k)));
    if (with_nodes) text += fmt::format("nodes={}\n", nodes);
    return text;
  };
  if (s.process == "none") return std::make_unique<TraceSource>(std::vector<FailureEvent>{});
  if (s.process == "renewal" || s.process == "bathtub")
    return std::make_unique<RenewalSource>(nodes, *s.ttf, s.downtime,
                                           ctx.stream(Purpose::failures, config),
                                           ctx.stream(Purpose::downtimes, config), horizon_s);
  if (s.process == "zhang")
    return std::make_unique<ZhangSource>(
        nodes, s.zhang, ctx.stream(Purpose::failures, keyed({"shape", "scale"}, false)),
        ctx.stream(Purpose::locations, keyed({"alpha"}, true)),
        ctx.stream(Purpose::downtimes,
                   keyed({"downtime", "downtime_dist", "downtime_sigma"}, false)),
        horizon_s);
  const auto log = cached_log(s.trace, ctx.resolve(s.trace.file), table.canonical_text());
  check_trace_fits(s.trace, *log, nodes);
  return std::make_unique<TraceSource>(log->events, s.trace.node_offset, horizon_s);
}

}  // namespace faultsweep::failures
