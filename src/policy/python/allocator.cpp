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

const failures::NodeHistory& history_of(const AllocationView& v) {
  static const failures::NodeHistory kNone;
  return v.ctx.history != nullptr ? *v.ctx.history : kNone;
}

// One entry per node: free now (a copy: the engine keeps a bitset).
py::array_t<bool> free_mask(const AllocationView& v) {
  py::array_t<bool> a(v.free->nodes());
  bool* out = a.mutable_data();
  const auto& words = v.free->words();
  for (int n = 0; n < v.free->nodes(); ++n)
    out[n] = ((words[static_cast<std::size_t>(n) >> 6] >> (n & 63)) & 1U) != 0;
  return a;
}

class PyAllocator final : public Allocator {
 public:
  PyAllocator(Spec spec, const RunContext& ctx)
      : spec_(std::move(spec)),
        name_("python:" + spec_.class_name),
        instance_(make_instance(spec_, load_class(spec_), ctx)),
        method_(instance_.attr("allocate")),
        view_obj_(py::cast(AllocationView{})),
        view_(view_obj_.cast<AllocationView*>()) {}
  ~PyAllocator() override {
    // Drop the Python references while gil_ (declared first, destroyed last) is held.
    view_obj_ = py::object();
    method_ = py::object();
    instance_ = py::object();
  }
  std::string_view name() const override { return name_; }
  void allocate(const AllocationContext& ctx, const NodeSet& free,
                std::span<std::int32_t> out) override;

 private:
  void take(const py::object& result, const NodeSet& free, std::span<std::int32_t> out);

  Gil gil_;
  Spec spec_;
  std::string name_;
  py::object instance_, method_, view_obj_;
  AllocationView* view_;
  std::vector<std::uint8_t> given_;  // nodes of this answer, to find one given twice
};

void PyAllocator::allocate(const AllocationContext& ctx, const NodeSet& free,
                           std::span<std::int32_t> out) {
  view_->ctx = ctx;
  view_->free = &free;
  py::object result;
  try {
    result = method_(view_obj_, out.size());
  } catch (py::error_already_set& e) {
    fail_call(spec_, ctx.now_s, e);
  }
  take(result, free, out);
}

// Copies the answer to `out`, checking each rule the engine relies on.
void PyAllocator::take(const py::object& result, const NodeSet& free, std::span<std::int32_t> out) {
  using Ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
  const double now_s = view_->ctx.now_s;
  const auto a = Ints::ensure(result);
  if (!a || a.ndim() != 1)
    refuse(spec_, now_s,
           fmt::format("allocate() must return a sequence of node ids, got {}",
                       py::str(py::type::of(result)).cast<std::string>()));
  if (static_cast<std::size_t>(a.size()) != out.size())
    refuse(spec_, now_s,
           fmt::format("allocate() returned {} nodes for job {}, which needs {} (the count "
                       "argument)",
                       a.size(), view_->ctx.job, out.size()));
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
      refuse(spec_, now_s, fmt::format("allocate() for job {}: {}", view_->ctx.job, rule));
    }
    given_[static_cast<std::size_t>(n)] = 1;
    out[k] = static_cast<std::int32_t>(n);
  }
  undo();
}

}  // namespace

void bind_allocator_view(py::module_& m) {
  using V = AllocationView;
  py::class_<V>(m, "AllocationView")
      .def_property_readonly("now", [](const V& v) { return v.ctx.now_s; })
      .def_property_readonly("job", [](const V& v) { return v.ctx.job; })
      .def_property_readonly("est_wall", [](const V& v) { return v.ctx.est_wall_s; })
      .def_property_readonly("progress", [](const V& v) { return v.ctx.progress_s; })
      .def_property_readonly("nodes", [](const V& v) { return v.free->nodes(); })
      .def_property_readonly("free_count", [](const V& v) { return v.free->count(); })
      .def_property_readonly("free", &free_mask)
      .def_property_readonly("free_words",
                             [](py::object self) {
                               const auto& w = self.cast<const V&>().free->words();
                               return view_of(w.data(), w.size(), self);
                             })
      .def_property_readonly("failures",
                             [](py::object self) {
                               const auto s = history_of(self.cast<const V&>()).failure_counts();
                               return view_of(s.data(), s.size(), self);
                             })
      .def_property_readonly("last_failure",
                             [](py::object self) {
                               const auto s = history_of(self.cast<const V&>()).last_failures_s();
                               return view_of(s.data(), s.size(), self);
                             })
      .def_property_readonly("last_repair", [](py::object self) {
        const auto s = history_of(self.cast<const V&>()).last_repairs_s();
        return view_of(s.data(), s.size(), self);
      });
}

std::unique_ptr<Allocator> make_allocator(Spec spec, const RunContext& ctx) {
  return std::make_unique<PyAllocator>(std::move(spec), ctx);
}

}  // namespace faultsweep::policy::python
