#include "faultsweep/workload/factory.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/generators.hpp"
#include "faultsweep/workload/load.hpp"
#include "faultsweep/workload/swf.hpp"

namespace faultsweep::workload {
namespace {

using Keys = std::vector<std::string>;

const Keys kSources = {"swf", "fars", "lublin", "zhang"};
const Keys kCommon = {"source", "target_load", "scale", "moldable", "speedup", "serial_fraction"};
const Keys kSwf = {"file",           "size",     "estimate", "bad_lines",
                   "procs_per_node", "max_jobs", "skip_jobs"};
const Keys kGenerated = {"jobs", "mean_interarrival", "estimate_factor", "nodes"};
const Keys kFars = {"mean_runtime", "mean_size"};
const Keys kSizes = {"serial_prob",   "pow2_prob",    "size_lo_log2",
                     "size_mid_log2", "size_hi_log2", "size_p_low"};
const Keys kLublin = {"runtime_p1", "runtime_mean1", "runtime_mean2"};
const Keys kZhang = {"runtime_order", "runtime_probs", "runtime_means"};

Keys allowed_keys(const std::string& source) {
  Keys k = kCommon;
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

// Typed access with the sub-key named in every error.
double get_real(const Params& t, const std::string& key, double fallback) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw InputError(key, canonical_value(v), "a number");
}

std::int64_t get_int(const Params& t, const std::string& key, std::int64_t fallback,
                     std::int64_t min_value) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  const auto* i = std::get_if<std::int64_t>(&v);
  if (!i) throw InputError(key, canonical_value(v), "an integer");
  if (*i < min_value)
    throw InputError(key, canonical_value(v), fmt::format("an integer >= {}", min_value));
  return *i;
}

std::string get_choice(const Params& t, const std::string& key, const std::string& fallback,
                       const Keys& choices) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  const auto* s = std::get_if<std::string>(&v);
  if (!s || std::find(choices.begin(), choices.end(), *s) == choices.end())
    throw InputError(key, canonical_value(v),
                     fmt::format("one of \"{}\"", fmt::join(choices, "\", \"")));
  return *s;
}

// "0.6, 0.3, 0.1" -> numbers; with durations, each entry may carry a unit ("5min, 1h, 8h").
std::vector<double> get_list(const Params& t, const std::string& key,
                             const std::vector<double>& fallback, bool durations) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  const auto* s = std::get_if<std::string>(&v);
  if (!s)
    throw InputError(key, canonical_value(v),
                     "a comma-separated list in a string, e.g. \"0.6, 0.3, 0.1\"");
  std::vector<double> out;
  std::size_t pos = 0;
  while (pos <= s->size()) {
    const std::size_t comma = std::min(s->find(',', pos), s->size());
    std::string item = s->substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    try {
      if (item.empty()) throw InputError("");
      if (durations) {
        out.push_back(parse_duration_s(item));
      } else {
        std::size_t used = 0;
        out.push_back(std::stod(item, &used));
        if (used != item.size()) throw InputError("");
      }
    } catch (const std::exception&) {
      throw InputError(key, canonical_value(v),
                       durations ? "a comma-separated list of durations, e.g. \"5min, 1h, 8h\""
                                 : "a comma-separated list of numbers, e.g. \"0.6, 0.3, 0.1\"");
    }
    pos = comma + 1;
  }
  return out;
}

std::string source_of(const Params& t) {
  if (!t.has("source"))
    throw InputError("source", "(missing)",
                     fmt::format("one of \"{}\"", fmt::join(kSources, "\", \"")));
  return get_choice(t, "source", "", kSources);
}

void check_keys(const Params& t, const std::string& source) {
  const Keys allowed = allowed_keys(source);
  for (const auto& [k, v] : t.values())
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      throw InputError(
          k, canonical_value(v),
          fmt::format("a key of a \"{}\" workload: {}", source, fmt::join(allowed, ", ")));
}

// Keys that do not change the jobs' draws: load scaling and moldability are applied to the same
// jobs, so points that differ only in them are paired (common random numbers, DESIGN §4).
const Keys kNotInStreams = {"target_load", "scale", "moldable", "speedup", "serial_fraction"};

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

Moldability moldability_of(const Params& t) {
  Moldability m;
  m.fraction = get_real(t, "moldable", 0.0);
  if (!(m.fraction >= 0 && m.fraction <= 1))
    throw InputError("moldable", canonical_value(t.at("moldable")), "a fraction in [0, 1]");
  const std::string law = get_choice(t, "speedup", "amdahl", {"amdahl", "linear"});
  if (law == "linear") {
    if (t.has("serial_fraction"))
      throw InputError("serial_fraction", canonical_value(t.at("serial_fraction")),
                       "only with speedup = \"amdahl\"");
    m.speedup.serial_fraction = 0;
  } else {
    m.speedup.serial_fraction = get_real(t, "serial_fraction", m.speedup.serial_fraction);
    if (!(m.speedup.serial_fraction >= 0 && m.speedup.serial_fraction <= 1))
      throw InputError("serial_fraction", canonical_value(t.at("serial_fraction")),
                       "a fraction in [0, 1]");
  }
  return m;
}

