// The `workload` table: the keys every source shares (load scaling, moldability, long jobs,
// the thesis options) and the dispatch to the source's row (workload/source_registry.hpp),
// which declares its own keys, checks and factory; nothing here names a source.
#include "faultsweep/workload/factory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/workload/load.hpp"
#include "faultsweep/workload/source_registry.hpp"
#include "faultsweep/workload/thesis_options.hpp"
#include "faultsweep/workload/transform.hpp"

namespace faultsweep::workload {
namespace {

using Keys = std::vector<std::string>;

ParamSpec optional_key(std::string name, ParamKind kind, std::string unit, std::string help) {
  ParamSpec s =
      make_param(std::move(name), kind, std::move(unit), std::nullopt, std::move(help), {}, 0.0);
  s.optional = true;
  return s;
}

ParamSpec choice_key(std::string name, std::string help, Keys choices) {
  const std::string def = choices.front();
  return make_param(std::move(name), ParamKind::string, "", Value(def), std::move(help),
                    std::move(choices));
}

// Load scaling (load.hpp) and moldability: applied to the jobs of any source.
std::vector<ParamSpec> load_keys() {
  ParamSpec source =
      make_param("source", ParamKind::string, "", std::nullopt,
                 "where the jobs come from (its keys below)", row_names(workload_sources()));
  source.choice_keys = choice_specs(workload_sources());
  ParamSpec moldable = make_param("moldable", ParamKind::real, "", Value(0.0),
                                  "fraction of moldable jobs (one uniform draw per job from its "
                                  "own stream; a moldable job's size is its maximum)",
                                  {}, 0.0);
  moldable.max = 1;
  ParamSpec speedup =
      choice_key("speedup", "speedup law of a moldable job", row_names(speedup_laws()));
  speedup.choice_keys = choice_specs(speedup_laws());
  return {source,
          optional_key("target_load", ParamKind::real, "",
                       "offered load (load.hpp), > 0 (default: the source's natural load; "
                       "fars: 0.7, FARS §5.2.1)"),
          choice_key("scale", "how target_load is reached (none: only without target_load)",
                     {"runtimes", "interarrivals", "none"}),
          moldable, speedup};
}

// Long jobs (transform.hpp) and the thesis options (thesis_options.hpp).
std::vector<ParamSpec> transform_keys() {
  ParamSpec inject = make_param("inject_long_jobs", ParamKind::integer, "", Value(std::int64_t{0}),
                                "extra long jobs injected (Gottumukkala §6.4.4)", {}, 0.0);
  ParamSpec runtime = make_param("inject_long_runtime", ParamKind::duration, "s",
                                 Value(30 * 86400.0), "run time of an injected job (> 0)", {}, 0.0);
  return {choice_key("long_jobs",
                     "jobs longer than long_bound after load scaling: kept, dropped (gaps then "
                     "shrunk to keep target_load) or split into equal pieces",
                     {"keep", "drop", "split"}),
          optional_key("long_bound", ParamKind::duration, "s", "with long_jobs = drop | split"),
          inject, runtime,
          optional_key("submit_all_at", ParamKind::duration, "s",
                       "every job is submitted at this time (Gottumukkala §5.3.2)")};
}

// The keys of every source: serial_fraction (a speedup law's key) follows speedup.
Keys common_keys() {
  Keys k;
  for (const ParamSpec& s : load_keys()) k.push_back(s.name);
  for (const SpeedupRow& law : speedup_laws())
    if (law.keys)
      for (const ParamSpec& s : law.keys())
        if (std::find(k.begin(), k.end(), s.name) == k.end()) k.push_back(s.name);
  for (const ParamSpec& s : transform_keys()) k.push_back(s.name);
  return k;
}

const SourceRow& source_of(const TableReader& t) {
  const Keys names = row_names(workload_sources());
  if (!t.has("source"))
    throw InputError("source", "(missing)",
                     fmt::format("one of \"{}\"", fmt::join(names, "\", \"")));
  const std::string name = t.choice_or("source", "", names);
  return *find_row(workload_sources(), name);
}

void check_keys(const TableReader& t, const SourceRow& source) {
  Keys allowed = common_keys();
  if (source.keys)
    for (const ParamSpec& s : source.keys()) allowed.push_back(s.name);
  t.check_keys(allowed, fmt::format("a key of a \"{}\" workload: ", source.name));
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

// `"a" or "b"`: the laws that read serial_fraction.
std::string serial_laws() {
  Keys names;
  for (const SpeedupRow& law : speedup_laws())
    if (law.serial) names.push_back("\"" + std::string(law.name) + "\"");
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

Moldability moldability_of(const TableReader& t) {
  Moldability m;
  m.fraction = t.real_or("moldable", 0.0);
  if (!(m.fraction >= 0 && m.fraction <= 1))
    throw InputError("moldable", t.text("moldable"), "a fraction in [0, 1]");
  const std::string name =
      t.choice_or("speedup", std::string(speedup_laws().front().name), row_names(speedup_laws()));
  const SpeedupRow& law = *std::find_if(speedup_laws().begin(), speedup_laws().end(),
                                        [&](const SpeedupRow& r) { return r.name == name; });
  m.speedup.law = law.law;
  if (!law.serial) {
    if (t.has("serial_fraction"))
      throw InputError("serial_fraction", t.text("serial_fraction"),
                       "only with speedup = " + serial_laws());
    m.speedup.serial_fraction = 0;
    return m;
  }
  m.speedup.serial_fraction = t.real_or("serial_fraction", m.speedup.serial_fraction);
  if (!(m.speedup.serial_fraction >= 0 && m.speedup.serial_fraction <= 1))
    throw InputError("serial_fraction", t.text("serial_fraction"), "a fraction in [0, 1]");
  return m;
}

struct Scaling {
  double target = 0;  // 0: none
  LoadScale how = LoadScale::runtimes;
};

Scaling scaling_of(const TableReader& t, const SourceRow& source) {
  Scaling s;
  const double fallback = source.traits.default_target_load;
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

}  // namespace

ParamSpec workload_table_spec() {
  ParamSpec w = make_param("workload", ParamKind::table, "", std::nullopt, "");
  const std::string names = joined_names(workload_sources(), " | ", "\"");
  w.help = "the jobs: { source = " + names + ", ... } (workload/factory.hpp)";
  w.keys = load_keys();
  for (ParamSpec& k : transform_keys()) w.keys.push_back(std::move(k));
  collect_duration_keys(w.keys, w.duration_keys);
  return w;
}

const std::vector<std::string>& workload_duration_keys() {
  static const std::vector<std::string> keys = workload_table_spec().duration_keys;
  return keys;
}

bool workload_reads_file(const Params& table) {
  if (!table.has("source") || !std::holds_alternative<std::string>(table.at("source")))
    return false;
  const SourceRow* row = find_row(workload_sources(), table.str("source"));
  return row != nullptr && row->traits.reads_file;
}

std::optional<std::filesystem::path> workload_input_file(const Params& table,
                                                         const std::filesystem::path& base_dir) {
  if (!workload_reads_file(table) || !table.has("file")) return std::nullopt;
  const std::filesystem::path f(table.str("file"));
  return f.is_absolute() ? f : base_dir / f;
}

void validate_workload(const Params& table, const std::filesystem::path& base_dir) {
  const TableReader r(table);
  const SourceRow& source = source_of(r);
  check_keys(r, source);
  (void)scaling_of(r, source);
  (void)moldability_of(r);
  (void)long_job_rule(r);
  check_thesis_options(r);
  source.validate(r, base_dir);
}

std::optional<InputReading> swf_reading(const Params& table, int nodes,
                                        const std::filesystem::path& base_dir) {
  const TableReader r(table);
  const SourceRow& source = source_of(r);
  if (!source.reading) return std::nullopt;
  return source.reading(r, nodes, base_dir);
}

Workload make_workload(const Params& table, int nodes, const RunContext& ctx) {
  const TableReader r(table);
  const SourceRow& source = source_of(r);
  check_keys(r, source);
  const Scaling scaling = scaling_of(r, source);
  const Moldability moldability = moldability_of(r);
  const LongJobRule long_jobs = long_job_rule(r);
  // The streams' text is the table without target_load, scale and the moldability keys:
  // points that differ only in load get the same jobs, scaled (FARS §6.1.2 varies load "by
  // adjusting job service times"), so load sweeps are paired like policy comparisons
  // (DESIGN §4); likewise moldability sweeps.
  const std::string text = stream_text(table);
  Workload w = source.make(r, nodes, text, ctx);
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
    Engine e = ctx.stream(Purpose::moldable, text);
    for (Job& j : w.jobs) j.moldable = uniform01(e) < moldability.fraction;
  }
  apply_thesis_options(r, w);
  return w;
}

}  // namespace faultsweep::workload
