#include "faultsweep/core/stop.hpp"
#include "faultsweep/core/task_progress.hpp"

namespace faultsweep {

std::atomic<bool>& stop_flag() {
  static constinit std::atomic<bool> flag{false};  // no guard: safe in a signal handler
  return flag;
}

TaskProgress& task_progress() {
  static TaskProgress p;
  return p;
}

}  // namespace faultsweep