struct Scaling {
  double target = 0;  // 0: none
  LoadScale how = LoadScale::runtimes;
};

Scaling scaling_of(const Params& t, const std::string& source) {
  Scaling s;
  // FARS §5.2.1 sets utilisation to 70 %; other sources keep their natural load by default.
  const double fallback = source == "fars" ? 0.7 : 0.0;
  const std::string how = get_choice(t, "scale", "runtimes", {"runtimes", "interarrivals", "none"});
  s.target = get_real(t, "target_load", fallback);
  if (t.has("target_load") && !(s.target > 0 && std::isfinite(s.target)))
    throw InputError("target_load", canonical_value(t.at("target_load")), "a number > 0");
  if (how == "none") {
    if (t.has("target_load"))
      throw InputError("scale", "\"none\"", "\"runtimes\" or \"interarrivals\" with target_load");
    s.target = 0;
  } else if (t.has("scale") && s.target == 0) {
    throw InputError("scale", canonical_value(t.at("scale")), "to be given with target_load");
  }
  s.how = how == "interarrivals" ? LoadScale::interarrivals : LoadScale::runtimes;
  return s;
}

SwfOptions swf_options(const Params& t) {
  SwfOptions o;
  o.size = get_choice(t, "size", "requested", {"requested", "allocated"}) == "requested"
               ? SwfSize::requested
               : SwfSize::allocated;
  o.estimate = get_choice(t, "estimate", "requested", {"requested", "runtime"}) == "requested"
                   ? SwfEstimate::requested
                   : SwfEstimate::runtime;
  o.bad_lines = get_choice(t, "bad_lines", "skip", {"skip", "fail"}) == "skip" ? BadLines::skip
                                                                               : BadLines::fail;
  o.procs_per_node = static_cast<std::int32_t>(get_int(t, "procs_per_node", 1, 1));
  return o;
}

std::string swf_file(const Params& t) {
  if (!t.has("file")) throw InputError("file", "(missing)", "the path of an SWF file");
  const auto* s = std::get_if<std::string>(&t.at("file"));
  if (!s || s->empty()) throw InputError("file", canonical_value(t.at("file")), "a path string");
  return *s;
}

LublinSizeParams size_params(const Params& t) {
  LublinSizeParams s;
  s.serial_prob = get_real(t, "serial_prob", s.serial_prob);
  s.pow2_prob = get_real(t, "pow2_prob", s.pow2_prob);
  s.lo_log2 = get_real(t, "size_lo_log2", s.lo_log2);
  s.mid_log2 = get_real(t, "size_mid_log2", s.mid_log2);
  s.hi_log2 = get_real(t, "size_hi_log2", s.hi_log2);
  s.p_low = get_real(t, "size_p_low", s.p_low);
  return s;
}

// The generator's own machine: the table's `nodes` (the size model's machine; must not exceed
// the simulated one), else the simulated machine.
int generator_nodes(const Params& t, int machine_nodes) {
  const std::int64_t n = get_int(t, "nodes", machine_nodes, 1);
  if (machine_nodes > 0 && n > machine_nodes)
    throw InputError("nodes", std::to_string(n),
                     fmt::format("at most the simulated machine's {} nodes", machine_nodes));
  return static_cast<int>(n);
}

Workload generate(const Params& t, const std::string& source, int nodes, Engine& arrivals,
                  Engine& runtimes, Engine& sizes) {
  const std::int64_t jobs = get_int(t, "jobs", 10000, 1);
  const double estimate_factor = get_real(t, "estimate_factor", 1.0);
  if (source == "fars") {
    FarsParams p;
    p.jobs = jobs;
    p.estimate_factor = estimate_factor;
    p.mean_interarrival_s = get_real(t, "mean_interarrival", p.mean_interarrival_s);
    p.mean_runtime_s = get_real(t, "mean_runtime", p.mean_runtime_s);
    p.mean_size = get_real(t, "mean_size", p.mean_size);
    return generate_fars(p, nodes, arrivals, runtimes, sizes);
  }
  if (source == "lublin") {
    LublinParams p;
    p.jobs = jobs;
    p.estimate_factor = estimate_factor;
    p.mean_interarrival_s = get_real(t, "mean_interarrival", p.mean_interarrival_s);
    p.size = size_params(t);
    p.runtime_p1 = get_real(t, "runtime_p1", p.runtime_p1);
    p.runtime_mean1_s = get_real(t, "runtime_mean1", p.runtime_mean1_s);
    p.runtime_mean2_s = get_real(t, "runtime_mean2", p.runtime_mean2_s);
    return generate_lublin(p, nodes, arrivals, runtimes, sizes);
  }
  ZhangParams p;
  p.jobs = jobs;
  p.estimate_factor = estimate_factor;
  p.mean_interarrival_s = get_real(t, "mean_interarrival", p.mean_interarrival_s);
  p.size = size_params(t);
  p.runtime_order = static_cast<int>(get_int(t, "runtime_order", p.runtime_order, 1));
  p.runtime_probs = get_list(t, "runtime_probs", p.runtime_probs, false);
  p.runtime_means_s = get_list(t, "runtime_means", p.runtime_means_s, true);
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

}  // namespace

