// format = "slurm": node events as `sacctmgr show event --parsable2` prints them, or the same
// columns as CSV (failures/slurm_events.hpp): the reader and its row of the trace formats.
#include <fmt/format.h>

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/slurm_text.hpp"
#include "faultsweep/failures/process_registry.hpp"
#include "faultsweep/failures/slurm_events.hpp"
#include "faultsweep/failures/trace_text.hpp"

namespace faultsweep::failures {
namespace {

// RE2: linear time whatever the pattern, so a user's reason filter cannot hang the reader.
std::unique_ptr<const RE2> reason_regex(const std::string& key, const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  auto re = std::make_unique<const RE2>(pattern, o);
  if (!re->ok())
    throw InputError(key, "\"" + pattern + "\"",
                     fmt::format("a regular expression (RE2 syntax): {}", re->error()));
  return re;
}

void split_pipe(std::string_view line, std::vector<std::string>& out) {
  out.clear();
  std::size_t pos = 0;
  while (true) {
    const auto bar = line.find('|', pos);
    out.emplace_back(line.substr(pos, bar == std::string_view::npos ? line.npos : bar - pos));
    if (bar == std::string_view::npos) return;
    pos = bar + 1;
  }
}

struct Columns {
  std::size_t node = 0, start = 0, end = 0, reason = std::string::npos;
};

Columns header_columns(const std::vector<std::string>& f, const std::string& file,
                       const SlurmEventOptions& o) {
  const auto find = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      for (std::size_t i = 0; i < f.size(); ++i)
        if (text::lower(text::trim(f[i])) == n) return i;
    return std::string::npos;
  };
  Columns c;
  c.node = find({"nodename"});
  c.start = find({"timestart", "start"});
  c.end = find({"timeend", "end"});
  c.reason = find({"reason"});
  std::string missing;
  const auto need = [&](std::size_t col, const char* name) {
    if (col == std::string::npos) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", name);
  };
  need(c.node, "NodeName");
  need(c.start, "TimeStart");
  need(c.end, "TimeEnd");
  if (!o.reason.empty() || !o.exclude_reason.empty()) need(c.reason, "Reason");
  if (!missing.empty())
    throw InputError(
        fmt::format("{}:1: the event header has no column {}; dump with sacctmgr "
                    "--parsable2 show event (columns NodeName, TimeStart, TimeEnd, "
                    "Reason)",
                    file, missing));
  return c;
}

// One node's outage, with absolute times, before the nodes are numbered.
struct Outage {
  double start = 0, end = 0;
  std::string node;
};

}  // namespace

