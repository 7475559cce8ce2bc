#pragma once
#include <cstdint>

namespace faultsweep::sweep {

// The version of the numbers themselves. Bumped by a change that moves results in their last bits
// (a summation order, a compensated sum) or changes which random draws a run makes; the layout of
// the file (kSchemaVersion) is another matter. `--resume` and `merge` refuse to mix versions, so a
// results file never holds values of two versions. Files written before the attribute existed
// hold version 1.
inline constexpr std::int64_t kResultsVersion = 1;

}  // namespace faultsweep::sweep
