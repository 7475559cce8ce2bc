#pragma once
// Reader of Batsim JSON workloads (source = "batsim"): an object with `nb_res` (an integer
// from 1 to 2^31 - 1), `jobs` (an array of objects with `id` (a string or an integer, unique),
// `subtime` (s, >= 0), `res` (an integer >= 1: nodes), `walltime` (s > 0, -1 or absent: none)
// and `profile` (a name)) and `profiles` (an object of named profiles).
// Rules:
//   - only delay profiles ("delay" up to Batsim 4, "DelayProfile" from Batsim 5: the job holds
//     its resources for `delay` seconds) can be replayed; any other type is refused by name,
//     since its run time depends on Batsim's platform model;
//   - run time = delay (<= 0: dropped, no_runtime); estimate = walltime, or the delay without
//     one (estimate_fixed); a walltime below the delay cuts the run there, as Batsim does
//     (walltime_cut);
//   - nodes > 0 replaces nb_res (the simulated machine); wider jobs are dropped (too_large);
//   - times are Batsim's (subtime is absolute), so a replayed schedule lines up with Batsim's;
//     jobs sorted by submit time, then id;
//   - numeric ids are kept (Batsim's output names jobs by them); any other string id numbers
//     every job by its place in the file (renumbered).
// A field of the wrong type or range is an InputError naming the file, the job (its id and
// place in `jobs`) and the field; so is a file with no usable job.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "faultsweep/workload/job.hpp"

namespace faultsweep::workload {

struct BatsimWorkload {
  Workload workload;
  std::int64_t walltime_cut = 0;  // jobs whose walltime is below their delay
  bool renumbered = false;        // string ids that are not numbers: jobs numbered 1..
};

// `text` is the file's JSON, `file` its name in messages; nodes > 0 replaces nb_res.
BatsimWorkload parse_batsim(std::string_view text, const std::string& file, int nodes);
BatsimWorkload read_batsim(const std::filesystem::path& path, int nodes);

}  // namespace faultsweep::workload
