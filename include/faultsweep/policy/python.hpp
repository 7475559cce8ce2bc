#pragma once
// Policies written in Python: a job names a class of a .py file where a built-in policy's name
// would go, e.g. allocator = { python = "policies/x.py", class = "X", threshold = 3 } (the other
// keys are the class's parameters). The interpreter is embedded and starts, once per process,
// only when a job names such a class; each replica gets a fresh instance with its own numpy
// generator seeded from the task. The adapters implement the same C++ interfaces as the
// built-in policies and check every decision the Python code returns.
#include <filesystem>
#include <memory>
#include <string>
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

// The bytes of a policy's .py file as this process runs and records them: read once, the first
// time any path to it is asked for, and never again (a file edited during a run changes
// nothing). The reference stays valid for the process's life.
const std::string& policy_source(const std::filesystem::path& file);
// The bytes kept for `file`, null if nothing read it yet (no policy names it).
const std::string* kept_policy_source(const std::filesystem::path& file);
// Gives this process the bytes of `file` before anything reads it (a rank other than 0: rank
// 0's bytes); InputError naming both SHA-256 if this process holds other bytes for it already.
void keep_policy_source(const std::filesystem::path& file, std::string bytes);

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
