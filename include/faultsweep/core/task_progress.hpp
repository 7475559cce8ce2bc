#pragma once
// How far the model run under way in this process has got, for the progress line: the engine
// writes it every few thousand events (relaxed atomics: a few nanoseconds), the coordinator
// reads it. One per process: a rank runs one task at a time.
#include <atomic>
#include <cstdint>

namespace faultsweep {

struct TaskProgress {
  std::atomic<std::int64_t> jobs_done{0}, jobs_total{0};  // total 0: nothing to say
  std::atomic<double> simulated_s{0};

  void set(std::int64_t done, std::int64_t total, double simulated) {
    jobs_done.store(done, std::memory_order_relaxed);
    jobs_total.store(total, std::memory_order_relaxed);
    simulated_s.store(simulated, std::memory_order_relaxed);
  }
  void clear() { jobs_total.store(0, std::memory_order_relaxed); }
};

TaskProgress& task_progress();

}  // namespace faultsweep
