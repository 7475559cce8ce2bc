// A Python queue policy behind the C++ QueuePolicy interface. One call per scheduling pass;
// the view's arrays look at the engine's queue, sizes and job table without copying.
#include <fmt/format.h>

#include <cstddef>

#include "faultsweep/policy/queue.hpp"
#include "internal.hpp"

namespace faultsweep::policy::python {

namespace {

struct QueueView {
  const QueueState* s = nullptr;
};

// Strided views over arrays of structs (one field each).
static_assert(offsetof(JobInfo, size) == 0 && offsetof(JobInfo, est_wall_s) == 8);
static_assert(offsetof(Release, time_s) == 0 && offsetof(Release, nodes) == 8 &&
              offsetof(Release, job) == 12);

class PyQueue final : public QueuePolicy {
 public:
  PyQueue(Spec spec, const RunContext& ctx)
      : b_(std::move(spec), ctx, "select"), keeps_state_(py::bool_(b_.cls.attr("keeps_state"))) {}
  std::string_view name() const override { return b_.name; }
  bool keeps_state() const override { return keeps_state_; }
  void select(const QueueState& s, std::vector<std::int32_t>& start) override;

 private:
  Bound<QueueView> b_;
  bool keeps_state_;
};

void PyQueue::select(const QueueState& s, std::vector<std::int32_t>& start) {
  b_.view->s = &s;
  const py::object result = b_.invoke(s.now_s);  // (an exception ends the run)
  b_.view->s = nullptr;
  const auto a = integers_of(b_.spec, s.now_s, result, "select()");
  const std::int64_t* pos = a.data();
  const auto waiting = static_cast<std::int64_t>(s.waiting.size());
  std::int64_t used = 0;
  for (py::ssize_t k = 0; k < a.size(); ++k) {
    const std::int64_t p = pos[k];
    if (p < 0 || p >= waiting)
      refuse(b_.spec, s.now_s,
             fmt::format("select() returned position {}, but only positions 0 .. {} are in "
                         "the queue (a job that is not queued cannot start)",
                         p, waiting - 1));
    if (k > 0 && p <= pos[k - 1])
      refuse(b_.spec, s.now_s,
             fmt::format("select() returned position {} after {}: positions must be "
                         "increasing (a job starts once)",
                         p, pos[k - 1]));
    used += s.start_sizes != nullptr
                ? s.start_sizes->size_if_started(s.waiting[static_cast<std::size_t>(p)])
                : s.sizes[static_cast<std::size_t>(p)];
    if (used > s.free_nodes)
      refuse(b_.spec, s.now_s,
             fmt::format("select() starts jobs needing {} nodes or more with {} free (a job "
                         "starts only on free nodes; a moldable job on the size start_size() "
                         "gave in this call, else on its requested size)",
                         used, s.free_nodes));
    start.push_back(static_cast<std::int32_t>(p));
  }
}

}  // namespace

void bind_queue_view(py::module_& m) {
  using V = QueueView;
  const auto state = [](const V& v) -> const QueueState& {
    if (v.s == nullptr) throw std::runtime_error("the queue view is valid only during select()");
    return *v.s;
  };
  py::class_<V>(m, "QueueView")
      .def_property_readonly("now", [=](const V& v) { return state(v).now_s; })
      .def_property_readonly("free_nodes", [=](const V& v) { return state(v).free_nodes; })
      .def("sized_at_start",
           [=](const V& v, std::int32_t job) {
             const QueueState& s = state(v);
             return s.start_sizes != nullptr && s.start_sizes->sized_at_start(job);
           })
      .def_property_readonly("waiting",
                             [=](py::object self) {
                               const auto w = state(self.cast<const V&>()).waiting;
                               return view_of(w.data(), w.size(), self);
                             })
      .def_property_readonly("sizes",
                             [=](py::object self) {
                               const auto w = state(self.cast<const V&>()).sizes;
                               return view_of(w.data(), w.size(), self);
                             })
      .def_property_readonly("job_size",
                             [=](py::object self) {
                               const auto i = state(self.cast<const V&>()).info;
                               return view_of(&i.data()->size, i.size(), self, sizeof(JobInfo));
                             })
      .def_property_readonly("job_est_wall",
                             [=](py::object self) {
                               const auto i = state(self.cast<const V&>()).info;
                               return view_of(&i.data()->est_wall_s, i.size(), self,
                                              sizeof(JobInfo));
                             })
      .def("releases",
           [=](py::object self) {
             const QueueState& s = state(self.cast<const V&>());
             const auto r = s.releases->releases();
             const Release* d = r.data();
             return py::make_tuple(view_of(&d->time_s, r.size(), self, sizeof(Release)),
                                   view_of(&d->nodes, r.size(), self, sizeof(Release)),
                                   view_of(&d->job, r.size(), self, sizeof(Release)));
           })
      .def("start_size",
           [=](const V& v, std::int32_t job, int free) {
             const QueueState& s = state(v);
             if (s.start_sizes != nullptr) return s.start_sizes->start_size(job, free);
             const std::int32_t size = s.info[static_cast<std::size_t>(job)].size;
             return size <= free ? size : 0;
           })
      .def("est_wall_at", [=](const V& v, std::int32_t job, std::int32_t size) {
        const QueueState& s = state(v);
        const JobInfo& i = s.info[static_cast<std::size_t>(job)];
        if (size == i.size || s.start_sizes == nullptr) return i.est_wall_s;
        return s.start_sizes->est_wall_at_s(job, size);
      });
}

std::unique_ptr<QueuePolicy> make_queue(Spec spec, const RunContext& ctx) {
  return std::make_unique<PyQueue>(std::move(spec), ctx);
}

}  // namespace faultsweep::policy::python
