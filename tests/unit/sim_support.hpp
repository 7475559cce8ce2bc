#pragma once
// Small builders shared by the cluster-simulator tests.
#include <cstdint>
#include <utility>
#include <vector>

#include "faultsweep/failures/trace.hpp"
#include "faultsweep/workload/job.hpp"

namespace faultsweep::testing {

// A rigid job; the estimate defaults to the exact runtime.
inline workload::Job job(std::int64_t id, double submit_s, double runtime_s, int size,
                         double estimate_s = -1) {
  workload::Job j;
  j.id = id;
  j.submit_s = submit_s;
  j.runtime_s = runtime_s;
  j.estimate_s = estimate_s < 0 ? runtime_s : estimate_s;
  j.size = size;
  return j;
}

// Replays a fixed list of failures: the library's trace source.
using ListFailures = failures::TraceSource;

}  // namespace faultsweep::testing
