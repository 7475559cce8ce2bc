// process = "trace": a failure log replayed on the machine, read by its format's row
// (src/failures/trace_formats.cpp). A log is parsed once per file, options and modification
// time and shared by validation, provenance and every replica.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {
namespace {

std::vector<ParamSpec> trace_keys() {
  ParamSpec format = make_param("format", ParamKind::string, "", Value(std::string("lanl")),
                                "the log's format", {});
  format.choices = row_names(trace_formats());
  format.choice_keys = choice_specs(trace_formats());
  ParamSpec offset =
      make_param("node_offset", ParamKind::integer, "", Value(std::int64_t{0}),
                 "the log's node 0 is the machine's node node_offset (< nodes)", {}, 0.0);
  return {make_param("file", ParamKind::path, "", std::nullopt,
                     "the log, relative to the job file (\".gz\" / \".xz\" are decompressed)"),
          format, offset,
          make_param("bad_lines", ParamKind::string, "", Value(std::string("skip")),
                     "a malformed record: skip (counted, reported on stderr with file:line) or "
                     "fail (\"stop\" is an older synonym)",
                     {"skip", "fail"})};
}

// The format row of a table (its `format`, default the first row); an unknown name picks the
// default too, so that the key check lets the parse name the bad format.
const TraceFormatRow& format_of(const Params& table) {
  const auto formats = trace_formats();
  if (table.has("format") && std::holds_alternative<std::string>(table.at("format")))
    if (const auto* row = find_row(formats, table.str("format"))) return *row;
  return formats.front();
}

std::vector<std::string> trace_allowed(const Params& table) {
  std::vector<std::string> keys;
  for (const ParamSpec& k : trace_keys()) keys.push_back(k.name);
  const TraceFormatRow& f = format_of(table);
  if (f.keys)
    for (const ParamSpec& k : f.keys()) keys.push_back(k.name);
  return keys;
}

void parse_trace(const TableReader& r, const Params&, int nodes, FailureSpec& s) {
  TraceSpec& t = s.trace;
  const auto file = r.string("file");
  if (!file || file->empty())
    throw InputError("file", file ? "\"\"" : "", "required for process = \"trace\"");
  t.file = *file;
  const std::string format = r.string("format").value_or(std::string(trace_formats()[0].name));
  t.format = find_row(trace_formats(), format);
  if (t.format == nullptr)
    throw InputError("format", r.text("format"),
                     "expected one of " + joined_names(trace_formats(), ", "));
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
  if (t.format->parse) t.format->parse(r, t);
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
    it = cache.emplace(key, std::make_shared<const TraceLog>(t.format->read(t, path))).first;
    const TraceLog& log = *it->second;
    // Every replica replays these events in place, in the order every reader leaves them in
    // (text::finish); a reader that did not would make each replica's failures come out of order.
    FS_CHECK(is_sorted_events(log.events),
             fmt::format("{}: the reader left its events unsorted", t.file));
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

void check_trace(const FailureSpec& s, const Params& table, int nodes,
                 const std::filesystem::path& base_dir) {
  const TraceSpec& t = s.trace;
  const TraceLog& log = *cached_log(t, resolve(t.file, base_dir), table.canonical_text());
  if (log.events.empty())
    throw InputError(
        "file", "\"" + t.file + "\"",
        t.format->no_failures ? t.format->no_failures(t) : std::string("no failures in the file"));
  check_trace_fits(t, log, nodes);
}

std::optional<InputReading> trace_reading_of(const FailureSpec& s, const Params& table,
                                             const std::filesystem::path& base_dir) {
  const std::filesystem::path path = resolve(s.trace.file, base_dir);
  const TraceLog& log = *cached_log(s.trace, path, table.canonical_text());
  InputReading reading{path.lexically_normal(), table.canonical_text(), log.counts(), log.summary(),
                       log.node_names};
  for (const std::int64_t n : log.original_node) reading.node_names.push_back(std::to_string(n));
  return reading;
}

std::unique_ptr<FailureSource> make_trace(const FailureSpec& s, const Params& table, int nodes,
                                          double horizon_s, const RunContext& ctx) {
  const auto log = cached_log(s.trace, ctx.resolve(s.trace.file), table.canonical_text());
  check_trace_fits(s.trace, *log, nodes);
  return std::make_unique<TraceSource>(
      std::shared_ptr<const std::vector<FailureEvent>>(log, &log->events), s.trace.node_offset,
      horizon_s);
}

}  // namespace

ProcessRow trace_process() {
  ProcessRow r{"trace", "a failure log replayed on the machine (its format's keys below)"};
  r.keys = trace_keys;
  r.allowed = trace_allowed;
  r.parse = parse_trace;
  r.make = make_trace;
  r.check = check_trace;
  r.reading = trace_reading_of;
  r.traits.finite = true;
  r.traits.reads_file = true;
  return r;
}

}  // namespace faultsweep::failures
