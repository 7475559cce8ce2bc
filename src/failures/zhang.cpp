#include "faultsweep/failures/zhang.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "faultsweep/core/error.hpp"

namespace faultsweep::failures {

ZhangSource::ZhangSource(std::int32_t nodes, const ZhangConfig& config, Engine failures,
                         Engine locations, Engine downtimes, double horizon_s)
    : weibull_(dist::Dist::weibull(config.shape, config.scale_s)),
      zipf_(config.alpha, nodes),
      downtime_(config.downtime),
      failures_(failures),
      locations_(locations),
      downtimes_(downtimes),
      horizon_s_(horizon_s) {
  FS_CHECK(config.window >= 1, fmt::format("zhang W = {}", config.window));
  segment_.resize(static_cast<std::size_t>(config.window));
  pos_ = segment_.size();  // empty: the first next() draws a segment
  run_.reserve(std::max<std::size_t>(64, segment_.size()));
}

// Zhang §3.2: "We break this sequence into segments, each of which contains W elements. Within
// each segment, we order the first W/2 elements in a descending manner, and order the remaining
// W/2 elements in an ascending manner."
//
// Our reading of "W = 2 corresponds to the original time series": the two halves are sorted
// separately, so with W = 2 each half is a single element and nothing moves: the i.i.d. series
// is kept, as the paper says. (Ordering a 2-element segment as a whole, e.g. larger first, would
// already correlate neighbours and would not be "the original series".) For odd W the first
// floor(W/2) are sorted descending and the remaining ceil(W/2) ascending; W = 1 is also i.i.d.
// The multiset of values in a segment is unchanged, so the marginal stays Weibull; what changes
// is the order: long gaps at the segment's edges, a burst of short gaps in its middle.
void ZhangSource::order_segment(std::vector<double>& segment) {
  const auto half = static_cast<std::ptrdiff_t>(segment.size() / 2);
  std::sort(segment.begin(), segment.begin() + half, std::greater<double>());
  std::sort(segment.begin() + half, segment.end());
}

void ZhangSource::refill() {
  for (double& x : segment_) x = weibull_.sample(failures_);
  order_segment(segment_);
  pos_ = 0;
}

FailureEvent ZhangSource::raw_next() {
  if (!(now_s_ < horizon_s_)) return FailureEvent{};
  if (pos_ == segment_.size()) refill();
  now_s_ += segment_[pos_++];
  if (!(now_s_ < horizon_s_)) return FailureEvent{};
  // Zhang §3.2 "Location of failures": Zipf over ranks; rank 1 is node 0 (§4.1).
  const auto node = static_cast<std::int32_t>(zipf_.sample(locations_) - 1);
  return FailureEvent{now_s_, node, downtime_.sample(downtimes_)};
}

FailureEvent ZhangSource::next() {
  if (run_pos_ < run_.size()) return run_[run_pos_++];
  // Collect the run of events with equal time (an inter-failure time below the spacing of
  // doubles at now_s_: common for shape 0.2 late in a long horizon) and emit it in node order.
  run_.clear();
  run_pos_ = 0;
  FailureEvent first = have_lookahead_ ? lookahead_ : raw_next();
  have_lookahead_ = false;
  if (first.time_s == std::numeric_limits<double>::infinity()) return first;
  run_.push_back(first);
  for (;;) {
    const FailureEvent ev = raw_next();
    if (ev.time_s != first.time_s) {
      lookahead_ = ev;
      have_lookahead_ = true;
      break;
    }
    run_.push_back(ev);  // may allocate only if a run outgrows the reserve: practically never
  }
  // Insertion sort by node: stable (equal nodes keep generation order) and allocation-free.
  for (std::size_t i = 1; i < run_.size(); ++i)
    for (std::size_t j = i; j > 0 && run_[j].node < run_[j - 1].node; --j)
      std::swap(run_[j], run_[j - 1]);
  return run_[run_pos_++];
}

}  // namespace faultsweep::failures
