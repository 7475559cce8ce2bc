#pragma once
// Reader of the Standard Workload Format (Parallel Workloads Archive, SWF version 2): header
// lines start with ';' ("; MaxNodes: 128", text after the number is allowed), then one job per
// line, 18 whitespace-separated numeric fields, -1 meaning unknown:
//   1 job number, 2 submit time, 3 wait, 4 run time, 5 allocated processors, 6 average CPU time,
//   7 used memory, 8 requested processors, 9 requested time, 10 requested memory, 11 status,
//   12 user, 13 group, 14 executable, 15 queue, 16 partition, 17 preceding job, 18 think time.
// Plain, gzip- and xz-compressed files are accepted (detected by their magic bytes).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

enum class SwfSize { requested, allocated };    // field 8 or field 5 (other one if -1)
enum class SwfEstimate { requested, runtime };  // field 9 (repaired, see below) or field 4
enum class BadLines { skip, fail };

struct SwfOptions {
  SwfSize size = SwfSize::requested;
  // requested: the user's requested time; where it is -1 or below the run time, the run time is
  // used instead and counted in ReadStats::estimate_fixed. runtime: estimate = run time exactly.
  SwfEstimate estimate = SwfEstimate::requested;
  BadLines bad_lines = BadLines::skip;  // skip: count, keep the first 10 messages; fail: throw
  std::int32_t procs_per_node = 1;      // job nodes = ceil(processors / procs_per_node)
  // The machine's size in nodes; 0 = from the header: with procs_per_node = 1, MaxProcs (else
  // MaxNodes); with procs_per_node > 1, MaxNodes (else MaxProcs / procs_per_node). If neither is
  // in the header, the widest job's size. Jobs wider than the machine are dropped (too_large).
  std::int32_t machine_nodes = 0;

  // Stable text of the options, for cache keys.
  std::string key() const;
};

// Reads the whole trace. -1 means "unknown" in every field (the archive's SWF definition) and
// is treated the same way everywhere: a job whose submit time is -1 is dropped
// (unknown_submit), whose run time is <= 0 or -1 is dropped (no_runtime), whose size is -1 in
// both size fields is dropped (no_size); an estimate of -1 is replaced by the run time
// (estimate_fixed); a user of -1 stays unknown. Jobs wider than the machine are dropped
// (too_large); user ids above 2^31 - 1 become unknown (user_unknown). None of these is an
// error, even with BadLines::fail; every one is counted in Workload::stats (ReadStats::counts,
// ReadStats::summary). Submit times are made relative to the earliest kept job; jobs are sorted
// by submit time, then job number. Malformed lines (field count, non-numbers, infinities, a
// negative submit time other than -1, a job number outside int64) give "file:line: what"
// messages. Throws InputError if the file cannot be opened, is not a regular file, its gzip
// or xz data is truncated, corrupt or followed by trailing bytes, no job is usable (empty, header
// only, junk: the message names the file and gives the summary), or on the first malformed
// line with BadLines::fail.
Workload read_swf(const std::filesystem::path& path, const SwfOptions& options = {});

// The same from the file's bytes in memory (plain, gzip or xz, detected by the magic bytes);
// `file` names the source in messages. read_swf reads the file and calls this.
Workload parse_swf(std::string_view bytes, const std::string& file, const SwfOptions& options = {});

// The header values the reader understood (-1 when absent), without reading the jobs.
struct SwfHeader {
  std::int64_t max_nodes = -1;
  std::int64_t max_procs = -1;
  std::int64_t max_jobs = -1;
  std::int64_t max_records = -1;
};
SwfHeader read_swf_header(const std::filesystem::path& path);

}  // namespace faultsweep::workload
