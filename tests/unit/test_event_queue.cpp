// The engine's event queue (sim/event_queue.hpp): whatever lane or heap an event goes to, the
// events pop in the order of (time, class, insertion), the order of one heap over all of them.
// Checked against a plain search of the pending events for the earliest, on random pushes and
// pops with many ties, in three mixes: every class in time order (the lanes take them all),
// times at random (the lanes take few), and the engine's own pattern (nothing before now).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/sim/event_queue.hpp"

using namespace faultsweep;
using sim::Event;
using sim::EventQueue;
using sim::EventType;

namespace {

enum class Mix { in_order, random, from_now };

// Pushes and pops at random against a reference list; returns how many events popped.
std::size_t check_order(std::uint64_t seed, Mix mix) {
  Engine rng(seed);
  EventQueue q;
  q.reserve(8, 8);  // smaller than what is pending: the vectors must grow correctly
  std::vector<Event> pending;
  std::uint64_t seq = 0;
  double now = 0;
  std::array<double, 8> last{};  // per class, the latest time pushed (for Mix::in_order)
  std::size_t popped = 0;
  for (int step = 0; step < 20000; ++step) {
    const bool push = pending.empty() || uniform01(rng) < 0.55;
    if (push) {
      const auto type = static_cast<EventType>(rng() % 8);
      // Times on a coarse grid, so that equal times (and so class and insertion order) decide.
      const double step_s = static_cast<double>(rng() % 4);
      double t = 0;
      switch (mix) {
        case Mix::in_order:
          t = last[static_cast<std::size_t>(type)] =
              std::max(now, last[static_cast<std::size_t>(type)]) + step_s;
          break;
        case Mix::random:
          t = static_cast<double>(rng() % 64);
          break;
        case Mix::from_now:
          t = now + step_s * static_cast<double>(rng() % 3);
          break;
      }
      const auto subject = static_cast<std::int32_t>(rng() % 1000);
      q.push(t, type, subject, static_cast<std::uint32_t>(step));
      pending.push_back(Event{t, seq++, subject, static_cast<std::uint32_t>(step), type});
    } else {
      const auto it =
          std::min_element(pending.begin(), pending.end(),
                           [](const Event& a, const Event& b) { return EventQueue::later(b, a); });
      REQUIRE(q.peek() != nullptr);
      REQUIRE(q.peek()->seq == it->seq);
      const Event e = q.pop();
      REQUIRE(e.seq == it->seq);
      REQUIRE(e.time_s == it->time_s);
      REQUIRE(e.type == it->type);
      REQUIRE(e.subject == it->subject);
      REQUIRE(e.generation == it->generation);
      if (mix != Mix::random) now = e.time_s;
      pending.erase(it);
      ++popped;
    }
    REQUIRE(q.size() == pending.size());
    REQUIRE(q.empty() == pending.empty());
  }
  return popped;
}

}  // namespace

TEST_CASE("event queue: lanes and heap pop in the order of one heap", "[sim][event_queue]") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    CHECK(check_order(seed, Mix::in_order) > 5000);
    CHECK(check_order(100 + seed, Mix::random) > 5000);
    CHECK(check_order(200 + seed, Mix::from_now) > 5000);
  }
}

TEST_CASE("event queue: a long run of events in order is compacted, not lost",
          "[sim][event_queue]") {
  // Many repairs in order with a few always pending: the lane reads past 1,024 events and moves
  // the rest down; every event still comes out once, in order.
  EventQueue q;
  q.reserve(4, 4);
  double t = 0;
  std::int32_t next_out = 0;
  for (std::int32_t n = 0; n < 5000; ++n) {
    q.push(t += 1, EventType::node_repair, n, 0);
    if (n >= 3) {
      const Event e = q.pop();
      REQUIRE(e.subject == next_out++);
    }
  }
  // An arrival earlier than the last repair, and a repair out of order: both before the rest.
  q.push(0.5, EventType::job_submit, -7, 0);
  q.push(1.0, EventType::node_repair, -8, 0);
  CHECK(q.pop().subject == -7);
  CHECK(q.pop().subject == -8);
  while (!q.empty()) REQUIRE(q.pop().subject == next_out++);
  CHECK(next_out == 5000);
  CHECK(q.peek() == nullptr);
}
