#pragma once
// The engine's event queue (DESIGN §5): a binary heap over a preallocated vector, ordered by
// (time, event class, insertion sequence), so that simultaneous events never depend on
// addresses or unstable sorts. Cancelled events stay in the heap and are recognised when they
// pop (a per-job or per-node generation counter), never searched for.
#include <algorithm>
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
  void reserve(std::size_t n) { heap_.reserve(n); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  void push(double time_s, EventType type, std::int32_t subject, std::uint32_t generation) {
    heap_.push_back(Event{time_s, next_seq_++, subject, generation, type});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  Event pop() {
    FS_CHECK(!heap_.empty(), "pop from an empty event queue");
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Event e = heap_.back();
    heap_.pop_back();
    return e;
  }

  // a comes after b: the heap keeps the earliest (time, class, seq) on top.
  static bool later(const Event& a, const Event& b) {
    if (a.time_s != b.time_s) return a.time_s > b.time_s;
    if (a.type != b.type) return a.type > b.type;
    return a.seq > b.seq;
  }

 private:
  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace faultsweep::sim
