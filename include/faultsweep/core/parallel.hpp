#pragma once
// Independent work items on a few threads, for commands that are not MPI runs (`fit`). Each item
// writes only its own slot, so the result does not depend on the number of threads.
#include <cstddef>
#include <functional>

namespace faultsweep {

// The threads to use for `requested` (0: one per hardware thread), at least 1.
unsigned thread_count(unsigned requested);

// Calls body(i) for i in [0, n) on `threads` threads, each taking the next item from a shared
// counter. The first exception thrown by any call is rethrown here after all threads ended.
void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace faultsweep
