#include "faultsweep/models/cluster.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cluster_limits.hpp"
#include "cluster_metrics.hpp"
#include "cluster_slowdown.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/metrics/registry.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/python.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/factory.hpp"
#include "faultsweep/workload/source_registry.hpp"

namespace faultsweep::models {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Re-throws an InputError of a sub-table with the table's name in front of its key.
template <class F>
void in_table(const std::string& table, F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    if (e.key().empty() && e.value().empty() && e.expected().empty())
      throw InputError(table, "", e.what());
    throw InputError(e.key().empty() ? table : table + "." + e.key(), e.value(), e.expected());
  }
}

double node_mtbf_s(const Params& p) {
  if (p.has("node_mtbf")) return p.real("node_mtbf");
  double m = std::numeric_limits<double>::quiet_NaN();
  // From the failures table's process row: +inf for none, NaN when it gives no rate (a trace).
  in_table("failures", [&] {
    m = failures::failure_node_mtbf_s(p.sub("failures"), static_cast<int>(p.integer("nodes")));
  });
  return m;
}

sim::SimConfig config_of(const Params& p, const policy::StrategyTraits& strategy) {
  sim::SimConfig c;
  c.nodes = static_cast<int>(p.integer("nodes"));
  c.on_failure = sim::on_failure_from(p.str("on_failure"));
  c.checkpoint = sim::checkpoint_mode_from(p.str("checkpoint"));
  c.checkpoint_interval_s = p.real("checkpoint_interval");
  // A strategy that asks jobs to checkpoint makes them pay the cost even without periodic ones.
  c.checkpoint_cost_s = c.checkpoint == sim::CheckpointMode::none && !strategy.checkpoints_jobs
                            ? 0
                            : p.real("checkpoint_cost");
  if (c.checkpoint == sim::CheckpointMode::young || c.checkpoint == sim::CheckpointMode::daly)
    c.node_mtbf_s = node_mtbf_s(p);
  c.horizon_s = p.has("horizon") ? p.real("horizon") : kInf;
  c.slowdown_floor_s = slowdown_floor_s(p);
  return c;
}

// What a reader dropped or changed (the parse itself is cached).
void report_read(const std::string& file, const std::string& summary) {
  say_once("read " + file + ": " + summary);
}

std::unique_ptr<policy::RuntimeStrategy> make_strategy(const Params& p) {
  return policy::strategy_row(p).make(p);
}

ParamSpec spec(std::string name, ParamKind kind, std::string unit, std::optional<Value> def,
               std::string help, std::vector<std::string> choices = {}, double min = -kInf) {
  return make_param(std::move(name), kind, std::move(unit), std::move(def), std::move(help),
                    std::move(choices), min);
}

// The machine and what runs on it: nodes, the workload and failures tables (their keys come
// from the source and process rows).
void add_machine_keys(std::vector<ParamSpec>& s) {
  ParamSpec nodes = spec("nodes", ParamKind::integer, "", std::nullopt, "machine size (nodes)");
  nodes.min = 1;
  nodes.max = 1 << 24;
  s.push_back(nodes);
  s.push_back(workload::workload_table_spec());
  s.push_back(failures::failures_table_spec());
}

