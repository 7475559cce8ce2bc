#include "faultsweep/policy/allocator.hpp"

#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

// The lowest free ids, in increasing order (what next_from() node by node gave), in one pass
// over the bitset's words.
void FirstFit::allocate(const AllocationContext&, const NodeSet& free,
                        std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "first_fit: not enough nodes");
  free.take_from(0, out, 0);
}

// The free ids from the cursor upward, then from 0 (the count check guarantees out fills before
// the second scan reaches the cursor again).
void RoundRobin::allocate(const AllocationContext&, const NodeSet& free,
                          std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "round_robin: not enough nodes");
  if (out.empty()) return;
  const std::size_t k = free.take_from(cursor_, out, 0);
  free.take_from(0, out, k);  // wrap around
  cursor_ = (out.back() + 1) % free.nodes();
}

bool FirstFit::allocate_runs(const AllocationContext&, const NodeSet& free, std::int32_t count,
                             std::vector<NodeRun>& runs) {
  FS_CHECK(free.count() >= count, "first_fit: not enough nodes");
  runs.clear();
  free.take_runs_from(0, count, runs);
  return true;
}

bool RoundRobin::allocate_runs(const AllocationContext&, const NodeSet& free, std::int32_t count,
                               std::vector<NodeRun>& runs) {
  FS_CHECK(free.count() >= count, "round_robin: not enough nodes");
  runs.clear();
  if (count == 0) return true;
  const std::int32_t got = free.take_runs_from(cursor_, count, runs);
  free.take_runs_from(0, count - got, runs);  // wrap around
  cursor_ = (runs.back().first + runs.back().count) % free.nodes();
  return true;
}

std::unique_ptr<Allocator> make_allocator(std::string_view name) {
  return find_choice(allocators(), "allocator", name).make(Params{});
}

}  // namespace faultsweep::policy
