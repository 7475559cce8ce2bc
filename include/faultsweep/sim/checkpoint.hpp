#pragma once
// Periodic checkpointing of one job (Zhang et al. §5.1): after every `interval_s` of work the
// job spends `cost_s` writing a checkpoint, so its progress advances by I of work per I + C of
// wall time; a failure rolls it back to the last completed checkpoint. No checkpoint is taken
// at the end of the job. interval_s = +inf means no checkpointing (a failure restarts the job
// from the beginning).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "faultsweep/policy/checkpoint_policy.hpp"

namespace faultsweep::sim {

// The policies (how often) live in policy/checkpoint_policy.hpp; these names stay for callers.
using policy::checkpoint_mode_from;
using policy::CheckpointMode;
using policy::daly_interval_s;
using policy::young_interval_s;

struct CheckpointPlan {
  double interval_s = std::numeric_limits<double>::infinity();  // work between checkpoints
  double cost_s = 0;                                            // wall time of one checkpoint

  // Checkpoints taken while doing `work_s` of work from a checkpoint (or the start).
  double checkpoints_for(double work_s) const {
    if (!std::isfinite(interval_s) || work_s <= 0) return 0;
    // The tolerance keeps an exact multiple of I (up to rounding) from costing one more.
    return std::max(0.0, std::ceil(work_s / interval_s - 1e-9) - 1.0);
  }
  // Wall time to do `work_s` of work from a checkpoint.
  double wall_for_work(double work_s) const {
    return work_s <= 0 ? 0.0 : work_s + checkpoints_for(work_s) * cost_s;
  }
  // Work done (committed or not) after `elapsed_s` of wall time of an execution that had
  // `work_s` left: whole (I + C) segments, plus the work of the segment in progress (none
  // while its checkpoint is being written).
  double work_done_after(double elapsed_s, double work_s) const {
    if (!std::isfinite(interval_s)) return std::clamp(elapsed_s, 0.0, std::max(0.0, work_s));
    const double k = std::max(
        0.0, std::min(std::floor(elapsed_s / (interval_s + cost_s)), checkpoints_for(work_s)));
    const double rest_s = std::max(0.0, elapsed_s - k * (interval_s + cost_s));
    return std::min(k * interval_s + std::min(rest_s, interval_s), std::max(0.0, work_s));
  }
  // Work committed by checkpoints after `elapsed_s` of wall time of an execution that had
  // `work_s` left: whole (I + C) segments completed, at most checkpoints_for(work_s) of them.
  double committed_after(double elapsed_s, double work_s) const {
    if (!std::isfinite(interval_s)) return 0;
    const double k =
        std::min(std::floor(elapsed_s / (interval_s + cost_s)), checkpoints_for(work_s));
    return std::max(0.0, k) * interval_s;
  }
};

}  // namespace faultsweep::sim
