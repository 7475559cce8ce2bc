#include "faultsweep/policy/allocator.hpp"

#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

void FirstFit::allocate(const AllocationContext&, const NodeSet& free,
                        std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "first_fit: not enough nodes");
  int n = -1;
  for (std::int32_t& slot : out) {
    n = free.next_from(n + 1);
    slot = n;
  }
}

void RoundRobin::allocate(const AllocationContext&, const NodeSet& free,
                          std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "round_robin: not enough nodes");
  int n = cursor_ - 1;
  for (std::int32_t& slot : out) {
    n = free.next_from(n + 1);
    if (n < 0) n = free.next_from(0);  // wrap around
    slot = n;
  }
  if (!out.empty()) cursor_ = (n + 1) % free.nodes();
}

std::unique_ptr<Allocator> make_allocator(std::string_view name) {
  return find_choice(allocators(), "allocator", name).make(Params{});
}

}  // namespace faultsweep::policy