TraceLog parse_slurm_events(std::string_view data, const std::string& file,
                            const SlurmEventOptions& o) {
  const auto keep = reason_regex("reason", o.reason);
  const auto drop = reason_regex("exclude_reason", o.exclude_reason);
  std::unordered_map<std::string, std::int32_t> listed;  // node_list: name -> node id
  TraceLog log;
  if (!o.node_list.empty()) {
    std::string why;
    const auto names = slurm::expand_hostlist(o.node_list, why, o.max_host_names);
    if (!names)
      throw InputError("node_list", "\"" + o.node_list + "\"", "a Slurm host list: " + why);
    for (const std::string& n : *names)
      if (listed.emplace(n, static_cast<std::int32_t>(listed.size())).second)
        log.node_names.push_back(n);
  }
  text::BadRecords bad(log, file, o.stop_on_bad);
  text::Lines lines(data);
  std::string_view line;
  std::vector<std::string> f;
  bool pipe = false, header = false;
  Columns c;
  std::size_t n_columns = 0;
  std::vector<Outage> outages;
  std::vector<std::size_t> open;  // outages whose end is the dump time, not yet known
  std::map<std::string, std::int64_t> by_reason;
  double latest = -INFINITY;
  while (lines.next(line)) {
    if (text::trim(line).empty()) continue;
    if (!header) {
      pipe = line.find('|') != std::string_view::npos;
      pipe ? split_pipe(line, f) : text::split_csv(line, f);
      c = header_columns(f, file, o);
      n_columns = f.size();
      header = true;
      continue;
    }
    ++log.lines;
    const auto at = lines.line_no();
    pipe ? split_pipe(line, f) : text::split_csv(line, f);
    if (f.size() != n_columns) {
      bad.report(at,
                 fmt::format("expected {} fields as in the header, found {}", n_columns, f.size()));
      continue;
    }
    const std::string node_field = text::trim(f[c.node]);
    if (node_field.empty()) {
      ++log.not_node;  // a cluster event (its CPU count changed), not a node's outage
      continue;
    }
    double start = 0, end = 0;
    const std::string start_text = text::trim(f[c.start]), end_text = text::trim(f[c.end]);
    const auto t0 = slurm::parse_time(start_text, o.utc_offset_s);
    if (!t0) {
      bad.report(at, fmt::format("field TimeStart = '{}': not a Slurm time "
                                 "(YYYY-MM-DDTHH:MM:SS)",
                                 start_text));
      continue;
    }
    start = *t0;
    const bool is_open = slurm::is_no_time(end_text);
    if (!is_open) {
      const auto t1 = slurm::parse_time(end_text, o.utc_offset_s);
      if (!t1) {
        bad.report(at, fmt::format("field TimeEnd = '{}': not a Slurm time "
                                   "(YYYY-MM-DDTHH:MM:SS, Unknown or None)",
                                   end_text));
        continue;
      }
      if (*t1 < start) {
        bad.report(
            at, fmt::format("field TimeEnd = '{}': before TimeStart '{}'", end_text, start_text));
        continue;
      }
      end = *t1;
    }
    std::string why;
    const auto nodes = slurm::expand_hostlist(node_field, why, o.max_host_names);
    if (!nodes) {
      bad.report(at,
                 fmt::format("field NodeName = '{}': not a Slurm host list: {}", node_field, why));
      continue;
    }
    latest = std::max({latest, start, end});
    const std::string reason =
        c.reason == std::string::npos ? std::string() : text::trim(f[c.reason]);
    if ((keep && !RE2::PartialMatch(reason, *keep)) || (drop && RE2::PartialMatch(reason, *drop))) {
      ++log.filtered_cause;
      continue;
    }
    ++by_reason[reason.empty() ? "(no reason)" : reason];
    for (const std::string& n : *nodes) {
      if (!listed.empty() && !listed.count(n)) {
        ++log.not_node;
        continue;
      }
      if (is_open) open.push_back(outages.size());
      outages.push_back({start, end, n});
    }
  }
  if (!header) throw InputError("file", "\"" + file + "\"", "an event dump: it is empty");
  const double dump = o.dump_unix_s ? *o.dump_unix_s : latest;
  for (const std::size_t i : open) outages[i].end = std::max(dump, outages[i].start);
  // The start date, before the nodes are numbered: a node down only before it is not named.
  std::int64_t clipped = 0;
  if (o.start_unix_s) {
    const double t0 = *o.start_unix_s;
    const auto gone = std::remove_if(outages.begin(), outages.end(),
                                     [&](const Outage& u) { return u.start < t0 && u.end <= t0; });
    log.before_start = static_cast<std::size_t>(outages.end() - gone);
    outages.erase(gone, outages.end());
    for (Outage& u : outages)
      if (u.start < t0) u.start = t0, ++clipped;
  }
  // Node ids: the list's order, else the kept names in sorted order.
  if (listed.empty()) {
    // Each name once (a dump names the same nodes in many events), then sorted.
    std::unordered_set<std::string_view> seen;
    std::vector<std::string_view> names;
    for (const Outage& u : outages)
      if (seen.insert(u.node).second) names.push_back(u.node);
    std::sort(names.begin(), names.end(), slurm::node_name_less);
    for (const std::string_view n : names)
      listed.emplace(n, static_cast<std::int32_t>(log.node_names.size())),
          log.node_names.emplace_back(n);
  }
  log.nodes = static_cast<std::int64_t>(log.node_names.size());
  for (const Outage& u : outages)
    log.events.push_back({u.start, listed.at(u.node), u.end - u.start});
  log.extra.push_back({"open_at_dump", static_cast<std::int64_t>(open.size()),
                       "periods open at the dump closed there"});
  log.extra.push_back({"clipped_at_start", clipped, "periods across the start cut there"});
  for (const auto& [reason, n] : by_reason)
    log.extra.push_back({"reason:" + reason, n, fmt::format("\"{}\"", reason)});
  if (o.start_unix_s) {
    log.origin_unix_s = *o.start_unix_s;
    for (FailureEvent& e : log.events) e.time_s -= *o.start_unix_s;
    text::finish(log, file, text::Times::relative);
  } else {
    text::finish(log, file, text::Times::absolute);
  }
  return log;
}

