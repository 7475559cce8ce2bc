#pragma once
// Node allocators: which free nodes a starting job gets. Rigid jobs need `size` distinct nodes;
// down nodes are never in the free set, so they are never allocated.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "faultsweep/policy/node_set.hpp"

namespace faultsweep::policy {

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::string_view name() const = 0;
  // Writes out.size() distinct members of `free` to `out` (the caller removes them from the
  // set). Precondition: free.count() >= out.size(). Must not allocate memory.
  virtual void allocate(const NodeSet& free, std::span<std::int32_t> out) = 0;
};

// The lowest free node ids: reproducible, but it concentrates work (and the failures of
// skewed failure processes) on node 0 and its neighbours — Zhang et al. §4.1 show that
// artefact with alpha = 0.99.
class FirstFit final : public Allocator {
 public:
  std::string_view name() const override { return "first_fit"; }
  void allocate(const NodeSet& free, std::span<std::int32_t> out) override;
};

// The next free ids after the last node handed out, wrapping around: spreads work over the
// machine (Gottumukkala Ch. 6 uses round robin as the reliability-oblivious baseline).
class RoundRobin final : public Allocator {
 public:
  std::string_view name() const override { return "round_robin"; }
  void allocate(const NodeSet& free, std::span<std::int32_t> out) override;

 private:
  int cursor_ = 0;  // first node id to try next time
};

// "first_fit" | "round_robin"; throws InputError("allocator", ...) otherwise.
std::unique_ptr<Allocator> make_allocator(std::string_view name);

}  // namespace faultsweep::policy
