// A Python runtime strategy behind the C++ RuntimeStrategy interface. Its needs are read once
// from the instance; each callback gets one view object (arrays over the engine's node history
// without copying) and returns Move / Hold / Release objects, checked here against the rules the
// engine applies them by, so that a refused decision names its rule and the simulated time.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/policy/strategy.hpp"
#include "internal.hpp"

namespace faultsweep::policy::python {

namespace {

struct StrategyView {
  const ClusterView* v = nullptr;
};

const ClusterView& cluster(const StrategyView& s) {
  if (s.v == nullptr) throw std::runtime_error("the strategy view is valid only during a callback");
  return *s.v;
}

py::module_ api() {
  return py::module_::import("faultsweep_policy._loader");
}

py::list metric_names() {
  py::list out;
  for (const MetricSpec& m : strategy_metrics()) out.append(m.name);
  return out;
}

py::object needs_of(const Spec& s, const py::object& instance) {
  try {
    return api().attr("strategy_needs")(instance, metric_names());
  } catch (py::error_already_set& e) {
    rethrow_input(s, e);
  }
}

// The traits the class declares (the loader has checked their types).
StrategyTraits traits_of(const py::dict& d) {
  StrategyTraits t;
  t.needs_predictor = d["needs_predictor"].cast<bool>();
  t.predictor_hint = "{ precision = p, recall = r } (what view.predicted reports at a tick)";
  t.needs_failures = d["needs_failures"].cast<bool>();
  t.checkpoints_jobs = d["checkpoints_jobs"].cast<bool>();
  t.stateless_queue_only = d["stateless_queue_only"].cast<bool>();
  return t;
}

// One decision as the loader gives it: (kind 0 hold | 1 move | 2 release | 3 checkpoint |
// 4 call, job, a, b, value: a move's overhead or a call's time).
struct Decision {
  int kind;
  std::int64_t job, a, b;
  double overhead_s;
};

class PyStrategy final : public RuntimeStrategy {
 public:
  PyStrategy(Spec spec, const RunContext& ctx) : b_(std::move(spec), ctx, "on_tick") {
    const py::dict d = needs_of(b_.spec, b_.instance);
    needs_.period_s = d["period"].cast<double>();
    needs_.offset_s = d["offset"].cast<double>();
    needs_.warning_lead_s = d["warning_lead"].cast<double>();
    needs_.job_ends = d["job_ends"].cast<bool>();
    needs_.failures = d["failures"].cast<bool>();
    needs_.first_call_s = d["first_call"].cast<double>();
    needs_.failure_times = d["failure_times"].cast<bool>();
    // The class's prediction schedule (one prediction over predict_window, 0: the period, at
    // every predict_every-th tick): asked of the view before the class's on_tick.
    predict_window_s_ = d["predict_window"].cast<double>();
    if (!(predict_window_s_ > 0)) predict_window_s_ = needs_.period_s;
    predict_every_ = d["predict_every"].cast<std::int64_t>();
    FS_CHECK(predict_every_ >= 1, "predict_every must be >= 1 (the loader checks it)");
    traits_ = traits_of(d);
  }
  std::string_view name() const override { return b_.name; }
  StrategyNeeds needs() const override { return needs_; }
  void on_tick(const ClusterView& v, Decisions& out) override {
    if (ticks_++ % predict_every_ == 0) v.predict(predict_window_s_);
    take(
        v, "on_tick()", [&] { return b_.call(b_.view_obj); }, out);
  }
  void on_job_end(const ClusterView& v, std::int32_t job, Decisions& out) override {
    take(
        v, "on_job_end()", [&] { return b_.instance.attr("on_job_end")(b_.view_obj, job); }, out);
  }
  void on_warning(const ClusterView& v, const failures::FailureEvent& f, Decisions& out) override {
    take(
        v, "on_warning()",
        [&] { return b_.instance.attr("on_warning")(b_.view_obj, f.node, f.time_s); }, out);
  }
  void on_call(const ClusterView& v, Decisions& out) override {
    take(
        v, "on_call()", [&] { return b_.instance.attr("on_call")(b_.view_obj); }, out);
  }
  void on_failure(const ClusterView& v, const failures::FailureEvent& f, std::int32_t job,
                  Decisions& out) override {
    take(
        v, "on_failure()",
        [&] { return b_.instance.attr("on_failure")(b_.view_obj, f.node, f.time_s, job); }, out);
  }
  void report(MetricSink& sink) const override;

