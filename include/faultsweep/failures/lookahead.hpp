#pragma once
// A window onto the failures still to come (DESIGN §5a), wrapped around any FailureSource.
// The engine takes its failures from here (front, then pop); a predictor reads the window of
// upcoming failures without changing the stream: the source is asked for its events in the
// same order whether or not anybody looks ahead, so runs with and without a predictor see
// identical failures (common random numbers). Failures after `stop_s` are never returned:
// the window holds exactly the failures the engine will inject.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "faultsweep/failures/failure_source.hpp"

namespace faultsweep::failures {

class Lookahead {
 public:
  Lookahead(FailureSource& source, double stop_s) : source_(source), stop_s_(stop_s) {
    buf_.reserve(256);
  }

  // The next failure to inject (time_s = +inf when there is none); does not consume it.
  const FailureEvent& front() {
    if (head_ == buf_.size()) pull();
    return buf_[head_];
  }
  // Consumes the front (after front()).
  void pop() { ++head_; }

  // The upcoming failures with time_s < until_s, in injection order, front first. Valid until
  // the next call of any member.
  std::span<const FailureEvent> window(double until_s) {
    if (head_ == buf_.size()) pull();
    while (buf_.back().time_s < until_s) pull();
    std::size_t end = head_;
    while (end < buf_.size() && buf_[end].time_s < until_s) ++end;
    return {buf_.data() + head_, end - head_};
  }
  // The k-th upcoming failure (k = 0 is the front), pulling as far as needed.
  const FailureEvent& at(std::size_t k) {
    while (buf_.size() - head_ <= k) pull();
    return buf_[head_ + k];
  }

 private:
  void pull() {
    const bool ended = !buf_.empty() && !(buf_.back().time_s < kInf);
    if (head_ == buf_.size()) {  // empty: reuse the storage from its start
      buf_.clear();
      head_ = 0;
    } else if (!ended && buf_.size() == buf_.capacity() && head_ > 0) {
      buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    if (ended) {  // the source is done: only end markers from here on
      buf_.push_back(FailureEvent{});
      return;
    }
    FailureEvent ev = source_.next();
    if (!(ev.time_s <= stop_s_)) ev = FailureEvent{};  // none after the stop
    buf_.push_back(ev);
  }

  static constexpr double kInf = std::numeric_limits<double>::infinity();
  FailureSource& source_;
  double stop_s_;
  std::vector<FailureEvent> buf_;
  std::size_t head_ = 0;
};

}  // namespace faultsweep::failures
