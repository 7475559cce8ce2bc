// A Python allocator behind the C++ Allocator interface. One call per job start: the view is
// one object per replica whose fields are set before each call; its arrays look at the
// engine's buffers (free-set words, node history) without copying.
#include <fmt/format.h>

#include <vector>

#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "internal.hpp"

namespace faultsweep::policy::python {

namespace {

struct AllocationView {
  AllocationContext ctx;
  const NodeSet* free = nullptr;
};

class PyAllocator final : public Allocator {
 public:
  PyAllocator(Spec spec, const RunContext& ctx) : b_(std::move(spec), ctx, "allocate") {}
  std::string_view name() const override { return b_.name; }
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;

 private:
  void take(const py::object& result, const NodeSet& free, std::span<std::int32_t> out);

  Bound<AllocationView> b_;
  std::vector<std::uint8_t> given_;  // nodes of this answer, to find one given twice
};

void PyAllocator::allocate(const AllocationContext& ctx, const NodeSet& free,
                           std::span<std::int32_t> out) {
  b_.view->ctx = ctx;
  b_.view->free = &free;
  take(b_.invoke(ctx.now_s, out.size()), free, out);
}

// Copies the answer to `out`, checking each rule the engine relies on.
void PyAllocator::take(const py::object& result, const NodeSet& free, std::span<std::int32_t> out) {
  const double now_s = b_.view->ctx.now_s;
  const auto a = integers_of(b_.spec, now_s, result, "allocate()");
  if (static_cast<std::size_t>(a.size()) != out.size())
    refuse(b_.spec, now_s,
           fmt::format("allocate() returned {} nodes for job {}, which needs {} (the count "
                       "argument)",
                       a.size(), b_.view->ctx.job, out.size()));
  given_.resize(static_cast<std::size_t>(free.nodes()));
  const std::int64_t* ids = a.data();
  std::size_t k = 0;
  const auto undo = [&] {
    for (std::size_t i = 0; i < k; ++i) given_[static_cast<std::size_t>(out[i])] = 0;
  };
  for (; k < out.size(); ++k) {
    const std::int64_t n = ids[k];
    std::string rule;
    if (n < 0 || n >= free.nodes())
      rule = fmt::format("node {} does not exist (nodes are 0 .. {})", n, free.nodes() - 1);
    else if (!free.contains(static_cast<int>(n)))
      rule = fmt::format("node {} is not free (it is busy, down, held or a spare)", n);
    else if (given_[static_cast<std::size_t>(n)] != 0)
      rule = fmt::format("node {} is given twice", n);
    if (!rule.empty()) {
      undo();
      refuse(b_.spec, now_s, fmt::format("allocate() for job {}: {}", b_.view->ctx.job, rule));
    }
    given_[static_cast<std::size_t>(n)] = 1;
    out[k] = static_cast<std::int32_t>(n);
  }
  undo();
}

}  // namespace

void bind_allocator_view(py::module_& m) {
  using V = AllocationView;
  bind_placement_view<V>(
      m, "AllocationView", [](const V& v) -> const AllocationContext& { return v.ctx; },
      [](const V& v) { return v.free; }, [](const V& v) { return v.ctx.history; })
      .def_property_readonly("est_wall", [](const V& v) { return v.ctx.est_wall_s; })
      .def_property_readonly("progress", [](const V& v) { return v.ctx.progress_s; })
      .def_property_readonly("nodes", [](const V& v) { return v.free->nodes(); })
      .def_property_readonly("free_count", [](const V& v) { return v.free->count(); });
}

std::unique_ptr<Allocator> make_allocator(Spec spec, const RunContext& ctx) {
  return std::make_unique<PyAllocator>(std::move(spec), ctx);
}

}  // namespace faultsweep::policy::python
