#include "faultsweep/workload/factory.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/workload/generators.hpp"
#include "faultsweep/workload/load.hpp"
#include "faultsweep/workload/swf.hpp"
#include "faultsweep/workload/thesis_options.hpp"
#include "faultsweep/workload/transform.hpp"

namespace faultsweep::workload {
namespace {

using Keys = std::vector<std::string>;

const Keys kSources = {"swf", "fars", "lublin", "zhang"};
const Keys kCommon = {"source",  "target_load",     "scale",     "moldable",
                      "speedup", "serial_fraction", "long_jobs", "long_bound"};
const Keys kSwf = {"file",           "size",     "estimate",  "bad_lines",
                   "procs_per_node", "max_jobs", "skip_jobs", "size_scale"};
const Keys kGenerated = {"jobs", "mean_interarrival", "estimate_factor", "nodes"};
const Keys kFars = {"mean_runtime", "mean_size"};
const Keys kSizes = {"serial_prob",   "pow2_prob",    "size_lo_log2",
                     "size_mid_log2", "size_hi_log2", "size_p_low"};
const Keys kLublin = {"runtime_p1", "runtime_mean1", "runtime_mean2"};
const Keys kZhang = {"runtime_order", "runtime_probs", "runtime_means"};

Keys allowed_keys(const std::string& source) {
  Keys k = kCommon;
  k.insert(k.end(), thesis_option_keys().begin(), thesis_option_keys().end());
  const auto add = [&](const Keys& more) { k.insert(k.end(), more.begin(), more.end()); };
  if (source == "swf") {
    add(kSwf);
  } else {
    add(kGenerated);
    if (source == "fars") add(kFars);
    if (source == "lublin") add(kLublin), add(kSizes);
    if (source == "zhang") add(kZhang), add(kSizes);
  }
  return k;
}

std::string source_of(const TableReader& t) {
  if (!t.has("source"))
    throw InputError("source", "(missing)",
                     fmt::format("one of \"{}\"", fmt::join(kSources, "\", \"")));
  return t.choice_or("source", "", kSources);
}

void check_keys(const TableReader& t, const std::string& source) {
  t.check_keys(allowed_keys(source), fmt::format("a key of a \"{}\" workload: ", source));
}

// Keys that do not change the jobs' draws: load scaling and moldability are applied to the same
// jobs, so points that differ only in them are paired (common random numbers, DESIGN §4).
const Keys kNotInStreams = {"target_load",     "scale",     "moldable",  "speedup",
                            "serial_fraction", "long_jobs", "long_bound"};

std::string stream_text(const Params& table) {
  Params t;
  for (const auto& [k, v] : table.values())
    if (std::find(kNotInStreams.begin(), kNotInStreams.end(), k) == kNotInStreams.end())
      t.set(k, v);
  return t.canonical_text();
}

struct Moldability {
  double fraction = 0;  // of the jobs that are moldable
  Speedup speedup;
};

Moldability moldability_of(const TableReader& t) {
  Moldability m;
  m.fraction = t.real_or("moldable", 0.0);
  if (!(m.fraction >= 0 && m.fraction <= 1))
    throw InputError("moldable", t.text("moldable"), "a fraction in [0, 1]");
  const std::string law = t.choice_or("speedup", "amdahl", {"amdahl", "linear", "gustafson"});
  if (law == "linear") {
    if (t.has("serial_fraction"))
      throw InputError("serial_fraction", t.text("serial_fraction"),
                       "only with speedup = \"amdahl\" or \"gustafson\"");
    m.speedup.serial_fraction = 0;
  } else {
    m.speedup.law = law == "gustafson" ? SpeedupLaw::gustafson : SpeedupLaw::amdahl;
    m.speedup.serial_fraction = t.real_or("serial_fraction", m.speedup.serial_fraction);
    if (!(m.speedup.serial_fraction >= 0 && m.speedup.serial_fraction <= 1))
      throw InputError("serial_fraction", t.text("serial_fraction"), "a fraction in [0, 1]");
  }
  return m;
}

struct Scaling {
  double target = 0;  // 0: none
  LoadScale how = LoadScale::runtimes;
};

Scaling scaling_of(const TableReader& t, const std::string& source) {
  Scaling s;
  // FARS §5.2.1 sets utilisation to 70 %; other sources keep their natural load by default.
  const double fallback = source == "fars" ? 0.7 : 0.0;
  const std::string how = t.choice_or("scale", "runtimes", {"runtimes", "interarrivals", "none"});
  s.target = t.real_or("target_load", fallback);
  if (t.has("target_load") && !(s.target > 0 && std::isfinite(s.target)))
    throw InputError("target_load", t.text("target_load"), "a number > 0");
  if (how == "none") {
    if (t.has("target_load"))
      throw InputError("scale", "\"none\"", "\"runtimes\" or \"interarrivals\" with target_load");
    s.target = 0;
  } else if (t.has("scale") && s.target == 0) {
    throw InputError("scale", t.text("scale"), "to be given with target_load");
  }
  s.how = how == "interarrivals" ? LoadScale::interarrivals : LoadScale::runtimes;
  return s;
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

LublinSizeParams size_params(const TableReader& t) {
  LublinSizeParams s;
  s.serial_prob = t.real_or("serial_prob", s.serial_prob);
  s.pow2_prob = t.real_or("pow2_prob", s.pow2_prob);
  s.lo_log2 = t.real_or("size_lo_log2", s.lo_log2);
  s.mid_log2 = t.real_or("size_mid_log2", s.mid_log2);
  s.hi_log2 = t.real_or("size_hi_log2", s.hi_log2);
  s.p_low = t.real_or("size_p_low", s.p_low);
  return s;
}

// The generator's own machine: the table's `nodes` (the size model's machine; must not exceed
// the simulated one), else the simulated machine.
int generator_nodes(const TableReader& t, int machine_nodes) {
  const std::int64_t n = t.integer_or("nodes", machine_nodes, 1);
  if (machine_nodes > 0 && n > machine_nodes)
    throw InputError("nodes", std::to_string(n),
                     fmt::format("at most the simulated machine's {} nodes", machine_nodes));
  return static_cast<int>(n);
}

Workload generate(const TableReader& t, const std::string& source, int nodes, Engine& arrivals,
                  Engine& runtimes, Engine& sizes) {
  const std::int64_t jobs = t.integer_or("jobs", 10000, 1);
  const double estimate_factor = t.real_or("estimate_factor", 1.0);
  if (source == "fars") {
    FarsParams p;
    p.jobs = jobs;
    p.estimate_factor = estimate_factor;
    p.mean_interarrival_s = t.real_or("mean_interarrival", p.mean_interarrival_s);
    p.mean_runtime_s = t.real_or("mean_runtime", p.mean_runtime_s);
    p.mean_size = t.real_or("mean_size", p.mean_size);
    return generate_fars(p, nodes, arrivals, runtimes, sizes);
  }
  if (source == "lublin") {
    LublinParams p;
    p.jobs = jobs;
    p.estimate_factor = estimate_factor;
    p.mean_interarrival_s = t.real_or("mean_interarrival", p.mean_interarrival_s);
    p.size = size_params(t);
    p.runtime_p1 = t.real_or("runtime_p1", p.runtime_p1);
    p.runtime_mean1_s = t.real_or("runtime_mean1", p.runtime_mean1_s);
    p.runtime_mean2_s = t.real_or("runtime_mean2", p.runtime_mean2_s);
    return generate_lublin(p, nodes, arrivals, runtimes, sizes);
  }
  ZhangParams p;
  p.jobs = jobs;
  p.estimate_factor = estimate_factor;
  p.mean_interarrival_s = t.real_or("mean_interarrival", p.mean_interarrival_s);
  p.size = size_params(t);
  p.runtime_order = static_cast<int>(t.integer_or("runtime_order", p.runtime_order, 1));
  p.runtime_probs = t.list_or("runtime_probs", p.runtime_probs, false);
  p.runtime_means_s = t.list_or("runtime_means", p.runtime_means_s, true);
  return generate_zhang(p, nodes, arrivals, runtimes, sizes);
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

// The parsed trace of a "swf" table for a machine of `nodes` nodes and its skip_jobs /
// max_jobs window, read with the options make_workload uses (swf_reading reports this very
// reading). size_scale = "proportional" reads the trace on its own machine (sizes are scaled
// afterwards).
struct SwfWindow {
  std::shared_ptr<const Workload> trace;
  SwfOptions opt;
  bool proportional = false;
  std::size_t skip = 0, count = 0;
};

SwfWindow swf_window(const TableReader& r, const Params& table, int nodes, const RunContext& ctx) {
  SwfWindow win;
  win.opt = swf_options(r);
  win.proportional = proportional_sizes(r) && nodes > 0;
  win.opt.machine_nodes = nodes > 0 && !win.proportional ? nodes : 0;
  win.trace = cached_trace(ctx.resolve(swf_file(r)), win.opt);
  const auto all = win.trace->jobs.size();
  win.skip = static_cast<std::size_t>(r.integer_or("skip_jobs", 0, 0));
  const std::size_t max =
      table.has("max_jobs") ? static_cast<std::size_t>(r.integer_or("max_jobs", 0, 1)) : all;
  if (win.skip >= all)
    throw InputError("skip_jobs", std::to_string(win.skip),
                     fmt::format("fewer than the trace's {} usable jobs", all));
  win.count = std::min(max, all - win.skip);
  return win;
}

}  // namespace

const std::vector<std::string>& workload_duration_keys() {
  static const std::vector<std::string> keys = {
      "mean_interarrival", "mean_runtime",        "runtime_mean1", "runtime_mean2",
      "long_bound",        "inject_long_runtime", "submit_all_at"};
  return keys;
}

void validate_workload(const Params& table, const std::filesystem::path& base_dir) {
  const TableReader r(table);
  const std::string source = source_of(r);
  check_keys(r, source);
  (void)scaling_of(r, source);
  (void)moldability_of(r);
  (void)long_job_rule(r);
  check_thesis_options(r);
  if (source == "swf") {
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
    return;
  }
  // A dry run of the generator (one job) checks every parameter with the generator's own rules;
  // the simulated machine is not known here, so `nodes` (or a large machine) stands in.
  Params one = table;
  one.set("jobs", std::int64_t{1});
  (void)r.integer_or("jobs", 1, 1);
  const int nodes = generator_nodes(r, 1 << 20);
  Engine a = make_stream(0, 0, Purpose::arrivals, "validate");
  Engine rt = a, s = a;
  (void)generate(TableReader(one), source, nodes, a, rt, s);
}

std::optional<InputReading> swf_reading(const Params& table, int nodes,
                                        const std::filesystem::path& base_dir) {
  const TableReader r(table);
  if (source_of(r) != "swf") return std::nullopt;
  RunContext ctx;
  ctx.base_dir = base_dir;
  const SwfWindow win = swf_window(r, table, nodes, ctx);
  ReadStats st = win.trace->stats;
  st.jobs = static_cast<std::int64_t>(win.count);
  const std::filesystem::path path = ctx.resolve(swf_file(r));
  const std::string options =
      fmt::format("{};skip_jobs={};jobs={}", win.opt.key(), win.skip, win.count);
  return InputReading{path.lexically_normal(), options, st.counts(), st.summary(), {}};
}

Workload make_workload(const Params& table, int nodes, const RunContext& ctx) {
  const TableReader r(table);
  const std::string source = source_of(r);
  check_keys(r, source);
  const Scaling scaling = scaling_of(r, source);
  const Moldability moldability = moldability_of(r);
  const LongJobRule long_jobs = long_job_rule(r);
  Workload w;
  if (source == "swf") {
    const SwfWindow win = swf_window(r, table, nodes, ctx);
    const bool proportional = win.proportional;
    const auto& trace = win.trace;
    w.machine_nodes = trace->machine_nodes;
    w.stats = trace->stats;
    const auto first = trace->jobs.begin() + static_cast<std::ptrdiff_t>(win.skip);
    w.jobs.assign(first, first + static_cast<std::ptrdiff_t>(win.count));
    // The window starts at time 0, like the whole trace.
    const double t0 = w.jobs.front().submit_s;
    for (Job& j : w.jobs) j.submit_s -= t0;
    w.stats.jobs = static_cast<std::int64_t>(w.jobs.size());
    if (proportional) {
      const auto changed = scale_sizes(w.jobs, w.machine_nodes, nodes);
      w.notes.push_back(
          fmt::format("size_scale = \"proportional\": sizes x {}/{}, {} of {} changed", nodes,
                      w.machine_nodes, changed, w.jobs.size()));
      w.machine_nodes = nodes;
    }
  } else {
    const int gen_nodes = generator_nodes(r, nodes);
    // The streams' text is the table without target_load, scale and the moldability keys:
    // points that differ only in load get the same jobs, scaled (FARS §6.1.2 varies load "by
    // adjusting job service times"), so load sweeps are paired like policy comparisons
    // (DESIGN §4); likewise moldability sweeps.
    const std::string text = stream_text(table);
    Engine arrivals = ctx.stream(Purpose::arrivals, text);
    Engine runtimes = ctx.stream(Purpose::runtimes, text);
    Engine sizes = ctx.stream(Purpose::sizes, text);
    w = generate(r, source, gen_nodes, arrivals, runtimes, sizes);
    w.machine_nodes = nodes;
  }
  if (scaling.target > 0) scale_to_load(w.jobs, w.machine_nodes, scaling.target, scaling.how);
  if (long_jobs.action != LongJobs::keep)
    w.notes.push_back(
        apply_long_jobs(w.jobs, long_jobs, w.machine_nodes, scaling.target).summary(long_jobs));
  // Moldable jobs: one uniform draw per job, in job order, from a stream of its own
  // (Purpose::moldable; same text as the other streams), moldable iff u < fraction. The other
  // streams' draws are untouched, and the moldable set at a smaller fraction is a subset of
  // the set at a larger one (paired sweeps over the fraction).
  w.speedup = moldability.speedup;
  if (moldability.fraction > 0) {
    Engine e = ctx.stream(Purpose::moldable, stream_text(table));
    for (Job& j : w.jobs) j.moldable = uniform01(e) < moldability.fraction;
  }
  apply_thesis_options(r, w);
  return w;
}

}  // namespace faultsweep::workload
