#pragma once
// The engine's event queue (DESIGN §5), ordered by (time, event class, insertion sequence), so
// that simultaneous events never depend on addresses or unstable sorts. Cancelled events stay
// in the queue and are recognised when they pop (a per-job or per-node generation counter),
// never searched for.
//
// Failures, repairs and arrivals mostly come in time order (a failure trace and a workload are
// sorted; a repair comes a fixed downtime after its failure), and in a run with many failures
// they are most of the events. Each of these classes has a lane: a queue in push order that an
// event joins when it comes no earlier than the lane's last event, so the lane stays sorted;
// any other event, and one of those that comes earlier, goes to a binary heap. The next event is
// the earliest of the heap's top and the lanes' fronts, so the order is exactly that of one heap
// over all events, and an event in order costs O(1) instead of two walks of the heap.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::sim {

// Event classes; the numeric value is the priority among events at the same instant: repairs
// first (capacity comes back), then completions (a job that ends exactly when one of its nodes
// fails has finished), then failures, then arrivals, and the horizon last. Types added later
// are appended after these, so ties between the old types keep their order (existing results
// stay bit-identical): a runtime strategy's tick, a warning ahead of a failure, and a call a
// strategy asked for (Decisions::call_at_s).
enum class EventType : std::uint8_t {
  node_repair = 0,
  job_complete = 1,
  node_failure = 2,
  job_submit = 3,
  horizon = 4,
  strategy_tick = 5,
  failure_warning = 6,
  strategy_call = 7,
};

struct Event {
  double time_s = 0;
  std::uint64_t seq = 0;         // insertion order, the last tie-break
  std::int32_t subject = -1;     // job or node index
  std::uint32_t generation = 0;  // of the subject when pushed: stale if it changed since
  EventType type = EventType::horizon;
};

class EventQueue {
 public:
  // Room for `heap` events out of order and `repairs` repairs in order (one per node: a node
  // has one live repair at a time); a failure or an arrival in order is one at a time.
  void reserve(std::size_t heap, std::size_t repairs) {
    heap_.reserve(heap);
    lanes_[0].reserve(repairs);
    for (std::size_t l = 1; l < lanes_.size(); ++l) lanes_[l].reserve(16);
  }
  bool empty() const { return heap_.empty() && lanes_empty(); }
  std::size_t size() const {
    std::size_t n = heap_.size();
    for (const Lane& l : lanes_) n += l.size();
    return n;
  }
  // The next event to pop, or null when the queue is empty.
  const Event* peek() const { return next().event; }

  void push(double time_s, EventType type, std::int32_t subject, std::uint32_t generation) {
    const Event e{time_s, next_seq_++, subject, generation, type};
    const int l = lane_of(type);
    if (l >= 0 && lanes_[static_cast<std::size_t>(l)].accepts(e)) {
      lanes_[static_cast<std::size_t>(l)].push(e);
      return;
    }
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  Event pop() {
    const Next n = next();
    FS_CHECK(n.event != nullptr, "pop from an empty event queue");
    const Event e = *n.event;
    if (n.lane >= 0) {
      lanes_[static_cast<std::size_t>(n.lane)].pop();
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    return e;
  }

  // a comes after b: the queue gives the earliest (time, class, seq) first.
  static bool later(const Event& a, const Event& b) {
    if (a.time_s != b.time_s) return a.time_s > b.time_s;
    if (a.type != b.type) return a.type > b.type;
    return a.seq > b.seq;
  }

 private:
  // Events of one class in push order, kept only while sorted: a vector read from `head_`,
  // compacted when the read part is over half of it (amortised O(1) per event).
  class Lane {
   public:
    void reserve(std::size_t n) { buf_.reserve(n); }
    bool empty() const { return head_ == buf_.size(); }
    std::size_t size() const { return buf_.size() - head_; }
    const Event& front() const { return buf_[head_]; }
    bool accepts(const Event& e) const { return empty() || !later(buf_.back(), e); }
    void push(const Event& e) { buf_.push_back(e); }
    void pop() {
      if (++head_ == buf_.size()) {
        buf_.clear();
        head_ = 0;
      } else if (head_ >= 1024 && 2 * head_ >= buf_.size()) {
        buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }

   private:
    std::vector<Event> buf_;
    std::size_t head_ = 0;
  };
  static constexpr int kLanes = 3;
  // The lane of an event class (-1: the heap only).
  static int lane_of(EventType t) {
    switch (t) {
      case EventType::node_repair:
        return 0;
      case EventType::node_failure:
        return 1;
      case EventType::job_submit:
        return 2;
      default:
        return -1;
    }
  }
  bool lanes_empty() const {
    return std::all_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.empty(); });
  }
  struct Next {
    const Event* event;
    int lane;  // -1: the heap's top
  };
  // The earliest event (null if none).
  Next next() const {
    Next n{heap_.empty() ? nullptr : &heap_.front(), -1};
    for (int l = 0; l < kLanes; ++l) {
      const Lane& lane = lanes_[static_cast<std::size_t>(l)];
      if (!lane.empty() && (n.event == nullptr || later(*n.event, lane.front())))
        n = Next{&lane.front(), l};
    }
    return n;
  }

  std::vector<Event> heap_;
  std::array<Lane, kLanes> lanes_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace faultsweep::sim
