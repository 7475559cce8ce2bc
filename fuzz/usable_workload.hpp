// What the simulator relies on in a workload a reader accepted (workload/job.hpp): a fuzz target
// traps (a crash libFuzzer reports) when a reader lets through anything else.
#pragma once

#include "faultsweep/workload/job.hpp"

namespace faultsweep::fuzz {

// Positive run times, estimates at least the run time, sizes within the machine, submits in
// order.
inline void require_usable(const workload::Workload& w) {
  double last = 0;
  for (const workload::Job& j : w.jobs) {
    if (!(j.runtime_s > 0) || !(j.estimate_s >= j.runtime_s) || j.size < 1 ||
        j.size > w.machine_nodes || !(j.submit_s >= last))
      __builtin_trap();
    last = j.submit_s;
  }
}

}  // namespace faultsweep::fuzz