// The scheduling policies (choices from the registry rows of policy/registry.hpp).
void add_policy_keys(std::vector<ParamSpec>& s) {
  s.push_back(spec("queue", ParamKind::string, "", Value(std::string("easy")),
                   "queue policy: " + policy::choice_help(policy::queue_policies()) +
                       "; or a Python class: { python = \"file.py\", class = \"Name\", "
                       "<its parameters> } (docs/python-policies.md)",
                   policy::choice_names(policy::queue_policies())));
  s.back().python = true;
  s.push_back(spec("allocator", ParamKind::string, "", Value(std::string("first_fit")),
                   "node allocation: " + policy::choice_help(policy::allocators()) +
                       "; or a Python class: { python = \"file.py\", class = \"Name\", "
                       "<its parameters> } (docs/python-policies.md)",
                   policy::choice_names(policy::allocators())));
  s.back().python = true;
  s.push_back(
      spec("moldable_size", ParamKind::string, "", Value(std::string("max")),
           "size of a moldable job (workload key moldable = fraction; speedup = " +
               joined_names(workload::speedup_laws(), " | ") +
               ", serial_fraction) when it reaches the start in queue order (FCFS, EASY's "
               "queue-order prefix): \"max\" its requested size (rigid); \"free\" "
               "min(requested, free nodes) if >= moldable_min_fraction x requested, else "
               "it waits; EASY reserves the requested size, backfills at the requested "
               "size; fixed at start, kept on restarts; or a Python class: { python = "
               "\"file.py\", class = \"Name\", <its parameters> } (docs/python-policies.md)",
           policy::choice_names(policy::size_choosers())));
  s.back().python = true;
  ParamSpec minf =
      spec("moldable_min_fraction", ParamKind::real, "", Value(0.5),
           "moldable_size = \"free\": smallest acceptable size / requested size", {}, 0.0);
  minf.max = 1.0;
  s.push_back(minf);
  s.push_back(spec("on_failure", ParamKind::string, "", Value(std::string("requeue_head")),
                   "a job hit by a failure restarts from its last checkpoint: " +
                       policy::choice_help(policy::failure_rules()),
                   policy::choice_names(policy::failure_rules())));
}

// Checkpointing and the run's horizon.
void add_checkpoint_keys(std::vector<ParamSpec>& s) {
  s.push_back(spec("checkpoint", ParamKind::string, "", Value(std::string("none")),
                   "checkpointing: " + policy::choice_help(policy::checkpoint_policies()),
                   policy::choice_names(policy::checkpoint_policies())));
  s.push_back(spec("checkpoint_interval", ParamKind::duration, "s", Value(4 * kHour_s),
                   "work between checkpoints (periodic)", {}, 0.0));
  s.push_back(spec("checkpoint_cost", ParamKind::duration, "s", Value(5 * kMinute_s),
                   "wall time of one checkpoint", {}, 0.0));
  ParamSpec mtbf = spec("node_mtbf", ParamKind::duration, "s", std::nullopt,
                        "node MTBF for young / daly (default: from the failures table)", {}, 0.0);
  mtbf.optional = true;
  s.push_back(mtbf);
  ParamSpec horizon =
      spec("horizon", ParamKind::duration, "s", std::nullopt,
           "stop injecting failures and stop the run here (default: until all jobs finish; a "
           "failure trace is then replayed whole, while a synthetic process injects failures up "
           "to 2 x (last submit + node-seconds of work / nodes + longest run) + 1 s and the run "
           "continues failure-free after that bound)",
           {}, 0.0);
  horizon.optional = true;
  s.push_back(horizon);
}

// The runtime strategy, its predictor and the strategies' own tables.
void add_strategy_keys(std::vector<ParamSpec>& s) {
  ParamSpec strategy =
      spec("strategy", ParamKind::string, "", std::nullopt,
           "runtime strategy acting on the running cluster (policy/strategy.hpp; default "
           "none): " +
               policy::choice_help(policy::strategies()) +
               "; or a Python class: { python = \"file.py\", class = \"Name\", <its "
               "parameters> } (docs/python-policies.md)",
           policy::choice_names(policy::strategies()));
  strategy.optional = true;
  strategy.python = true;
  s.push_back(strategy);
  s.push_back(failures::Predictor::table_spec());
  for (ParamSpec& t : policy::strategy_table_specs()) s.push_back(std::move(t));
}

}  // namespace

