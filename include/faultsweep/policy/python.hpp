#pragma once
// Policies written in Python: a job names a class of a .py file where a built-in policy's name
// would go, e.g. allocator = { python = "policies/x.py", class = "X", threshold = 3 } (the other
// keys are the class's parameters). The interpreter is embedded and starts, once per process,
// only when a job names such a class; each replica gets a fresh instance with its own numpy
// generator seeded from the task. The adapters implement the same C++ interfaces as the
// built-in policies and check every decision the Python code returns.
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/policy/size_chooser.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::policy {

// True if the point's `key` ("queue", "allocator", "moldable_size", "strategy") is a table naming a
// Python class.
bool names_python(const Params& point, std::string_view key);

// Imports the file, finds the class, checks its method's signature and its parameters, and
// makes one instance: an InputError naming the key and the Python file:line otherwise.
void validate_python(const Params& point, std::string_view key,
                     const std::filesystem::path& base_dir);

// The .py files the point's policies name (for provenance), resolved against base_dir.
std::vector<std::filesystem::path> python_policy_files(const Params& point,
                                                       const std::filesystem::path& base_dir);

// The point's queue policy / allocator: a built-in row or a fresh Python instance.
std::unique_ptr<QueuePolicy> make_point_queue(const Params& point, const RunContext& ctx);
std::unique_ptr<Allocator> make_point_allocator(const Params& point, const RunContext& ctx);
std::unique_ptr<SizeChooser> make_point_size_chooser(const Params& point, const RunContext& ctx);
// The point's runtime strategy: a registry row or a fresh Python instance.
std::unique_ptr<RuntimeStrategy> make_point_strategy(const Params& point, const RunContext& ctx);
// What the point's runtime strategy asks of the point and the engine (a predictor, checkpoints):
// its registry row's traits or, for a Python class, the ones the class declares.
StrategyTraits strategy_traits(const Params& point, const std::filesystem::path& base_dir);

}  // namespace faultsweep::policy
