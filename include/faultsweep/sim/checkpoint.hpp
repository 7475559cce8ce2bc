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

namespace faultsweep::sim {

enum class CheckpointMode { none, periodic, young, daly };

// "none" | "periodic" | "young" | "daly"; throws InputError("checkpoint", ...) otherwise.
CheckpointMode checkpoint_mode_from(std::string_view name);

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
  // Work committed by checkpoints after `elapsed_s` of wall time of an execution that had
  // `work_s` left: whole (I + C) segments completed, at most checkpoints_for(work_s) of them.
  double committed_after(double elapsed_s, double work_s) const {
    if (!std::isfinite(interval_s)) return 0;
    const double k =
        std::min(std::floor(elapsed_s / (interval_s + cost_s)), checkpoints_for(work_s));
    return std::max(0.0, k) * interval_s;
  }
};

// Young (1974) first-order optimum: I = sqrt(2 C M), M the job's mean time between failures.
inline double young_interval_s(double cost_s, double mtbf_s) {
  return std::sqrt(2.0 * cost_s * mtbf_s);
}

// Daly (2006, FGCS 22, Eq. 37) higher-order optimum of the compute time between checkpoints:
// sqrt(2CM)[1 + (1/3)sqrt(C/(2M)) + (1/9)(C/(2M))] - C for C < 2M, else M.
inline double daly_interval_s(double cost_s, double mtbf_s) {
  if (!(cost_s < 2.0 * mtbf_s)) return mtbf_s;
  const double x = cost_s / (2.0 * mtbf_s);
  return std::sqrt(2.0 * cost_s * mtbf_s) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - cost_s;
}

}  // namespace faultsweep::sim