 private:
  template <class Call>
  void take(const ClusterView& v, const char* what, Call call, Decisions& out);
  void check(const ClusterView& v, const char* what, std::vector<Decision>& ds);
  template <class Bad>
  void check_checkpoint(const ClusterView& v, std::int64_t job, const Bad& bad);
  // The largest requested size of a job the machine can run, computed once.
  int widest(const ClusterView& v) {
    if (widest_ < 0)
      for (const JobInfo& j : v.job_info())  // (a job wider than the machine is rejected)
        if (j.size <= v.nodes()) widest_ = std::max(widest_, j.size);
    return widest_;
  }

  Bound<StrategyView> b_;
  StrategyNeeds needs_;
  StrategyTraits traits_;
  std::vector<std::uint8_t> use_;  // node uses as the decisions so far leave them
  std::vector<std::int32_t> job_nodes_;
  std::vector<std::uint8_t> checkpointed_;  // per job: checkpointed in this batch
  int widest_ = -1;
  double predict_window_s_ = 0;
  std::int64_t predict_every_ = 1, ticks_ = 0;
  double last_call_s_ = 0;  // the time errors of report() name (it has no view)
};

template <class Call>
void PyStrategy::take(const ClusterView& v, const char* what, Call call, Decisions& out) {
  b_.view->v = &v;
  last_call_s_ = v.now_s();
  std::vector<Decision> ds;
  const Watched w(b_.spec, what, v.now_s());
  try {
    const py::object result = call();
    for (const py::handle t : api().attr("decisions")(result).cast<py::list>())
      ds.push_back({t[py::int_(0)].cast<int>(), t[py::int_(1)].cast<std::int64_t>(),
                    t[py::int_(2)].cast<std::int64_t>(), t[py::int_(3)].cast<std::int64_t>(),
                    t[py::int_(4)].cast<double>()});
  } catch (py::error_already_set& e) {
    b_.view->v = nullptr;
    w.check();
    if (e.matches(api().attr("DecisionError")))
      refuse(b_.spec, v.now_s(),
             fmt::format("{} returned {}", what, py::str(e.value()).cast<std::string>()));
    fail_call(b_.spec, v.now_s(), e);
  }
  b_.view->v = nullptr;
  check(v, what, ds);
  for (const Decision& d : ds) {
    const auto a = static_cast<std::int32_t>(d.a);
    if (d.kind == 0) out.hold.push_back(a);
    if (d.kind == 1)
      out.moves.push_back(
          {static_cast<std::int32_t>(d.job), a, static_cast<std::int32_t>(d.b), d.overhead_s});
    if (d.kind == 2) out.release.push_back(a);
    if (d.kind == 3) out.checkpoint.push_back(static_cast<std::int32_t>(d.job));
    if (d.kind == 4) out.call_at_s.push_back(d.overhead_s);
  }
}

// The engine's rules, in the order it applies a batch: holds, each job's moves (by job id, in
// the strategy's order within a job), checkpoints, releases.
void PyStrategy::check(const ClusterView& v, const char* what, std::vector<Decision>& ds) {
  if (ds.empty()) return;
  const int nodes = v.nodes();
  use_.resize(static_cast<std::size_t>(nodes));
  for (int n = 0; n < nodes; ++n)
    use_[static_cast<std::size_t>(n)] = static_cast<std::uint8_t>(v.node_use(n));
  const auto bad = [&](const std::string& rule) {
    refuse(b_.spec, v.now_s(),
           fmt::format("{} returned a decision the engine refuses: {}", what, rule));
  };
  const auto node = [&](std::int64_t n, const char* name) {
    if (n < 0 || n >= nodes)
      bad(fmt::format("{} node {} does not exist (nodes are 0 .. {})", name, n, nodes - 1));
    return static_cast<std::size_t>(n);
  };
  const auto is = [&](std::size_t n, NodeUse u) { return use_[n] == static_cast<std::uint8_t>(u); };
  std::vector<std::size_t> order(ds.size());
  std::iota(order.begin(), order.end(), 0);
  const auto rank = [&](std::size_t i) {
    const std::int64_t last = std::int64_t{1} << 40;
    return ds[i].kind == 1   ? 1 + ds[i].job
           : ds[i].kind == 0 ? -1
           : ds[i].kind == 3 ? last
                             : last + 1;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return rank(x) < rank(y); });
  std::int64_t job = -1;
  int holds = 0;
  for (const std::size_t i : order) {
    const Decision& d = ds[i];
    if (d.kind == 0) {
      const std::size_t n = node(d.a, "Hold:");
      if (!is(n, NodeUse::idle)) bad(fmt::format("Hold({}): a spare must be an idle node", n));
      use_[n] = static_cast<std::uint8_t>(NodeUse::spare);
      // The queue never gets a spare: the widest job must still fit in the other nodes.
      const int left = nodes - v.spare_count() - ++holds;
      if (left < widest(v))
        bad(
            fmt::format("Hold({}): the spares would leave {} nodes, fewer than the widest job "
                        "needs ({}): it could never start",
                        n, left, widest(v)));
    } else if (d.kind == 3) {
      check_checkpoint(v, d.job, bad);
    } else if (d.kind == 4) {
      if (!(d.overhead_s >= v.now_s()))
        bad(fmt::format("CallAt({}): a call must be now ({}) or later", d.overhead_s, v.now_s()));
    } else if (d.kind == 2) {
      const std::size_t n = node(d.a, "Release:");
      if (!is(n, NodeUse::spare))
        bad(fmt::format("Release({}): only a spare node can be released", n));
      use_[n] = static_cast<std::uint8_t>(NodeUse::idle);
    } else {
      const std::string m = fmt::format("Move({}, {}, {}, {})", d.job, d.a, d.b, d.overhead_s);
      if (d.job != job) {
        if (d.job < 0 || d.job >= static_cast<std::int64_t>(v.job_info().size()))
          bad(m + ": no such job");
        const JobView j = v.job(static_cast<std::int32_t>(d.job));
        if (!j.running) bad(m + ": only a running job can move");
        job_nodes_.assign(j.nodes.begin(), j.nodes.end());
        job = d.job;
      }
      const std::size_t to = node(d.b, "Move: to");
      if (!is(to, NodeUse::idle) && !is(to, NodeUse::spare))
        bad(m + fmt::format(": node {} is neither idle nor spare", to));
      const auto it = std::find(job_nodes_.begin(), job_nodes_.end(), d.a);
      if (it == job_nodes_.end())
        bad(m + fmt::format(": node {} is not one of job {}'s", d.a, d.job));
      if (!(d.overhead_s >= 0 && std::isfinite(d.overhead_s)))
        bad(m + ": the overhead must be >= 0 s");
      use_[to] = static_cast<std::uint8_t>(NodeUse::busy);
      use_[static_cast<std::size_t>(d.a)] = static_cast<std::uint8_t>(NodeUse::idle);
      *it = static_cast<std::int32_t>(to);
    }
  }
  for (const Decision& d : ds)
    if (d.kind == 3) checkpointed_[static_cast<std::size_t>(d.job)] = 0;
}

// A checkpoint is paid for (traits: checkpoint_cost > 0) and taken by a running job, once.
template <class Bad>
void PyStrategy::check_checkpoint(const ClusterView& v, std::int64_t job, const Bad& bad) {
  const std::string c = fmt::format("Checkpoint({})", job);
  if (!traits_.checkpoints_jobs)
    bad(c +
        ": the class does not declare checkpoints_jobs = True (which makes faultsweep check "
        "that the job's checkpoint_cost is > 0)");
  if (job < 0 || job >= static_cast<std::int64_t>(v.job_info().size())) bad(c + ": no such job");
  if (!v.job(static_cast<std::int32_t>(job)).running)
    bad(c +
        ": only a running job can checkpoint (it is not submitted yet, queued, suspended or done)");
  checkpointed_.resize(v.job_info().size());
  if (checkpointed_[static_cast<std::size_t>(job)] != 0)
    bad(c + ": a job checkpoints at most once per batch");
  checkpointed_[static_cast<std::size_t>(job)] = 1;
}

void PyStrategy::report(MetricSink& sink) const {
  py::dict values;
  const Watched w(b_.spec, "report()", last_call_s_);
  try {
    values = b_.instance.attr("report")();
  } catch (py::error_already_set& e) {
    w.check();
    fail_call(b_.spec, last_call_s_, e);
  }
  const py::list declared = b_.instance.attr("metrics");
  for (const auto& [k, value] : values) {
    if (!declared.contains(k))
      refuse(b_.spec, last_call_s_,
             fmt::format("report() gave metric {}, which its class attribute metrics does not "
                         "name",
                         py::repr(k).cast<std::string>()));
    sink.add(k.cast<std::string>(), value.cast<double>());
  }
}

}  // namespace

