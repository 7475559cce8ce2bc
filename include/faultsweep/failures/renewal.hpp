#pragma once
// Independent per-node renewal processes: each node fails after a time-to-failure draw, stays
// down for a downtime draw, and its next time to failure starts at the end of the repair
// (an alternating renewal process per node; FARS §5.2.1 uses it with exponential or bathtub
// lifetimes and exponential repairs). Events of all nodes are merged through a binary heap over
// nodes keyed by (time, node), so ties go to the lower node.
#include <cstdint>
#include <limits>
#include <variant>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/composite_weibull.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

using Lifetime = std::variant<dist::Dist, dist::CompositeWeibull>;

class RenewalSource final : public FailureSource {
 public:
  // nodes >= 1; `ttf` must have a positive mean (a constant 0 would never advance time).
  // Events at or after horizon_s are not emitted (next() returns time_s = +inf from then on).
  RenewalSource(std::int32_t nodes, Lifetime ttf, dist::Dist downtime, Engine failures,
                Engine downtimes, double horizon_s = std::numeric_limits<double>::infinity());
  FailureEvent next() override;

 private:
  double draw_ttf();
  bool before(std::size_t a, std::size_t b) const;  // heap order: (time, node)
  void sift_down(std::size_t i);

  Lifetime ttf_;
  dist::Dist downtime_;
  Engine failures_, downtimes_;
  double horizon_s_;
  std::vector<double> next_s_;      // next failure time of each node
  std::vector<std::int32_t> heap_;  // nodes, min-heap on (next_s_, node)
};

}  // namespace faultsweep::failures
