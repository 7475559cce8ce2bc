#pragma once
// A parallel job as the cluster simulator sees it (Zhang §3.1; FARS §5.2.1; SWF fields 2-9).
// All times in seconds from the start of the workload.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultsweep::workload {

// The latest submit time and the longest run time or estimate a job may have: 2^32 s (~136
// years), beyond any log (Unix times up to 2106 included). Readers refuse larger times as bad
// records (sacct reads such a time limit as none), and the simulator refuses them as input
// errors. With them the simulated clock stays below kMaxClockS unless failures or queueing
// carry it further, which the simulator refuses too: below 2^33 s a double's spacing is 2^-19
// s, so a job's end, computed as its start plus its run time, is within 2^-20 s (< 1 us, the
// simulator's accounting tolerance) of the exact one. (At ~1e11 s a run of 5.7 s already ends
// more than a microsecond early.)
inline constexpr double kMaxJobTimeS = 0x1p32;
inline constexpr double kMaxClockS = 0x1p33;
inline constexpr std::string_view kMaxJobTimeText = "2^32 s (~136 years)";
inline constexpr std::string_view kMaxClockText = "2^33 s (~272 years)";

struct Job {
  std::int64_t id = 0;     // SWF job number, or the index of a generated job
  double submit_s = 0;     // arrival time
  double runtime_s = 0;    // failure-free execution time on `size` nodes (> 0)
  double estimate_s = 0;   // user's estimate (requested time) >= 0; backfilling uses it
  std::int32_t size = 1;   // nodes (rigid jobs); for moldable jobs the allocator may change it
  std::int32_t user = -1;  // SWF user id, -1 if unknown
  // SWF fields 13-16, -1 if unknown: not used by the simulation, kept so that the records and
  // their SWF export say what the log said.
  std::int32_t group = -1, executable = -1, queue = -1, partition = -1;
  bool moldable = false;  // size may be chosen at start, up to `size` (Gottumukkala Ch. 6);
                          // runtime_s and estimate_s are then the times at `size` nodes
};

// How a moldable job's run time depends on its size k, as T(k) = T(1) t(k), with the serial
// fraction f = 1 - p (p the parallel fraction of Gottumukkala §6.3):
//   Amdahl (§6.3.1, Eq. 6.2: Tc(k) = Tc(1) [p/k + (1 - p)]):   t(k) = f + (1 - f)/k
//   Gustafson (§6.3.2, Eq. 6.3: S(k) = (1 - p) + k p, Tc(k) = Tc(1)/S(k)): t(k) = 1/(f + k(1 - f))
// The thesis applies Gustafson's scaled speedup to a job of fixed work, as here. f = 0 is linear
// speedup under either law.
enum class SpeedupLaw { amdahl, gustafson };

struct Speedup {
  double serial_fraction = 0.05;  // in [0, 1]
  SpeedupLaw law = SpeedupLaw::amdahl;
  // t(k): run time on k nodes / run time on one node.
  double relative_time(std::int32_t k) const {
    const double n = static_cast<double>(k);
    if (law == SpeedupLaw::gustafson) return 1.0 / (serial_fraction + n * (1.0 - serial_fraction));
    return serial_fraction + (1.0 - serial_fraction) / n;
  }
  // Run time on k nodes / run time on `max` nodes: T(k) / T(max).
  double time_factor(std::int32_t k, std::int32_t max) const {
    return k == max ? 1.0 : relative_time(k) / relative_time(max);
  }
};

// What a reader dropped or repaired, so that users can see it (DESIGN §8).
struct ReadStats {
  std::int64_t lines = 0;           // data lines read
  std::int64_t jobs = 0;            // jobs kept
  std::int64_t bad_lines = 0;       // malformed lines skipped (skip mode only)
  std::int64_t too_large = 0;       // jobs wider than the machine, dropped
  std::int64_t no_runtime = 0;      // jobs with run time <= 0 or -1, dropped
  std::int64_t estimate_fixed = 0;  // estimate missing or below runtime, replaced (see reader)
  std::int64_t no_size = 0;         // jobs whose size is unknown (-1) in both size fields, dropped
  std::int64_t unknown_submit = 0;  // jobs with submit time -1 (unknown), dropped
  std::int64_t user_unknown = 0;    // user ids above 2^31 - 1, kept as unknown (-1)
  std::vector<std::string> first_errors;  // up to 10 "file:line: what" messages

  // Every count by name (lines, jobs, bad_lines, unknown_submit, no_runtime, no_size,
  // too_large, estimate_fixed, user_unknown), in that order; defined in swf.cpp.
  std::vector<std::pair<std::string, std::int64_t>> counts() const;
  // One line: "28476 lines, 28468 jobs kept; dropped: 8 with run time <= 0; ..." (only the
  // non-zero counts).
  std::string summary() const;
};

struct Workload {
  std::vector<Job> jobs;           // sorted by submit time, then id
  std::int32_t machine_nodes = 0;  // from the SWF header (MaxNodes/MaxProcs) or the generator
  Speedup speedup;                 // of the moldable jobs
  ReadStats stats;
  std::vector<std::string> notes;  // what workload options changed (transform.hpp), one line each
};

}  // namespace faultsweep::workload
