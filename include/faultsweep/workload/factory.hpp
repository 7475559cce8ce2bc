#pragma once
// Builds the workload of a `cluster` point from its `workload` table (job-file syntax in
// docs of each source below), e.g.
//   workload = { source = "swf", file = "data/SDSC-SP2.swf.gz", estimate = "requested" }
//   workload = { source = "fars", jobs = 10000, mean_interarrival = "10min", ... }
//   workload = { source = "lublin", jobs = 10000, nodes = 256, ... }
//   workload = { source = "zhang", jobs = 10000, ... }          (hyper-Erlang, Zhang §3.1)
//   plus optional load scaling: target_load = 0.7, scale = "runtimes" | "interarrivals"
// Params given here are the table's sub-keys (p.sub("workload")), durations in seconds.
#include <filesystem>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/model.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

// Sub-keys of the `workload` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& workload_duration_keys();

// Checks the table; throws InputError whose key is the sub-key ("file", "target_load"). Also
// checks that a trace file exists and is readable (it does not parse it).
void validate_workload(const Params& table, const std::filesystem::path& base_dir);

// The jobs for one replica on a machine of `nodes` nodes. Generated workloads draw from
// ctx.stream(Purpose::arrivals / runtimes / sizes, canonical text of the table), so points that
// differ only in policy get the same jobs. Trace workloads are cached per file and options
// (parsed once per process).
Workload make_workload(const Params& table, int nodes, const models::RunContext& ctx);

}  // namespace faultsweep::workload
