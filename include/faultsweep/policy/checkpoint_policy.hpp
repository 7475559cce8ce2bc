#pragma once
// Checkpoint policies: how often a job of a given size checkpoints (the mechanics of taking
// checkpoints and rolling back are the engine's: sim/checkpoint.hpp). none; periodic with a
// fixed interval (Zhang et al. §5.1); the Young or Daly optimum for the job's MTBF
// M = node MTBF / size (any of its nodes failing interrupts it; FARS §5.1 uses Young).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

namespace faultsweep::policy {

enum class CheckpointMode { none, periodic, young, daly };

// "none" | "periodic" | "young" | "daly" (policy/registry.hpp); throws
// InputError("checkpoint", ...) otherwise.
CheckpointMode checkpoint_mode_from(std::string_view name);

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

struct CheckpointPolicy {
  CheckpointMode mode = CheckpointMode::none;
  double interval_s = std::numeric_limits<double>::infinity();   // periodic only
  double cost_s = 0;                                             // wall time of one checkpoint
  double node_mtbf_s = std::numeric_limits<double>::infinity();  // young / daly

  // Work between checkpoints for a job of `size` nodes (+inf: no checkpoints).
  double interval_for(std::int32_t size) const;
};

}  // namespace faultsweep::policy