const std::vector<std::string>& workload_duration_keys() {
  static const std::vector<std::string> keys = {"mean_interarrival", "mean_runtime",
                                                "runtime_mean1", "runtime_mean2"};
  return keys;
}

void validate_workload(const Params& table, const std::filesystem::path& base_dir) {
  const std::string source = source_of(table);
  check_keys(table, source);
  (void)scaling_of(table, source);
  (void)moldability_of(table);
  if (source == "swf") {
    (void)swf_options(table);
    (void)get_int(table, "max_jobs", 0, 1);
    (void)get_int(table, "skip_jobs", 0, 0);
    const std::string file = swf_file(table);
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
  (void)get_int(table, "jobs", 1, 1);
  const int nodes = generator_nodes(table, 1 << 20);
  Engine a = make_stream(0, 0, Purpose::arrivals, "validate");
  Engine r = a, s = a;
  (void)generate(one, source, nodes, a, r, s);
}

Workload make_workload(const Params& table, int nodes, const RunContext& ctx) {
  const std::string source = source_of(table);
  check_keys(table, source);
  const Scaling scaling = scaling_of(table, source);
  const Moldability moldability = moldability_of(table);
  Workload w;
  if (source == "swf") {
    SwfOptions opt = swf_options(table);
    opt.machine_nodes = nodes > 0 ? nodes : 0;
    const auto trace = cached_trace(ctx.resolve(swf_file(table)), opt);
    w.machine_nodes = trace->machine_nodes;
    w.stats = trace->stats;
    const auto skip = static_cast<std::size_t>(get_int(table, "skip_jobs", 0, 0));
    const auto all = trace->jobs.size();
    const std::size_t max =
        table.has("max_jobs") ? static_cast<std::size_t>(get_int(table, "max_jobs", 0, 1)) : all;
    if (skip >= all)
      throw InputError("skip_jobs", std::to_string(skip),
                       fmt::format("fewer than the trace's {} usable jobs", all));
    const auto first = trace->jobs.begin() + static_cast<std::ptrdiff_t>(skip);
    const auto last = first + static_cast<std::ptrdiff_t>(std::min(max, all - skip));
    w.jobs.assign(first, last);
    // The window starts at time 0, like the whole trace.
    const double t0 = w.jobs.front().submit_s;
    for (Job& j : w.jobs) j.submit_s -= t0;
    w.stats.jobs = static_cast<std::int64_t>(w.jobs.size());
  } else {
    const int gen_nodes = generator_nodes(table, nodes);
    // The streams' text is the table without target_load, scale and the moldability keys:
    // points that differ only in load get the same jobs, scaled (FARS §6.1.2 varies load "by
    // adjusting job service times"), so load sweeps are paired like policy comparisons
    // (DESIGN §4); likewise moldability sweeps.
    const std::string text = stream_text(table);
    Engine arrivals = ctx.stream(Purpose::arrivals, text);
    Engine runtimes = ctx.stream(Purpose::runtimes, text);
    Engine sizes = ctx.stream(Purpose::sizes, text);
    w = generate(table, source, gen_nodes, arrivals, runtimes, sizes);
    w.machine_nodes = nodes;
  }
  if (scaling.target > 0) scale_to_load(w.jobs, w.machine_nodes, scaling.target, scaling.how);
  // Moldable jobs: one uniform draw per job, in job order, from a stream of its own
  // (Purpose::moldable; same text as the other streams), moldable iff u < fraction. The other
  // streams' draws are untouched, and the moldable set at a smaller fraction is a subset of
  // the set at a larger one (paired sweeps over the fraction).
  w.speedup = moldability.speedup;
  if (moldability.fraction > 0) {
    Engine e = ctx.stream(Purpose::moldable, stream_text(table));
    for (Job& j : w.jobs) j.moldable = uniform01(e) < moldability.fraction;
  }
  return w;
}

}  // namespace faultsweep::workload
