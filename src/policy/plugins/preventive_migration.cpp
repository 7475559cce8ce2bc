// An example runtime strategy, added the way a user adds one: this file and one row in
// src/policy/registry.cpp, nothing else. Preventive migration: every `interval`, a process on
// a node that failed more than `max_failures` times in the last `window` moves to the idle node
// with the fewest failures in that window (ties: the lowest id), if that node has at most
// `max_failures`; the job keeps its work and resumes after `overhead`. Its metric
// preventive_moves counts the processes it moved. Job file:
//   strategy = "preventive_migrate"
//   preventive = { interval = "10min", window = "1h", max_failures = 1, overhead = "5min" }
#include <algorithm>
#include <memory>
#include <vector>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {
namespace {

ParamSpec preventive_table_spec();  // its settings table (below)

struct PreventiveConfig {
  double interval_s = 600, window_s = 3600, overhead_s = 300;
  std::int64_t max_failures = 1;

  static PreventiveConfig from_point(const Params& point) {
    const Params t = point.sub("preventive");
    TableReader r(t, "strategy = \"preventive_migrate\"");
    r.check_keys(table_key_names(preventive_table_spec()));
    PreventiveConfig c;
    c.interval_s = r.positive("interval", r.real_or("interval", c.interval_s));
    c.window_s = r.positive("window", r.real_or("window", c.window_s));
    c.max_failures = r.integer_or("max_failures", c.max_failures, 0);
    c.overhead_s = r.real_or("overhead", c.overhead_s);
    if (!(c.overhead_s >= 0))
      throw InputError("overhead", format_duration(c.overhead_s), "must be >= 0");
    return c;
  }
};

class PreventiveMigration final : public RuntimeStrategy {
 public:
  explicit PreventiveMigration(const Params& point) : c_(PreventiveConfig::from_point(point)) {}
  std::string_view name() const override { return "preventive_migrate"; }
  StrategyNeeds needs() const override {
    StrategyNeeds n;
    n.period_s = c_.interval_s;
    n.offset_s = c_.interval_s;
    n.failure_times = true;  // recent() counts the failures of the last window
    return n;
  }
  void on_tick(const ClusterView& v, Decisions& out) override;
  void report(MetricSink& sink) const override {
    sink.add("preventive_moves", static_cast<double>(moves_));
  }

 private:
  struct Slot {
    std::int64_t recent;
    std::int32_t node, job;
  };
  // Failures of `node` in (now - window, now].
  std::int64_t recent(const failures::NodeHistory& h, std::int32_t node, double now_s) const {
    const auto t = h.failure_times_s(node);
    return t.end() - std::upper_bound(t.begin(), t.end(), now_s - c_.window_s);
  }

  PreventiveConfig c_;
  std::int64_t moves_ = 0;
  std::vector<Slot> risky_, idle_;
};

void PreventiveMigration::on_tick(const ClusterView& v, Decisions& out) {
  const failures::NodeHistory& h = v.history();
  const double now_s = v.now_s();
  risky_.clear();
  for (const Release& r : v.running()) {
    const JobView j = v.job(r.job);
    if (!j.running) continue;
    for (const std::int32_t n : j.nodes)
      if (const std::int64_t k = recent(h, n, now_s); k > c_.max_failures)
        risky_.push_back({k, n, j.id});
  }
  if (risky_.empty()) return;  // the common case: nothing to scan the idle nodes for
  idle_.clear();
  const NodeSet& free = v.free();
  for (int n = free.next_from(0); n >= 0; n = free.next_from(n + 1))
    if (const std::int64_t k = recent(h, n, now_s); k <= c_.max_failures)
      idle_.push_back({k, n, -1});
  const auto by_recent = [](const Slot& a, const Slot& b) {
    return a.recent != b.recent ? a.recent < b.recent : a.node < b.node;
  };
  std::sort(idle_.begin(), idle_.end(), by_recent);
  // The riskiest processes first, each to the safest idle node left.
  std::sort(risky_.begin(), risky_.end(), [](const Slot& a, const Slot& b) {
    return a.recent != b.recent ? a.recent > b.recent : a.node < b.node;
  });
  const std::size_t pairs = std::min(risky_.size(), idle_.size());
  for (std::size_t i = 0; i < pairs; ++i)
    out.moves.push_back({risky_[i].job, risky_[i].node, idle_[i].node, c_.overhead_s});
  moves_ += static_cast<std::int64_t>(pairs);
}

ParamSpec preventive_table_spec() {
  const auto dur = [](const char* name, double def, const char* help, double min) {
    return make_param(name, ParamKind::duration, "s", Value(def), help, {}, min);
  };
  return make_table_param(
      "preventive", "preventive migration settings",
      {dur("interval", 600, "how often it looks, > 0", 0.0),
       dur("window", 3600, "the failures of this last window count, > 0", 0.0),
       make_param("max_failures", ParamKind::integer, "", Value(std::int64_t{1}),
                  "a node with more failures in the window is risky", {}, 0.0),
       dur("overhead", 300, "per move, >= 0", 0.0)});
}

void validate_preventive(const Params& point) {
  try {
    (void)PreventiveConfig::from_point(point);
  } catch (const InputError& e) {
    throw InputError("preventive." + e.key(), e.value(), e.expected());
  }
}

std::vector<MetricSpec> preventive_metrics() {
  return {{"preventive_moves", "1",
           "processes moved off nodes with more than preventive.max_failures failures in the "
           "last preventive.window (strategy = \"preventive_migrate\"; 0 for other strategies)"}};
}

}  // namespace

std::unique_ptr<RuntimeStrategy> make_preventive_migration(const Params& point) {
  return std::make_unique<PreventiveMigration>(point);
}

StrategyTraits preventive_migration_traits() {
  StrategyTraits t;
  t.needs_failures = true;
  t.table = "preventive";
  t.table_spec = preventive_table_spec;
  t.validate = validate_preventive;
  t.metrics = preventive_metrics;
  return t;
}

}  // namespace faultsweep::policy
