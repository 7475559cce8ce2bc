#pragma once
// Failure sources for the cluster simulator. A source emits node failures in time order; each
// failure takes its node down for `downtime_s` (the engine also handles a failure of a node that
// is already down: the down period is extended to the later end). A source's events depend only
// on its own configuration and random stream, never on the schedule, so two policies compared in
// one replica see the same failures (common random numbers, DESIGN §4).
#include <cstdint>
#include <limits>

namespace faultsweep::failures {

struct FailureEvent {
  double time_s = std::numeric_limits<double>::infinity();  // when the node fails
  std::int32_t node = 0;                                    // 0 .. nodes - 1
  double downtime_s = 0;                                    // how long it stays down (>= 0)
};

class FailureSource {
 public:
  virtual ~FailureSource() = default;
  // The next failure in time order (ties: lower node first); time_s = +inf when there are no
  // more. Must not allocate after construction (it runs in the simulator's hot loop).
  virtual FailureEvent next() = 0;
};

}  // namespace faultsweep::failures