std::string ClusterModel::description() const {
  const auto names = [](const auto& table) {
    return fmt::format("{}", fmt::join(policy::choice_names(table), ", "));
  };
  return "cluster simulator: a workload (SWF trace or generator) on `nodes` nodes with node "
         "failures, rigid and moldable jobs, a queue policy (" +
         names(policy::queue_policies()) + "), an allocator (" + names(policy::allocators()) +
         "), moldable sizes (" + names(policy::size_choosers()) +
         "), a rule for jobs hit by a "
         "failure (" +
         names(policy::failure_rules()) + "), checkpointing (" +
         names(policy::checkpoint_policies()) + ") and a runtime strategy (" +
         names(policy::strategies()) +
         "); performance and reliability metrics of Zhang §3.3, "
         "FARS §5.3 and Gottumukkala §6.4.5";
}

const std::vector<ParamSpec>& ClusterModel::params() const {
  static const std::vector<ParamSpec> specs = [] {
    std::vector<ParamSpec> s;
    add_machine_keys(s);
    add_policy_keys(s);
    add_checkpoint_keys(s);
    add_strategy_keys(s);
    s.push_back(slowdown_floor_spec());
    for (ParamSpec& r : policy::reliability_param_specs()) s.push_back(std::move(r));
    return s;
  }();
  return specs;
}

