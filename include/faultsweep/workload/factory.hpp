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
// Keys by source (defaults and the papers' reasons in workload/generators.hpp and swf.hpp):
//   every source: source; target_load (> 0; offered load as defined in load.hpp);
//     moldable (fraction of moldable jobs in [0, 1], default 0: one uniform draw per job from
//     its own stream, Purpose::moldable, moldable iff u < fraction; a moldable job's size is
//     its maximum (requested) size and its runtime / estimate are those at that size);
//     speedup = "amdahl" (default) | "gustafson" | "linear" and serial_fraction (amdahl and
//     gustafson, default 0.05): runtime at k nodes = runtime at max x t(k)/t(max), t(k) =
//     f + (1 - f)/k (Amdahl, Gottumukkala §6.3.1, Eq. 6.2) or 1/(f + k(1 - f)) (Gustafson,
//     §6.3.2, Eq. 6.3); linear: f = 0 (workload/job.hpp Speedup);
//     scale = "runtimes" (default) | "interarrivals" | "none" (only without target_load).
//     Only "fars" has a default target_load, the paper's 0.7 (FARS §5.2.1); scale = "none"
//     turns it off.
//     long_jobs = "keep" (default) | "drop" | "split" with long_bound (duration): jobs longer
//     than the bound after load scaling are dropped (gaps then shrunk to keep target_load) or
//     split into equal pieces (transform.hpp).
//   swf: file (relative to the job file's folder; plain or .gz); size = "requested" (default)
//     | "allocated"; estimate = "requested" (default) | "runtime"; bad_lines = "skip" (default)
//     | "fail"; procs_per_node (default 1); skip_jobs (drop the first N usable jobs, default 0);
//     max_jobs (then keep at most N). The simulated machine's `nodes` replaces the header's
//     machine size (wider jobs are dropped and counted); a window's submit times restart at 0.
//     size_scale = "none" (default) | "proportional": sizes x nodes / the header's machine
//     (transform.hpp), read on the header's machine.
//   fars, lublin, zhang: jobs (default 10000); mean_interarrival (duration); estimate_factor
//     (estimate = runtime * factor, >= 1, default 1); nodes (the size model's machine, at most
//     the simulated one; default the simulated one).
//   fars: mean_runtime (duration, 1500 s), mean_size (10).
//   lublin: runtime_p1 (0.8544), runtime_mean1, runtime_mean2 (durations: 2845.6 s, 16702 s).
//   zhang: runtime_order (2), runtime_probs ("0.6, 0.3, 0.1"), runtime_means
//     ("300s, 1h, 8h"; a comma-separated list of durations in a string).
//   lublin, zhang sizes: serial_prob (0.24), pow2_prob (0.75), size_lo_log2 (0.8),
//     size_mid_log2 (size_hi_log2 - 2.5), size_hi_log2 (log2 nodes), size_p_low (0.86).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

// Sub-keys of the `workload` table that are durations (for ParamSpec::duration_keys).
const std::vector<std::string>& workload_duration_keys();

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
