#pragma once
// The cluster model's `slowdown_floor` parameter (private to src/models): the run-time floor of
// the metric mean_slowdown_above_floor. Optional with no stored default, so that job files and
// results written before it existed keep their parameter lists and hashes.
#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::models {

// Used when the job file does not set slowdown_floor: 1 h (seconds).
inline constexpr double kDefaultSlowdownFloor_s = 3600.0;

ParamSpec slowdown_floor_spec();
// The floor in seconds (the default if absent). Throws InputError naming `slowdown_floor` if
// it is negative or not finite.
double slowdown_floor_s(const Params& p);

}  // namespace faultsweep::models
