#pragma once
// Builds the failure source of a `cluster` point from its `failures` table, e.g.
//   failures = { process = "none" }
//   failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "30d",
//                downtime = "1h" }                                    (per node, independent)
//   failures = { process = "bathtub", mtbf = "30d", downtime = "1h" }  (FARS §5.2.1 composite)
//   failures = { process = "zhang", shape = 0.85, scale = "18000s", W = 2, alpha = 0.01,
//                downtime = "2min", downtime_dist = "constant" }      (Zhang §3.2)
//   failures = { process = "trace", file = "...csv.xz", format = "lanl", system = 20, ... }
// Params given here are the table's sub-keys (p.sub("failures")), durations in seconds.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/failures/failure_source.hpp"
#include "faultsweep/models/model.hpp"

namespace faultsweep::failures {

// Sub-keys of the `failures` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& failure_duration_keys();

// Checks the table for a machine of `nodes` nodes; throws InputError naming the sub-key.
void validate_failures(const Params& table, int nodes, const std::filesystem::path& base_dir);

// The failure source of one replica; draws from ctx.stream(Purpose::failures / locations /
// downtimes, canonical text of the table + nodes), so points that differ only in scheduling
// policy see the same failures. `horizon_s` bounds generation where a process needs it
// (Zhang's segments are generated up to it; events after it may be dropped).
std::unique_ptr<FailureSource> make_failure_source(const Params& table, int nodes,
                                                   double horizon_s,
                                                   const models::RunContext& ctx);

}  // namespace faultsweep::failures
