// The per-node failure history the engine keeps for allocators, strategies and Python views
// (failures/node_history.hpp): its arrays are made at the first failure, or when a reader asks
// for them whole, and then stay in place until a reset.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "faultsweep/failures/node_history.hpp"

using namespace faultsweep;

TEST_CASE("node history: arrays made at the first failure or read keep their place and reset",
          "[failures]") {
  using failures::NodeHistory;
  NodeHistory h;
  h.reset(5, true);
  CHECK(h.nodes() == 5);
  for (std::int32_t n = 0; n < 5; ++n) {
    CHECK(h.failures(n) == 0);
    CHECK(h.last_failure_s(n) == NodeHistory::kNever);
    CHECK(h.last_repair_s(n) == NodeHistory::kNever);
    CHECK(h.failure_times_s(n).empty());
  }
  // Spans read before the first failure are the arrays the failures then go to.
  const auto counts = h.failure_counts();
  const auto last = h.last_failures_s();
  const auto repaired = h.last_repairs_s();
  REQUIRE(counts.size() == 5);
  CHECK(std::all_of(last.begin(), last.end(), [](double t) { return t == NodeHistory::kNever; }));
  h.record_failure(2, 7.0);
  h.record_repair(2, 9.0);
  h.record_failure(2, 11.0);
  CHECK(counts[2] == 2);
  CHECK(last[2] == 11.0);
  CHECK(repaired[2] == 9.0);
  CHECK(counts[1] == 0);
  CHECK(h.total_failures() == 2);
  CHECK(std::vector<double>(h.failure_times_s(2).begin(), h.failure_times_s(2).end()) ==
        std::vector<double>{7.0, 11.0});
  // A reset forgets everything, and a first failure with no read before it makes the arrays.
  h.reset(3, false);
  CHECK(h.nodes() == 3);
  CHECK(h.total_failures() == 0);
  CHECK(h.failures(2) == 0);
  CHECK(h.last_failure_s(2) == NodeHistory::kNever);
  h.record_failure(1, 4.0);
  CHECK(h.failures(1) == 1);
  CHECK(h.failures(0) == 0);
  CHECK(h.last_failure_s(0) == NodeHistory::kNever);
  CHECK(h.last_failure_s(1) == 4.0);
  CHECK(h.failure_counts().size() == 3);
  CHECK(h.failure_times_s(1).empty());  // times are kept only on request
}