const std::vector<MetricSpec>& ClusterModel::metrics() const {
  static const std::vector<MetricSpec> specs = [] {
    std::vector<MetricSpec> out;
    for (const ClusterMetric& m : cluster_metrics()) out.push_back(m.spec);
    for (MetricSpec& m : policy::strategy_metrics()) out.push_back(std::move(m));
    for (MetricSpec& m : policy::placement_metrics()) out.push_back(std::move(m));
    for (MetricSpec& m : metrics::plugin_metrics()) out.push_back(std::move(m));
    for (std::size_t i = 0; i < out.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        FS_CHECK(out[i].name != out[k].name, "cluster: metric " + out[i].name + " declared twice");
    return out;
  }();
  return specs;
}

void ClusterModel::validate(const Params& p, const std::filesystem::path& base_dir) const {
  const auto nodes = p.integer("nodes");
  if (nodes < 1 || nodes > (1 << 24))
    throw InputError("nodes", std::to_string(nodes), "must be in 1 .. 16777216");
  for (const char* table : {"workload", "failures"})
    if (p.sub(table).values().empty())
      throw InputError(table, "(missing)",
                       "required by model cluster: an inline table, see "
                       "include/faultsweep/models/cluster.hpp");
  in_table("workload", [&] { workload::validate_workload(p.sub("workload"), base_dir); });
  // A trace is read whole (and cached for the run) here, at load time: bad content is an
  // error before any output or journal is created, and `faultsweep check` finds it too.
  double mean_runtime_s = p.has("workload.mean_runtime") ? p.real("workload.mean_runtime")
                                                         : std::numeric_limits<double>::quiet_NaN();
  if (workload::workload_reads_file(p.sub("workload"))) {
    RunContext ctx;
    ctx.base_dir = base_dir;
    in_table("workload", [&] {
      const workload::Workload w =
          workload::make_workload(p.sub("workload"), static_cast<int>(nodes), ctx);
      // The source's own reading (what /inputs stores) when it has one: a reader's counts
      // can be finer than the shared ReadStats (sacct's states and job steps).
      const auto reading =
          workload::swf_reading(p.sub("workload"), static_cast<int>(nodes), base_dir);
      report_read(p.str("workload.file"), reading ? reading->summary : w.stats.summary());
      for (const std::string& note : w.notes) report_read(p.str("workload.file"), note);
      double sum_s = 0;
      for (const workload::Job& j : w.jobs) sum_s += j.runtime_s;
      if (!w.jobs.empty()) mean_runtime_s = sum_s / static_cast<double>(w.jobs.size());
    });
  }
  in_table("failures", [&] {
    failures::validate_failures(p.sub("failures"), static_cast<int>(nodes), base_dir);
    if (auto r = failures::trace_reading(p.sub("failures"), static_cast<int>(nodes), base_dir))
      report_read(p.str("failures.file"), r->summary);
  });
  for (const char* key : {"queue", "allocator", "moldable_size", "strategy"})
    if (policy::names_python(p, key)) policy::validate_python(p, key, base_dir);
  if (!policy::names_python(p, "queue")) (void)policy::make_queue_policy(p.str("queue"));
  if (!policy::names_python(p, "allocator")) (void)policy::make_allocator(p.str("allocator"));
  if (!policy::names_python(p, "moldable_size")) (void)policy::make_point_size_chooser(p);
  policy::validate_strategy(p);
  policy::validate_reliability(p);
  const double tick_period_s = make_strategy(p)->needs().period_s;
  (void)sim::on_failure_from(p.str("on_failure"));
  const sim::CheckpointMode mode = sim::checkpoint_mode_from(p.str("checkpoint"));
  if (mode == sim::CheckpointMode::periodic && !(p.real("checkpoint_interval") > 0))
    throw InputError("checkpoint_interval", format_duration(p.real("checkpoint_interval")),
                     "must be > 0 with checkpoint = \"periodic\"");
  if (mode == sim::CheckpointMode::young || mode == sim::CheckpointMode::daly) {
    if (!(p.real("checkpoint_cost") > 0))
      throw InputError("checkpoint_cost", format_duration(p.real("checkpoint_cost")),
                       "must be > 0 with checkpoint = \"young\" or \"daly\"");
    const double m = node_mtbf_s(p);
    if (std::isnan(m))
      throw InputError("node_mtbf", "(missing)",
                       "required with checkpoint = \"" + p.str("checkpoint") +
                           "\" when the failures table gives no mean rate (a trace)");
    if (!(m > 0)) throw InputError("node_mtbf", format_duration(m), "must be > 0");
  }
  if (p.has("horizon") && !(p.real("horizon") > 0 && std::isfinite(p.real("horizon"))))
    throw InputError("horizon", format_duration(p.real("horizon")), "must be > 0 and finite");
  (void)slowdown_floor_s(p);
  // The machine's own checks of the jobs (mean_size <= nodes), their count and memory.
  workload::WorkloadEstimate estimate;
  in_table("workload", [&] {
    estimate = workload::estimate_workload(p.sub("workload"), static_cast<int>(nodes), base_dir);
  });
  check_cluster_memory(p, estimate);
  check_strategy_ticks(p, tick_period_s, estimate);
  check_warm_up(p, node_mtbf_s(p));
  warn_progress(p, node_mtbf_s(p), mean_runtime_s);
}

std::vector<std::filesystem::path> ClusterModel::input_files(
    const Params& p, const std::filesystem::path& base_dir) const {
  std::vector<std::filesystem::path> out;
  if (auto f = workload::workload_input_file(p.sub("workload"), base_dir)) out.push_back(*f);
  if (auto f = failures::failure_input_file(p.sub("failures"), base_dir)) out.push_back(*f);
  for (auto& f : policy::python_policy_files(p, base_dir)) out.push_back(std::move(f));
  return out;
}

std::vector<InputReading> ClusterModel::input_readings(
    const Params& p, const std::filesystem::path& base_dir) const {
  std::vector<InputReading> out;
  const int nodes = static_cast<int>(p.integer("nodes"));
  if (auto r = workload::swf_reading(p.sub("workload"), nodes, base_dir)) out.push_back(*r);
  if (auto r = failures::trace_reading(p.sub("failures"), nodes, base_dir)) out.push_back(*r);
  return out;
}

double ClusterModel::cost(const Params& p, const std::filesystem::path&) const {
  // Jobs simulated (the trace's length is not read here: only the order of costs matters), times
  // what a job costs. The reliability-aware choices (policy::uses_reliability_model) score the
  // free nodes at each start: 14-33x round robin's cost a job at 10,000 nodes (bench/README.md),
  // growing with the machine. Without that factor their tasks ran last and one rank finished a
  // sweep alone.
  const Params w = p.sub("workload");
  const double jobs = w.has("max_jobs") ? static_cast<double>(w.integer("max_jobs"))
                      : w.has("jobs")   ? static_cast<double>(w.integer("jobs"))
                                        : 1e5;
  return jobs * (policy::uses_reliability_model(p)
                     ? 1 + static_cast<double>(p.integer("nodes")) / 400
                     : 1.0);
}

double ClusterModel::record_jobs(const Params& p, const std::filesystem::path& base_dir) const {
  // Every job of the workload has a row (validate has checked the table by now).
  return workload::estimate_workload(p.sub("workload"), static_cast<int>(p.integer("nodes")),
                                     base_dir)
      .jobs;
}

void ClusterModel::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const policy::StrategyTraits traits = policy::strategy_traits(p, ctx.base_dir);
  sim::SimConfig cfg = config_of(p, traits);
  const workload::Workload w = workload::make_workload(p.sub("workload"), cfg.nodes, ctx);
  cfg.speedup = w.speedup;
  // A finite trace is replayed whole (every failure up to the last job's completion); an
  // endless synthetic process needs a bound when the run has none (see `horizon`'s help);
  // no failures need none (and are never reported as cut short: failures_truncated).
  const bool unbounded = failures::failures_finite(p.sub("failures"));
  cfg.failure_stop_s = std::isfinite(cfg.horizon_s) ? cfg.horizon_s
                       : unbounded                  ? kInf
                                                    : generation_bound_s(w, cfg.nodes);
  const auto source =
      failures::make_failure_source(p.sub("failures"), cfg.nodes, cfg.failure_stop_s, ctx);
  const auto queue = policy::make_point_queue(p, ctx);
  const auto allocator = policy::make_point_allocator(p, ctx);
  const auto sizes = policy::make_point_size_chooser(p, ctx);
  const auto strategy = policy::make_point_strategy(p, ctx);
  sim::Simulation s(cfg, w.jobs, *source, *queue, *allocator, sizes.get(), strategy.get());
  // Metric plug-ins watch the run through the engine's signals (metrics/registry.hpp).
  std::vector<std::unique_ptr<sim::Observer>> watchers;
  for (const metrics::MetricPlugin& row : metrics::metric_plugins()) {
    watchers.push_back(row.make({cfg.nodes, w.jobs.size()}));
    s.observe(watchers.back().get());
  }
  std::optional<sim::Recorder> recorder;
  if (ctx.record != 0 && ctx.records_out != nullptr) {
    recorder.emplace(ctx.record, w.jobs.size());
    s.set_recorder(&*recorder);
  }
  // The predictor's stream is keyed by its own table and the machine: the failures, jobs and
  // schedule never depend on it (common random numbers across strategies and predictors).
  std::optional<failures::Predictor> predictor;
  if (traits.needs_predictor) {
    predictor.emplace(failures::Predictor::from_table(p.sub("predictor"), cfg.nodes));
    s.set_predictor(&*predictor,
                    ctx.stream(Purpose::predictor, p.sub("predictor").canonical_text() +
                                                       fmt::format("nodes={}\n", cfg.nodes)));
  }
  // A stop request ends the replica within ~0.05 s (Interrupted: the task is run again on
  // resume, so results do not depend on when the stop came).
  const sim::Metrics m = s.run(ctx.stop);
  if (recorder) *ctx.records_out = sim::encode_records(recorder->tables());

  // Every metric by name (core/metric_sink.hpp): the engine's, the strategy's, the plug-ins'.
  MetricSlots sink(out, metrics());
  for (const ClusterMetric& row : cluster_metrics()) sink.add(row.spec.name, row.read(m));
  strategy->report(sink);
  allocator->report(sink);
  if (sizes != nullptr) sizes->report(sink);
  for (const auto& o : watchers) o->report(sink);
}

}  // namespace faultsweep::models
