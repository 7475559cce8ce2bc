// Tests of the free-node bitset's batch operations and of the word-scanning first fit and
// round robin: on random free sets (members across word boundaries, wrap-around, a full set)
// they give exactly what the node-by-node definitions give, also on sets of long free and busy
// stretches (whole words of members taken 64 at a time, empty words skipped 4 at a time).
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/node_set.hpp"

using namespace faultsweep;

namespace {

// The definitions, node by node: the lowest free ids; round robin's next free ids from the
// cursor, wrapping (returns the new cursor).
std::vector<std::int32_t> lowest(const policy::NodeSet& free, std::size_t k) {
  std::vector<std::int32_t> out;
  for (int n = free.next_from(0); out.size() < k; n = free.next_from(n + 1)) out.push_back(n);
  return out;
}

int cyclic(const policy::NodeSet& free, int cursor, std::vector<std::int32_t>& out) {
  int n = cursor - 1;
  for (std::int32_t& slot : out) {
    n = free.next_from(n + 1);
    if (n < 0) n = free.next_from(0);
    slot = n;
  }
  return out.empty() ? cursor : (n + 1) % free.nodes();
}

// 1 to 300 nodes, each free with a random density (all of them if full).
policy::NodeSet random_free(Engine& rng, bool full) {
  const int nodes = 1 + static_cast<int>(uniform01(rng) * 300);
  const double density = uniform01(rng);
  policy::NodeSet free(nodes);
  for (int n = 0; n < nodes; ++n)
    if (uniform01(rng) < density || full) free.insert(n);
  return free;
}

// Up to 3,000 nodes in stretches of up to 300 free and up to 100 or 800 busy ones: many whole
// words of members and of non-members, as a large machine's free set has.
policy::NodeSet random_stretches(Engine& rng) {
  const int nodes = 1 + static_cast<int>(uniform01(rng) * 3000);
  const double busy = uniform01(rng) < 0.5 ? 100 : 800;
  policy::NodeSet free(nodes);
  for (int n = 0; n < nodes;) {
    const int len = 1 + static_cast<int>(uniform01(rng) * 300);
    for (int i = n; i < std::min(nodes, n + len); ++i) free.insert(i);
    n += len + 1 + static_cast<int>(uniform01(rng) * busy);
  }
  return free;
}

// Trial t's set: long stretches for every third trial, else scattered members (every tenth of
// those a full set).
policy::NodeSet random_set(Engine& rng, int trial) {
  return trial % 3 == 1 ? random_stretches(rng) : random_free(rng, trial % 10 == 0);
}

}  // namespace

TEST_CASE("node set: first fit and round robin by words match the node-by-node definitions",
          "[allocator]") {
  Engine rng = make_stream(24, 0, Purpose::tiebreaks, "node-set-alloc");
  for (int trial = 0; trial < 300; ++trial) {
    const policy::NodeSet free = random_set(rng, trial);
    policy::FirstFit ff;
    policy::RoundRobin rr;
    int cursor = 0;
    for (int call = 0; call < 6; ++call) {
      const auto k = static_cast<std::size_t>(uniform01(rng) * (free.count() + 1));
      std::vector<std::int32_t> got(k), want(k);
      ff.allocate(free, got);
      CHECK(got == lowest(free, k));
      rr.allocate(free, got);
      cursor = cyclic(free, cursor, want);
      REQUIRE(got == want);
    }
  }
}

// The nodes of a list of runs, in order.
static std::vector<std::int32_t> expand(const std::vector<policy::NodeRun>& runs) {
  std::vector<std::int32_t> out;
  for (const policy::NodeRun& u : runs)
    for (std::int32_t i = 0; i < u.count; ++i) out.push_back(u.first + i);
  return out;
}

TEST_CASE("node set: first fit and round robin as runs give their lists, runs maximal",
          "[allocator]") {
  Engine rng = make_stream(24, 1, Purpose::tiebreaks, "node-set-runs");
  for (int trial = 0; trial < 300; ++trial) {
    const policy::NodeSet free = random_set(rng, trial);
    policy::FirstFit ff, ff_runs;
    policy::RoundRobin rr, rr_runs;  // the same calls in the same order: the same cursor
    std::vector<policy::NodeRun> runs;
    for (int call = 0; call < 6; ++call) {
      const auto k = static_cast<std::int32_t>(uniform01(rng) * (free.count() + 1));
      std::vector<std::int32_t> want(static_cast<std::size_t>(k));
      ff.allocate(free, want);
      REQUIRE(ff_runs.allocate_runs({}, free, k, runs));
      CHECK(expand(runs) == want);
      rr.allocate(free, want);
      REQUIRE(rr_runs.allocate_runs({}, free, k, runs));
      REQUIRE(expand(runs) == want);
      // Maximal within each scan: two runs in a row are never consecutive ids (round robin's
      // wrap from the last node to node 0 is not a continuation either).
      for (std::size_t i = 1; i < runs.size(); ++i)
        CHECK(runs[i].first != runs[i - 1].first + runs[i - 1].count);
      for (const policy::NodeRun& u : runs) CHECK(u.count >= 1);
    }
  }
}

TEST_CASE("node set: insert_all and erase_all equal node-by-node insert and erase", "[allocator]") {
  Engine rng = make_stream(24, 1, Purpose::tiebreaks, "node-set-batch");
  for (int trial = 0; trial < 100; ++trial) {
    const int nodes = 1 + static_cast<int>(uniform01(rng) * 200);
    policy::NodeSet batch(nodes), single(nodes);
    std::vector<std::int32_t> some;
    for (int n = nodes - 1; n >= 0; --n)  // decreasing: the batch takes any order
      if (uniform01(rng) < 0.5) some.push_back(n);
    batch.insert_all(some);
    for (const std::int32_t n : some) single.insert(n);
    CHECK(batch.count() == single.count());
    CHECK(batch.words() == single.words());
    if (!some.empty()) {
      CHECK_THROWS_AS(batch.insert_all(std::vector<std::int32_t>{some.front()}), InternalError);
      const std::vector<std::int32_t> half(some.begin(), some.begin() + (some.size() + 1) / 2);
      batch.erase_all(half);
      for (const std::int32_t n : half) single.erase(n);
      CHECK(batch.count() == single.count());
      CHECK(batch.words() == single.words());
      CHECK_THROWS_AS(batch.erase_all(half), InternalError);
      policy::NodeSet empty(nodes);
      const std::vector<std::int32_t> twice{some.front(), some.front()};
      CHECK_THROWS_AS(empty.insert_all(twice), InternalError);
    }
  }
}

TEST_CASE("node set: contains_range equals every node of the range tested alone", "[allocator]") {
  // Random sets of up to 300 nodes, mostly full so that whole ranges are members; every range
  // [a, b), across word boundaries and empty ones included.
  Engine rng = make_stream(24, 2, Purpose::tiebreaks, "node-set-range");
  for (int trial = 0; trial < 40; ++trial) {
    const int nodes = 1 + static_cast<int>(uniform01(rng) * 300);
    policy::NodeSet set(nodes);
    const double p = trial % 2 == 0 ? 0.99 : 0.7;
    for (int n = 0; n < nodes; ++n)
      if (uniform01(rng) < p) set.insert(n);
    for (int a = 0; a <= nodes; ++a)
      for (int b = a; b <= nodes; ++b) {
        bool all = true;
        for (int n = a; n < b && all; ++n) all = set.contains(n);
        REQUIRE(set.contains_range(a, b) == all);
      }
  }
}
