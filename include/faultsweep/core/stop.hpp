#pragma once
// A process-wide stop request: set by `faultsweep run`'s signal handlers (sweep/signals.hpp),
// read by every loop that can run long (the engine's event loop, refits, window searches,
// migrations). A model run that sees it throws Interrupted; its task stays undone and runs
// again on resume, so a stop never changes a result. Static storage: a signal handler can reach
// nothing else.
#include <atomic>

#include "faultsweep/core/error.hpp"

namespace faultsweep {

std::atomic<bool>& stop_flag();

inline bool stop_pending() {
  return stop_flag().load(std::memory_order_relaxed);
}

// Throws Interrupted if a stop was requested; cheap (one relaxed load), so a loop may call it
// every iteration that costs more than a few hundred nanoseconds.
inline void stop_point() {
  if (stop_pending()) [[unlikely]]
    throw Interrupted("stopped by a signal");
}

}  // namespace faultsweep
