#pragma once
#include <cstdint>

namespace faultsweep::sweep {

// The version of the numbers themselves. Bumped by a change that moves results in their last bits
// (a summation order, a compensated sum) or changes which random draws a run makes; the layout of
// the file (kSchemaVersion) is another matter. `--resume` and `merge` refuse to mix versions, so a
// results file never holds values of two versions. Files written before the attribute existed
// hold version 1. The versions (docs/results-schema.md):
//   1  node-seconds per state summed node by node
//   2  node-seconds per state summed over the machine, state count x time between changes
//      (`spare_node_hours` may differ from version 1 in its last bits; nothing else moved)
//   3  checkpoint_sim draws exponential processor events by superposition (sampler = "auto"):
//      other draws, the same law; cluster results identical to version 2
//   4  checkpoint_sim's superposition draws the times between events by the ziggurat and picks
//      an event with integer thresholds (exp_draws = "auto"): other draws, the same law; cluster
//      results identical to version 3
//   5  RA-Opt keeps the system's survival at each quadrature point as a product over its nodes
//      and keeps every point whose survival still counts (version 4 cut a doubling interval short
//      at its first point past H = 745, dropping points of that interval with survival near 1
//      under steep Weibull fits): E[T_c(k)] moves, and with it, rarely, the size chosen
inline constexpr std::int64_t kResultsVersion = 5;

}  // namespace faultsweep::sweep