void bind_strategy_view(py::module_& m) {
  using V = StrategyView;
  py::class_<JobView>(m, "JobView")
      .def_readonly("id", &JobView::id)
      .def_readonly("size", &JobView::size)
      .def_readonly("estimate", &JobView::estimate_s)
      .def_readonly("elapsed", &JobView::elapsed_s)
      .def_readonly("progress", &JobView::progress_s)
      .def_readonly("exec_start", &JobView::exec_start_s)
      .def_readonly("waiting", &JobView::waiting_s)
      .def_readonly("running", &JobView::running)
      .def_property_readonly("nodes", [](py::object self) {
        const auto n = self.cast<const JobView&>().nodes;
        return view_of(n.data(), n.size(), self);
      });
  py::class_<V> c(m, "StrategyView");
  c.def_property_readonly("now", [](const V& s) { return cluster(s).now_s(); })
      .def_property_readonly("nodes", [](const V& s) { return cluster(s).nodes(); })
      .def_property_readonly("free_count", [](const V& s) { return cluster(s).free().count(); })
      .def_property_readonly("spare_count", [](const V& s) { return cluster(s).spare_count(); })
      .def_property_readonly("checkpoint_cost",
                             [](const V& s) { return cluster(s).checkpoint_cost_s(); })
      .def_property_readonly("state",
                             [](const V& s) {
                               const ClusterView& v = cluster(s);
                               py::array_t<std::uint8_t> a(v.nodes());
                               for (int n = 0; n < v.nodes(); ++n)
                                 a.mutable_data()[n] = static_cast<std::uint8_t>(v.node_use(n));
                               return a;
                             })
      .def_property_readonly("owner",
                             [](const V& s) {
                               const ClusterView& v = cluster(s);
                               py::array_t<std::int32_t> a(v.nodes());
                               for (int n = 0; n < v.nodes(); ++n)
                                 a.mutable_data()[n] = v.node_owner(n);
                               return a;
                             })
      .def_property_readonly("predicted",
                             [](py::object self) {
                               const auto p = cluster(self.cast<const V&>()).predicted();
                               return view_of(p.data(), p.size(), self);
                             })
      .def_property_readonly("running",
                             [](const V& s) {
                               std::vector<std::int32_t> ids;
                               for (const Release& r : cluster(s).running())
                                 if (r.job >= 0) ids.push_back(r.job);
                               return py::array_t<std::int32_t>(
                                   static_cast<py::ssize_t>(ids.size()), ids.data());
                             })
      .def("job",
           [](const V& s, std::int32_t id) {
             const ClusterView& v = cluster(s);
             if (id < 0 || static_cast<std::size_t>(id) >= v.job_info().size())
               throw py::index_error(fmt::format("no job {}", id));
             return v.job(id);
           })
      .def("failure_times", [](py::object self, std::int32_t node) {
        const ClusterView& v = cluster(self.cast<const V&>());
        if (node < 0 || node >= v.nodes()) throw py::index_error(fmt::format("no node {}", node));
        const auto t = v.history().failure_times_s(node);
        return view_of(t.data(), t.size(), self);
      });
  def_node_arrays(
      c, [](const V& s) { return &cluster(s).free(); },
      [](const V& s) { return s.v == nullptr ? nullptr : &s.v->history(); });
}

std::unique_ptr<RuntimeStrategy> make_strategy(Spec spec, const RunContext& ctx) {
  return std::make_unique<PyStrategy>(std::move(spec), ctx);
}

StrategyTraits strategy_traits(const Spec& s, const py::object& instance) {
  return traits_of(needs_of(s, instance));
}

void check_strategy(const Spec& s, const py::object& instance, const Params& point) {
  check_strategy_traits(point, strategy_traits(s, instance), "python:" + s.class_name);
}

}  // namespace faultsweep::policy::python
