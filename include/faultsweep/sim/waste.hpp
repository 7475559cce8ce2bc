#pragma once
// Waste and completion time by job category (Gottumukkala §5.2.3, Figs. 5.2, 5.3, 5.6; §6.4.5,
// Figs. 6.8, 6.9), over the completed jobs of a run.
//   waste of a job      = wall time of its executions rolled back by failures + time suspended
//                         waiting for a repair (the existing `mwt` numerator)
//   completion time     = completion - first start (the existing `mct` numerator)
//   run length          = its failure-free run time at the size it REQUESTED (the workload's
//                         value, the same for every allocator even when RA-Opt / ALL resize it)
//   run-length category = A < 1 min <= B < 1 h <= C < 6 h <= D < 12 h <= E < 24 h <= F
//   size bin            = requested size <= 32, <= 64, <= 128, <= 256, <= 512, > 512
//   %MWT (§5.2.3: "ratio of waste time to the actual run length") = 100 x total waste / total
//                         run length of the category (a ratio of totals)
//   ACT, AWT (§6.4.5)   = total completion / waste time / jobs (per category and overall)
//   MCT, MWT (§6.4.5)   = total completion / waste time / total unit run length, unit run
//                         length = run length / requested size ("ratio of the total completion
//                         time to the unit job run-length", read as a ratio of totals)
// A category without completed jobs reports 0 (its jobs_X count is 0); the overall ACT, AWT,
// MCT, MWT are NaN when no job completed (like `mct`).
#include <array>
#include <limits>
#include <span>

#include "faultsweep/workload/job.hpp"

namespace faultsweep::sim {

struct JobRecord;

inline constexpr int kWasteBins = 6;

struct WasteBreakdown {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double total_h = 0;
  std::array<double, kWasteBins> length_waste_h{}, length_pmwt{}, length_jobs{};
  std::array<double, kWasteBins> length_act_s{}, length_awt_s{};
  std::array<double, kWasteBins> size_waste_h{}, size_pmwt{}, size_jobs{};
  double act_s = kNaN, awt_s = kNaN, mct_norm = kNaN, mwt_norm = kNaN;
  double mean_size = kNaN;  // size the completed jobs ran with
};

int length_category(double run_length_s);  // 0 = A .. 5 = F
int size_bin(int requested_size);          // 0 = <= 32 .. 5 = > 512

WasteBreakdown waste_breakdown(std::span<const JobRecord> jobs, const workload::Speedup& speedup);

}  // namespace faultsweep::sim
