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
//
// The keys of each process and trace format (type, unit, default, range) are declared by its
// row (failures/process_registry.hpp) and listed in docs/reference/cluster.md; any other key is
// an InputError that lists the allowed ones.
// Streams: renewal and bathtub draw failures and downtimes from streams keyed by the whole
// table and `nodes`; zhang keys each stream by the keys that shape it (shape + scale for the
// times, alpha + nodes for the locations, the downtime keys for downtimes), so points that
// differ only in W, alpha or downtime are paired too.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

// The `failures` key of a model: its help, its sub-keys and each process's keys (from the rows).
ParamSpec failures_table_spec();
// Sub-keys of the `failures` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& failure_duration_keys();

// The mean time between failures of one node the table implies (Young / Daly): +inf without a
// process, NaN when its process gives no rate (a trace).
double failure_node_mtbf_s(const Params& table, int nodes);
// Whether the table's events are finite and replayed whole (no generation bound needed).
bool failures_finite(const Params& table);
// The input file the table reads (resolved against base_dir), if its process reads one.
std::optional<std::filesystem::path> failure_input_file(const Params& table,
                                                        const std::filesystem::path& base_dir);

// Checks the table for a machine of `nodes` nodes; throws InputError naming the sub-key.
void validate_failures(const Params& table, int nodes, const std::filesystem::path& base_dir);

// The failure source of one replica; draws from ctx.stream(Purpose::failures / locations /
// downtimes, canonical text of the table + nodes), so points that differ only in scheduling
// policy see the same failures. `horizon_s` bounds generation where a process needs it
// (Zhang's segments are generated up to it; events after it may be dropped).
// What reading the failure trace of `table` kept and dropped (TraceLog::counts and summary;
// options = the table's canonical text); nullopt unless process = "trace". The parse is cached
// per file, options and modification time, shared with validate_failures and the sources.
std::optional<InputReading> trace_reading(const Params& table, int nodes,
                                          const std::filesystem::path& base_dir);

std::unique_ptr<FailureSource> make_failure_source(const Params& table, int nodes, double horizon_s,
                                                   const RunContext& ctx);

}  // namespace faultsweep::failures
