#include "faultsweep/core/stop.hpp"

namespace faultsweep {

std::atomic<bool>& stop_flag() {
  static constinit std::atomic<bool> flag{false};  // no guard: safe in a signal handler
  return flag;
}

}  // namespace faultsweep
