#pragma once
// Reader of Slurm's job accounting as `sacct --parsable2` prints it: a header line naming the
// columns, then one record per line, fields separated by '|' (no trailing '|'), e.g.
//   sacct -a -P -S 2026-01-01 -E 2026-04-01 -o JobID,JobIDRaw,Submit,Eligible,Start,End,
//         Elapsed,Timelimit,NNodes,NCPUS,AllocTRES,State,Partition   (one line, no blank)
// Columns are found by their header names (any order, any case; others are ignored).
//   required: JobID, JobIDRaw, Submit, Start, End, State, and the size's column (NNodes;
//             NCPUS with size = cpus; AllocTRES or ReqTRES with size = tres)
//   optional: Elapsed (run time; else End - Start), Timelimit (estimate), Eligible (with
//             submit = eligible), Partition (required by a partition filter)
// Records:
//   - one job per allocation: a JobID with a '.' (123.batch, 123.extern, 123.0) is a job step
//     and is skipped (counted); array elements (123_4) and heterogeneous components (123+1) are
//     each a job; a job's id is its JobIDRaw (unique, numeric);
//   - State (first word: "CANCELLED by 1000" is CANCELLED): a job that started (Start is a
//     time) and ended (End is a time) is kept whatever its end state: COMPLETED, FAILED,
//     TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, PREEMPTED, BOOT_FAIL, DEADLINE, CANCELLED (after its
//     start), REQUEUED; its run time is the one recorded (a job cut by a node failure or a
//     cancellation replays the part that ran). PENDING, CANCELLED before the start and REVOKED
//     are dropped (nothing ran). RUNNING, SUSPENDED, RESIZING and REQUEUED without an End were
//     still running at the dump time: dropped (running = drop, the default) or cut there
//     (running = cut: End = dump_time, else the latest time stamp of the file);
//   - submit time = Submit (the user's request: what the Parallel Workloads Archive's submit
//     time is); submit = eligible takes Eligible, for sites where holds, --begin times or
//     reservations kept jobs from running (a dependency's Eligible is set by the recorded
//     schedule, which the replay changes: hence not the default);
//   - run time = Elapsed (Slurm's own count, without suspended time), or End - Start without
//     that column; <= 0 is dropped (no_runtime);
//   - estimate = Timelimit; UNLIMITED, Partition_Limit, an empty field, no column or a limit
//     below the run time (a job killed after its grace time) give the run time (estimate_fixed);
//   - size: NNodes (size = nodes), ceil(NCPUS / procs_per_node) (size = cpus) or the node= count
//     of AllocTRES, else ReqTRES (size = tres); 0 or empty is dropped (no_size); jobs wider than
//     the machine are dropped (too_large);
//   - times are local times of the host that ran sacct: utc_offset says which (default UTC;
//     dump with `TZ=UTC sacct ...` to avoid daylight-saving jumps). t = 0 is `start` when given
//     (jobs submitted before it dropped: before_start), else the earliest kept submit time.
// Every dropped or changed record is counted by reason (SacctStats); malformed records (field
// count, a time, duration or number that is not one, End before Start, an unknown State) give
// "file:line: field Name = 'value': what" and are skipped and counted, or thrown with
// bad_lines = fail. A missing required column or no usable job is an InputError.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "faultsweep/workload/job.hpp"
#include "faultsweep/workload/swf.hpp"

namespace faultsweep::workload {

enum class SacctSize { nodes, cpus, tres };
enum class SacctSubmit { submit, eligible };
enum class SacctRunning { drop, cut };

struct SacctOptions {
  SacctSize size = SacctSize::nodes;
  SacctSubmit submit = SacctSubmit::submit;
  SacctRunning running = SacctRunning::drop;
  BadLines bad_lines = BadLines::skip;
  std::int32_t procs_per_node = 1;      // size = cpus: nodes = ceil(NCPUS / procs_per_node)
  std::int32_t machine_nodes = 0;       // jobs wider are dropped; 0: the widest job's size
  std::vector<std::string> partitions;  // keep only these (empty: all)
  double utc_offset_s = 0;              // of the dump's times
  std::optional<double> start_unix_s;   // t = 0 there
  std::optional<double> dump_unix_s;    // running = cut: when the dump was taken

  std::string key() const;  // stable text, for cache keys
};

// The end states the reader knows, in the summary's order.
inline constexpr std::array<std::string_view, 10> kSacctKeptStates = {
    "COMPLETED", "FAILED",    "TIMEOUT",  "NODE_FAIL", "OUT_OF_MEMORY",
    "PREEMPTED", "BOOT_FAIL", "DEADLINE", "CANCELLED", "REQUEUED"};

struct SacctStats {
  std::int64_t lines = 0, jobs = 0, steps = 0, bad_lines = 0;
  std::int64_t not_started = 0;             // never started (PENDING at the dump, or no Start)
  std::int64_t cancelled_before_start = 0;  // CANCELLED without a Start
  std::int64_t revoked = 0;                 // REVOKED (a federation sibling ran it)
  std::int64_t running = 0;                 // running at the dump, dropped (running = drop)
  std::int64_t running_cut = 0;             // running at the dump, cut there (running = cut)
  std::int64_t other_partition = 0, before_start = 0, unknown_submit = 0;
  std::int64_t no_runtime = 0, no_size = 0, too_large = 0, estimate_fixed = 0;
  std::array<std::int64_t, kSacctKeptStates.size()> kept_by_state{};  // jobs kept per state
  std::vector<std::string> first_errors;                              // up to 10 "file:line: what"

  std::vector<std::pair<std::string, std::int64_t>> counts() const;
  // "40 lines, 31 jobs kept (25 COMPLETED, 2 TIMEOUT, ...); dropped: 6 job steps, ...;
  // changed: ..." (only the non-zero counts).
  std::string summary() const;
};

struct SacctWorkload {
  Workload workload;  // jobs sorted by submit time, then id; t = 0 as above
  SacctStats stats;
  double origin_unix_s = 0;  // the time that became t = 0
};

SacctWorkload parse_sacct(std::string_view bytes, const std::string& file,
                          const SacctOptions& options = {});
// Reads a file (plain, gzip or xz) and parses it.
SacctWorkload read_sacct(const std::filesystem::path& path, const SacctOptions& options = {});

}  // namespace faultsweep::workload
