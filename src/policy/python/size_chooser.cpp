// A Python size chooser behind the C++ SizeChooser interface: asked once per start of a
// moldable job in queue order (FCFS, EASY's prefix), with the request, the free nodes and the
// nodes' history; its answer is checked against the contract (0: wait, else 1 .. the cap).
#include <fmt/format.h>

#include <algorithm>

#include "faultsweep/policy/size_chooser.hpp"
#include "internal.hpp"

namespace faultsweep::policy::python {

namespace {

struct SizeView {
  SizeRequest r;
};

const NodeSet& free_of(const SizeView& v) {
  static const NodeSet kNone;
  return v.r.free != nullptr ? *v.r.free : kNone;
}

class PySizeChooser final : public SizeChooser {
 public:
  PySizeChooser(Spec spec, const RunContext& ctx)
      : b_(std::move(spec), ctx, "choose"),
        may_exceed_(py::bool_(b_.cls.attr("may_exceed_request"))) {}
  std::string_view name() const override { return b_.name; }
  bool may_exceed_request() const override { return may_exceed_; }
  std::int32_t choose(const SizeRequest& r) const override;

 private:
  // The Python instance keeps state between calls: choose() is const for the engine only.
  mutable Bound<SizeView> b_;
  bool may_exceed_;
};

std::int32_t PySizeChooser::choose(const SizeRequest& r) const {
  b_.view->r = r;
  const std::int64_t size = integer_of(b_.spec, r.now_s, b_.invoke(r.now_s),
                                       fmt::format("choose() for job {}", r.job).c_str());
  const std::int64_t cap = may_exceed_ ? r.free_nodes : std::min(r.requested, r.free_nodes);
  if (size < 0 || size > cap)
    refuse(
        b_.spec, r.now_s,
        fmt::format("choose() returned {} for job {} (requesting {}, {} nodes free): a size "
                    "must be 0 (wait) or 1 .. {}{}",
                    size, r.job, r.requested, r.free_nodes, cap,
                    may_exceed_ ? "" : " (set may_exceed_request = True to exceed the request)"));
  return static_cast<std::int32_t>(size);
}

}  // namespace

void bind_size_view(py::module_& m) {
  using V = SizeView;
  bind_placement_view<V>(
      m, "SizeView", [](const V& v) -> const SizeRequest& { return v.r; },
      [](const V& v) { return &free_of(v); }, [](const V& v) { return v.r.history; })
      .def_property_readonly("requested", [](const V& v) { return v.r.requested; })
      .def_property_readonly("free_nodes", [](const V& v) { return v.r.free_nodes; })
      .def_property_readonly("estimate", [](const V& v) { return v.r.estimate_s; })
      .def_property_readonly("nodes", [](const V& v) { return v.r.machine_nodes; })
      .def("time_factor", [](const V& v, std::int32_t size) {
        return v.r.speedup != nullptr ? v.r.speedup->time_factor(size, v.r.requested) : 1.0;
      });
}

std::unique_ptr<SizeChooser> make_size_chooser(Spec spec, const RunContext& ctx) {
  return std::make_unique<PySizeChooser>(std::move(spec), ctx);
}

}  // namespace faultsweep::policy::python