TraceLog read_slurm_events(const std::filesystem::path& file, const SlurmEventOptions& options) {
  return parse_slurm_events(text::read_log(file), file.string(), options);
}

namespace {

std::vector<ParamSpec> slurm_keys() {
  const auto optional = [](std::string name, std::string help) {
    ParamSpec s = make_param(std::move(name), ParamKind::string, "", std::nullopt, std::move(help));
    s.optional = true;
    return s;
  };
  return {optional("reason", "keep only events whose Reason matches (RE2, case-insensitive)"),
          optional("exclude_reason", "drop events whose Reason matches (RE2, case-insensitive)"),
          optional("node_list",
                   "the machine's nodes as a Slurm host list, node i its i-th name "
                   "(default: the events' names, sorted)"),
          make_param("utc_offset", ParamKind::string, "", Value(std::string("UTC")),
                     "the time zone of the dump's times: \"UTC\" or \"+HH:MM\" / \"-HH:MM\""),
          optional("start", "\"YYYY-MM-DDTHH:MM:SS\": t = 0 there (default: the first event)"),
          optional("dump_time",
                   "\"YYYY-MM-DDTHH:MM:SS\": the end of periods still open "
                   "(default: the file's latest time)")};
}

void parse_slurm(const TableReader& r, TraceSpec& t) {
  SlurmEventOptions& o = t.slurm;
  o.stop_on_bad = t.stop_on_bad;
  o.reason = r.string("reason").value_or("");
  o.exclude_reason = r.string("exclude_reason").value_or("");
  (void)reason_regex("reason", o.reason);
  (void)reason_regex("exclude_reason", o.exclude_reason);
  o.node_list = r.string("node_list").value_or("");
  if (!o.node_list.empty()) {
    std::string why;
    if (!slurm::expand_hostlist(o.node_list, why, o.max_host_names))
      throw InputError("node_list", r.text("node_list"), "a Slurm host list: " + why);
  }
  const auto offset = slurm::parse_utc_offset(r.string("utc_offset").value_or("UTC"));
  if (!offset) throw InputError("utc_offset", r.text("utc_offset"), "\"UTC\" or \"+HH:MM\"");
  o.utc_offset_s = *offset;
  for (const auto& [key, target] :
       {std::pair{"start", &o.start_unix_s}, std::pair{"dump_time", &o.dump_unix_s}}) {
    const auto s = r.string(key);
    if (!s) continue;
    *target = slurm::parse_time(*s, o.utc_offset_s);
    if (!*target) throw InputError(key, r.text(key), "a time \"YYYY-MM-DDTHH:MM:SS\"");
  }
}

}  // namespace

TraceFormatRow slurm_format() {
  TraceFormatRow f{"slurm",
                   "Slurm node events: `sacctmgr show event --parsable2`, or the same columns "
                   "as CSV (failures/slurm_events.hpp)"};
  f.keys = slurm_keys;
  f.parse = parse_slurm;
  f.read = [](const TraceSpec& t, const std::filesystem::path& path) {
    return read_slurm_events(path, t.slurm);
  };
  return f;
}

}  // namespace faultsweep::failures
