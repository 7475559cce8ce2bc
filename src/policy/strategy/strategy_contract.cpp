// What a runtime strategy's registry row asks of a point, checked from the row's traits alone:
// the model never names a strategy.
#include <algorithm>
#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

const Choice<StrategyFactory, StrategyTraits>& strategy_row(const Params& point) {
  const std::string name = point.has("strategy") ? point.str("strategy") : "none";
  return find_choice(strategies(), "strategy", name);
}

namespace {

// "\"fcfs\" or \"easy\"": the queues that keep no state between passes.
std::string stateless_queues() {
  std::string s;
  std::vector<std::string> names;
  for (const auto& q : queue_policies())
    if (!q.traits.keeps_state) names.emplace_back(q.name);
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + names[i] + "\"");
  return s;
}

}  // namespace

void validate_strategy(const Params& p) {
  const auto& row = strategy_row(p);
  const StrategyTraits& t = row.traits;
  const std::string with = "with strategy = \"" + std::string(row.name) + "\"";
  const std::string table(t.table);
  if (t.table_required && p.sub(table).values().empty())
    throw InputError(table, "(missing)", "required " + with + ": " + std::string(t.table_hint));
  if (t.validate != nullptr) t.validate(p);
  check_strategy_traits(p, t, row.name);
}

void check_strategy_traits(const Params& p, const StrategyTraits& t, std::string_view name) {
  const std::string with = "with strategy = \"" + std::string(name) + "\"";
  if (t.checkpoints_jobs && !(p.real("checkpoint_cost") > 0))
    throw InputError("checkpoint_cost", format_duration(p.real("checkpoint_cost")),
                     "must be > 0 " + with + " (it checkpoints jobs)");
  if (t.needs_predictor) {
    if (p.sub("predictor").values().empty())
      throw InputError("predictor", "(missing)",
                       "required " + with + ": " + std::string(t.predictor_hint));
    (void)failures::Predictor::from_table(p.sub("predictor"), static_cast<int>(p.integer("nodes")));
  }
  const std::string process = p.has("failures.process") ? p.str("failures.process") : "none";
  if (t.needs_failures && process == "none")
    throw InputError(
        "failures.process", "\"none\"",
        "a failure process: strategy = \"" + std::string(name) + "\" predicts failures");
  // (A Python queue is not checked: whether it keeps state is up to its class.)
  if (t.stateless_queue_only && p.has("queue") &&
      find_choice(queue_policies(), "queue", p.str("queue")).traits.keeps_state)
    throw InputError(
        "queue", "\"" + p.str("queue") + "\"",
        stateless_queues() + " " + with + " (it keeps the first queued job's reservation itself)");
}

std::vector<ParamSpec> strategy_table_specs() {
  std::vector<ParamSpec> out;
  for (const auto& row : strategies()) {
    if (row.traits.table.empty()) continue;
    const auto same = [&](const ParamSpec& s) { return s.name == row.traits.table; };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) {
      out.push_back(row.traits.table_spec());
      out.back().help += "; read by strategy = " + std::string(row.name);
    } else {
      it->help += " | " + std::string(row.name);
    }
  }
  return out;
}

}  // namespace faultsweep::policy
