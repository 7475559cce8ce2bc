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
// Sub-keys by process (any other key is an InputError that lists the allowed ones):
//   every synthetic process: downtime (duration, required: the constant, or the mean),
//     downtime_dist = "constant" (default) | "exponential" | "lognormal",
//     downtime_sigma (lognormal only: sigma of log downtime)
//   renewal: dist and its keys as in dist::Dist::from_params (mean | rate, shape + scale | mean,
//     mu | mean + sigma, value); every node renews independently (failures/renewal.hpp)
//   bathtub: mtbf (duration): FARS's three Weibull sub-populations, shapes 0.5 / 1.0 / 1.5,
//     equal weights, one scale giving mean mtbf (dist/composite_weibull.hpp), per node
//   zhang: shape, scale (duration), W (integer >= 1, default 2 = no correlation),
//     alpha (Zipf skew >= 0, default 0 = uniform); see failures/zhang.hpp
//   trace: file (relative to the job file; ".gz" / ".xz" are decompressed),
//     format = "lanl" (default) | "csv" | "fta" (failures/fta.hpp) | "pnnl" (failures/pnnl.hpp),
//     node_offset (default 0), bad_lines = "skip" (default: counted, reported on stderr with
//     file:line) | "fail" ("stop" is an older synonym);
//     pnnl only: downtime (duration, required: the log has no repair times), node_pattern;
//     fta only: platform (integer: keep that platform_id), node_prefix (keep node_names
//     starting with it);
//     lanl only: system (integer, required), cause ("Hardware" or a comma-separated list of
//     Facilities, Hardware, Human Error, Network, Undetermined, Software), start ("YYYY-MM-DD
//     [HH:MM]": t = 0 there, earlier records dropped; default: the first selected failure),
//     downtime_from = "down_time" (default, the Down Time column) | "fixed_minus_started"
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
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

// Sub-keys of the `failures` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& failure_duration_keys();

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
