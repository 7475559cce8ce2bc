#pragma once
// The system-level failure process of Zhang et al. §3.2 ("Failure Injection"):
//   time:     inter-failure times of the whole system are Weibull(shape, scale), cut into
//             segments of W draws; within a segment the first W/2 are sorted descending and the
//             remaining W/2 ascending (temporal correlation with the marginal kept exactly);
//   location: the node of each failure is Zipf(alpha) over a node ranking in which node 0 has
//             rank 1 (so node 0 fails most: the artefact the paper notes in §4.1);
//   downtime: a constant in the paper (2 min, 1 h, 4 h); here any Dist (constant, exponential,
//             lognormal).
// Generated lazily one segment at a time: memory is O(W), fixed at construction.
#include <cstdint>
#include <limits>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/dist/zipf.hpp"
#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

struct ZhangConfig {
  double shape = 0.85;
  double scale_s = 18000.0;
  std::int32_t window = 2;  // W >= 1
  double alpha = 0.01;      // Zipf skew >= 0
  dist::Dist downtime = dist::Dist::constant(120.0);
};

class ZhangSource final : public FailureSource {
 public:
  // Three independent streams: inter-failure times, locations and downtimes, so changing the
  // downtime model leaves the failure times and nodes unchanged.
  ZhangSource(std::int32_t nodes, const ZhangConfig& config, Engine failures, Engine locations,
              Engine downtimes, double horizon_s = std::numeric_limits<double>::infinity());
  FailureEvent next() override;

  // Draws one segment of W inter-failure times into `segment` and applies the W-ordering.
  // Exposed for tests (the reordered series must keep the Weibull marginal).
  static void order_segment(std::vector<double>& segment);

 private:
  FailureEvent raw_next();  // the next event in generation order (times non-decreasing)
  void refill();

  dist::Dist weibull_;
  dist::Zipf zipf_;
  dist::Dist downtime_;
  Engine failures_, locations_, downtimes_;
  double horizon_s_;
  double now_s_ = 0.0;
  std::vector<double> segment_;  // the current segment of W inter-failure times
  std::size_t pos_;              // next unused entry of segment_
  // Events of equal time are re-emitted in node order: a run of equal times is collected here
  // (far shorter than W in practice; reserved at construction).
  std::vector<FailureEvent> run_;
  std::size_t run_pos_ = 0;
  FailureEvent lookahead_;
  bool have_lookahead_ = false;
};

}  // namespace faultsweep::failures
