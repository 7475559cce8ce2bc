#pragma once
// One table per policy kind (name, help, factory): the job file's choices, the help printed by
// `faultsweep models cluster` and the "expected one of ..." of an error are all derived from
// it. Adding a policy = its own file + one row here (src/policy/registry.cpp).
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/checkpoint_policy.hpp"
#include "faultsweep/policy/on_failure.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::policy {

struct NoTraits {};

// What the engine and the model need to know of a queue policy without naming it.
struct QueueTraits {
  // Keeps state between passes (reservations): asked after every change, also while no node
  // is free (QueuePolicy::keeps_state of the class it makes).
  bool keeps_state = false;
};

// What the model needs to know of an allocator or size chooser without naming it: the metrics
// it reports through report() (0 at points that use another).
struct PlacementTraits {
  std::vector<MetricSpec> (*metrics)() = nullptr;
};

// What the model needs to know of a runtime strategy without naming it: what it reads and
// asks of the point (checked by validate_strategy), its own settings table and its metrics.
struct StrategyTraits {
  bool needs_predictor = false;       // reads the engine's predictor: `predictor` is required
  std::string_view predictor_hint;    // what a user puts there (completes the error's text)
  bool needs_failures = false;        // predicts failures: a failure process is required
  bool checkpoints_jobs = false;      // asks jobs to checkpoint: checkpoint_cost must be > 0 and
                                      // is paid even with checkpoint = "none"
  bool stateless_queue_only = false;  // keeps the first queued job's reservation itself: only
                                      // with queues whose QueueTraits::keeps_state is false
  // Its own settings sub-table ("" for none), declared here: the model adds its spec (the
  // table's help and duration keys) and the row's validate checks its keys (errors name
  // <table>.<key>).
  std::string_view table;
  bool table_required = false;
  std::string_view table_hint;  // "required with strategy = ...: <hint>"
  ParamSpec (*table_spec)() = nullptr;
  void (*validate)(const Params& point) = nullptr;
  // The metrics it reports through RuntimeStrategy::report (0 at points that run another).
  std::vector<MetricSpec> (*metrics)() = nullptr;
};

// `make` is a factory (taking the point's parameters, for policies with keys of their own) or,
// for rules the engine applies itself, the enum value; `traits` what the rest of the code may
// ask of the kind without a name test.
template <class Make, class Traits = NoTraits>
struct Choice {
  std::string_view name;
  std::string_view help;
  Make make;
  Traits traits{};
};

using QueueFactory = std::unique_ptr<QueuePolicy> (*)(const Params&);
using AllocatorFactory = std::unique_ptr<Allocator> (*)(const Params&);
using SizeFactory = std::unique_ptr<SizeChooser> (*)(const Params&);
using StrategyFactory = std::unique_ptr<RuntimeStrategy> (*)(const Params&);

std::span<const Choice<QueueFactory, QueueTraits>> queue_policies();
std::span<const Choice<AllocatorFactory, PlacementTraits>> allocators();
std::span<const Choice<SizeFactory, PlacementTraits>> size_choosers();
std::span<const Choice<CheckpointMode>> checkpoint_policies();
std::span<const Choice<OnFailure>> failure_rules();
std::span<const Choice<StrategyFactory, StrategyTraits>> strategies();

// The point's strategy row (`strategy`, "none" if absent); InputError for an unknown name.
const Choice<StrategyFactory, StrategyTraits>& strategy_row(const Params& point);
// Everything the point's strategy row asks of the point (its table, predictor, failure
// process, checkpoint cost, queue), as InputErrors naming the key.
void validate_strategy(const Params& point);
// The checks of validate_strategy that a strategy's traits ask for; `name` names it in errors.
void check_strategy_traits(const Params& point, const StrategyTraits& t, std::string_view name);
// The strategies' own tables (each once, in row order; the help names the strategies that read
// it) and metrics (each once, in row order).
std::vector<ParamSpec> strategy_table_specs();
std::vector<MetricSpec> strategy_metrics();
// The allocators' and size choosers' metrics (each once, allocators first, in row order).
std::vector<MetricSpec> placement_metrics();

// "one of \"a\", \"b\", \"c\"": the `expected` text of an InputError.
template <class Make, class Traits>
std::string one_of(std::span<const Choice<Make, Traits>> table) {
  std::string s = "one of ";
  for (std::size_t i = 0; i < table.size(); ++i)
    s += (i ? ", \"" : "\"") + std::string(table[i].name) + "\"";
  return s;
}

[[noreturn]] void throw_unknown(std::string_view key, std::string_view name,
                                const std::string& expected);

// The row named `name`; throws InputError(key, name, one_of(table)) if there is none.
template <class Make, class Traits>
const Choice<Make, Traits>& find_choice(std::span<const Choice<Make, Traits>> table,
                                        std::string_view key, std::string_view name) {
  for (const auto& c : table)
    if (c.name == name) return c;
  throw_unknown(key, name, one_of(table));
}

template <class Make, class Traits>
std::vector<std::string> choice_names(std::span<const Choice<Make, Traits>> table) {
  std::vector<std::string> out;
  for (const auto& c : table) out.emplace_back(c.name);
  return out;
}

// "a: help of a; b: help of b" for the parameter's help text.
template <class Make, class Traits>
std::string choice_help(std::span<const Choice<Make, Traits>> table) {
  std::string s;
  for (const auto& c : table)
    s += (s.empty() ? "" : "; ") + std::string(c.name) + ": " + std::string(c.help);
  return s;
}

}  // namespace faultsweep::policy
