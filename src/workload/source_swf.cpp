// source = "swf": a Standard Workload Format log (workload/swf.hpp), parsed once per file and
// options and shared by every replica and point; a window of it (skip_jobs, max_jobs) is replayed.
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/source_registry.hpp"
#include "faultsweep/workload/swf.hpp"
#include "faultsweep/workload/transform.hpp"

namespace faultsweep::workload {
namespace {

std::vector<ParamSpec> swf_keys() {
  auto choice = [](std::string name, std::vector<std::string> choices, std::string help) {
    const std::string def = choices.front();
    return make_param(std::move(name), ParamKind::string, "", Value(def), std::move(help),
                      std::move(choices));
  };
  ParamSpec max = make_param("max_jobs", ParamKind::integer, "", std::nullopt,
                             "keep at most this many jobs after skip_jobs (default: all)", {}, 1.0);
  max.optional = true;
  return {make_param("file", ParamKind::path, "", std::nullopt,
                     "the log, relative to the job file's folder (plain or .gz)"),
          choice("size", {"requested", "allocated"},
                 "a job's size: its requested or allocated "
                 "processors"),
          choice("estimate", {"requested", "runtime"},
                 "a job's run-time estimate: its requested time or its run time"),
          choice("bad_lines", {"skip", "fail"}, "a malformed line: skipped (counted) or an error"),
          make_param("procs_per_node", ParamKind::integer, "", Value(std::int64_t{1}),
                     "processors per node (sizes are divided by it)", {}, 1.0),
          max,
          make_param("skip_jobs", ParamKind::integer, "", Value(std::int64_t{0}),
                     "drop the first N usable jobs (the window then starts at t = 0)", {}, 0.0),
          choice("size_scale", {"none", "proportional"},
                 "proportional: sizes x nodes / the header's machine (read on the header's "
                 "machine)")};
}

SwfOptions swf_options(const TableReader& t) {
  SwfOptions o;
  o.size = t.choice_or("size", "requested", {"requested", "allocated"}) == "requested"
               ? SwfSize::requested
               : SwfSize::allocated;
  o.estimate = t.choice_or("estimate", "requested", {"requested", "runtime"}) == "requested"
                   ? SwfEstimate::requested
                   : SwfEstimate::runtime;
  o.bad_lines = t.choice_or("bad_lines", "skip", {"skip", "fail"}) == "skip" ? BadLines::skip
                                                                             : BadLines::fail;
  o.procs_per_node = static_cast<std::int32_t>(t.integer_or("procs_per_node", 1, 1));
  return o;
}

bool proportional_sizes(const TableReader& t) {
  return t.choice_or("size_scale", "none", {"none", "proportional"}) == "proportional";
}

std::string swf_file(const TableReader& t) {
  if (!t.has("file")) throw InputError("file", "(missing)", "the path of an SWF file");
  const auto* s = std::get_if<std::string>(&t.table().at("file"));
  if (!s || s->empty()) throw InputError("file", t.text("file"), "a path string");
  return *s;
}

// Parsed traces, shared by every replica and point in the process (read-only once inserted).
std::shared_ptr<const Workload> cached_trace(const std::filesystem::path& path,
                                             const SwfOptions& opt) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Workload>> cache;
  std::error_code ec;
  const auto abs = std::filesystem::weakly_canonical(path, ec);
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const std::string key = fmt::format("{}|{}|{}", (ec ? path : abs).string(), opt.key(),
                                      mtime.time_since_epoch().count());
  // Holding the lock while parsing: replicas that need the same trace wait for one parse
  // instead of each doing it.
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, std::make_shared<const Workload>(read_swf(path, opt))).first;
  return it->second;
}

// The parsed trace for a machine of `nodes` nodes and its skip_jobs / max_jobs window, read
// with the options make_swf uses (swf_reading_of reports this very reading). size_scale =
// "proportional" reads the trace on its own machine (sizes are scaled afterwards).
struct SwfWindow {
  std::shared_ptr<const Workload> trace;
  SwfOptions opt;
  bool proportional = false;
  std::size_t skip = 0, count = 0;
};

