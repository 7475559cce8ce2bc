#pragma once
// Builds the workload of a `cluster` point from its `workload` table (job-file syntax in
// docs of each source below), e.g.
//   workload = { source = "swf", file = "data/SDSC-SP2.swf.gz", estimate = "requested" }
//   workload = { source = "fars", jobs = 10000, mean_interarrival = "10min", ... }
//   workload = { source = "lublin", jobs = 10000, nodes = 256, ... }
//   workload = { source = "zhang", jobs = 10000, ... }          (hyper-Erlang, Zhang §3.1)
//   plus optional load scaling: target_load = 0.7, scale = "runtimes" | "interarrivals"
// Params given here are the table's sub-keys (p.sub("workload")), durations in seconds.
//
// The keys of every source and speedup law (type, unit, default, range) are declared by its row
// (workload/source_registry.hpp) and listed in docs/reference/cluster.md; the keys all sources
// share (target_load, scale, moldable, speedup, long_jobs, ...) are declared in
// src/workload/factory.cpp. Only "fars" has a default target_load, the paper's 0.7 (FARS
// §5.2.1); scale = "none" turns it off. Moldable jobs: runtime at k nodes = runtime at max x
// t(k)/t(max) (workload/job.hpp Speedup).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

// The `workload` key of a model: its help, the common sub-keys and each source's keys.
ParamSpec workload_table_spec();
// Sub-keys of the `workload` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& workload_duration_keys();
// Whether the table's source reads an input file (`file`, a trace) rather than generating jobs.
bool workload_reads_file(const Params& table);
// The input file the table reads (resolved against base_dir), if its source reads one.
std::optional<std::filesystem::path> workload_input_file(const Params& table,
                                                         const std::filesystem::path& base_dir);

// Checks the table; throws InputError whose key is the sub-key ("file", "target_load"). Also
// checks that a trace file exists and is readable (it does not parse it).
void validate_workload(const Params& table, const std::filesystem::path& base_dir);

// The jobs for one replica on a machine of `nodes` nodes. Generated workloads draw from
// ctx.stream(Purpose::arrivals / runtimes / sizes, canonical text of the table without
// target_load and scale), so points that differ only in policy get the same jobs, and points
// that differ only in load get the same jobs scaled. Trace workloads are cached per file and
// options (parsed once per process).
Workload make_workload(const Params& table, int nodes, const RunContext& ctx);

// What reading the SWF file of `table` on a machine of `nodes` nodes kept, dropped and changed
// (ReadStats::counts and summary; "jobs" counts the jobs of the skip_jobs / max_jobs window);
// nullopt unless source = "swf". Uses the same cached parse as make_workload.
std::optional<InputReading> swf_reading(const Params& table, int nodes,
                                        const std::filesystem::path& base_dir);

}  // namespace faultsweep::workload