SwfWindow swf_window(const TableReader& r, int nodes, const RunContext& ctx) {
  SwfWindow win;
  win.opt = swf_options(r);
  win.proportional = proportional_sizes(r) && nodes > 0;
  win.opt.machine_nodes = nodes > 0 && !win.proportional ? nodes : 0;
  win.trace = cached_trace(ctx.resolve(swf_file(r)), win.opt);
  const auto all = win.trace->jobs.size();
  win.skip = static_cast<std::size_t>(r.integer_or("skip_jobs", 0, 0));
  const std::size_t max =
      r.has("max_jobs") ? static_cast<std::size_t>(r.integer_or("max_jobs", 0, 1)) : all;
  if (win.skip >= all)
    throw InputError("skip_jobs", std::to_string(win.skip),
                     fmt::format("fewer than the trace's {} usable jobs", all));
  win.count = std::min(max, all - win.skip);
  return win;
}

void validate_swf(const TableReader& r, const std::filesystem::path& base_dir) {
  (void)swf_options(r);
  (void)proportional_sizes(r);
  (void)r.integer_or("max_jobs", 0, 1);
  (void)r.integer_or("skip_jobs", 0, 0);
  const std::string file = swf_file(r);
  const std::filesystem::path p(file);
  const auto full = p.is_absolute() ? p : base_dir / p;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(full, ec))
    throw InputError("file", "\"" + file + "\"",
                     fmt::format("an existing SWF file (looked for {})", full.string()));
  (void)read_swf_header(full);  // opens it: unreadable files fail here, not mid-sweep
}

Workload make_swf(const TableReader& r, int nodes, const std::string&, const RunContext& ctx) {
  const SwfWindow win = swf_window(r, nodes, ctx);
  const auto& trace = win.trace;
  Workload w;
  w.machine_nodes = trace->machine_nodes;
  w.stats = trace->stats;
  const auto first = trace->jobs.begin() + static_cast<std::ptrdiff_t>(win.skip);
  w.jobs.assign(first, first + static_cast<std::ptrdiff_t>(win.count));
  // The window starts at time 0, like the whole trace.
  const double t0 = w.jobs.front().submit_s;
  for (Job& j : w.jobs) j.submit_s -= t0;
  w.stats.jobs = static_cast<std::int64_t>(w.jobs.size());
  if (win.proportional) {
    const auto changed = scale_sizes(w.jobs, w.machine_nodes, nodes);
    w.notes.push_back(fmt::format("size_scale = \"proportional\": sizes x {}/{}, {} of {} changed",
                                  nodes, w.machine_nodes, changed, w.jobs.size()));
    w.machine_nodes = nodes;
  }
  return w;
}

std::optional<InputReading> swf_reading_of(const TableReader& r, int nodes,
                                           const std::filesystem::path& base_dir) {
  RunContext ctx;
  ctx.base_dir = base_dir;
  const SwfWindow win = swf_window(r, nodes, ctx);
  ReadStats st = win.trace->stats;
  st.jobs = static_cast<std::int64_t>(win.count);
  const std::filesystem::path path = ctx.resolve(swf_file(r));
  const std::string options =
      fmt::format("{};skip_jobs={};jobs={}", win.opt.key(), win.skip, win.count);
  return InputReading{path.lexically_normal(), options, st.counts(), st.summary(), {}};
}

}  // namespace

SourceRow swf_source() {
  SourceRow row{"swf",
                "a Standard Workload Format log; the simulated machine's nodes replace the "
                "header's machine size (wider jobs are dropped and counted)",
                swf_keys,
                validate_swf,
                make_swf,
                swf_reading_of};
  row.traits.reads_file = true;
  return row;
}

}  // namespace faultsweep::workload
