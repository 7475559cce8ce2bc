#pragma once
// Shared by the Python policy adapters: the interpreter, the class loader and array views over
// engine memory. Every function here expects the GIL to be held (see Gil), except start().
#include <pybind11/embed.h>
#include <pybind11/numpy.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/failures/node_history.hpp"
#include "faultsweep/policy/node_set.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy::python {

namespace py = pybind11;

// Starts the interpreter once per process, without Python's signal handlers (SIGTERM,
// SIGUSR1 and SIGINT keep faultsweep's; a call under way is cut by the watcher, see Watched),
// puts the policy API on sys.path and releases the GIL.
void start();
// Starts the thread that cuts watched calls (watch.cpp); once, by start(), with the GIL held.
void start_watcher();

// Holds the GIL for its lifetime, from any thread. An adapter holds one for the whole replica
// (declared first, released last): one acquisition per replica, not per call.
class Gil {
 public:
  Gil() : state_((start(), PyGILState_Ensure())) {}
  ~Gil() { PyGILState_Release(state_); }
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  PyGILState_STATE state_;
};

// What a point names: `key = { python = "file.py", class = "Name", <parameters> }`.
struct Spec {
  std::string key;             // "allocator", "queue"
  std::string file_text;       // as written in the job
  std::filesystem::path file;  // resolved against the job file's folder
  std::string class_name;
  double time_limit_s = kDefaultTimeLimit_s;  // of one call: `time_limit`
  Params params;                              // the other keys
  // A generous bound: a policy's call takes microseconds to milliseconds.
  static constexpr double kDefaultTimeLimit_s = 60.0;
};
Spec spec_of(const Params& point, std::string_view key, const std::filesystem::path& base_dir);

// The class, checked (file imports, class exists, method and signature, parameters);
// InputError naming the table's key and the Python file:line otherwise.
py::object load_class(const Spec& s);
// A fresh instance for one replica, its numpy generator seeded from the task's stream.
py::object make_instance(const Spec& s, const py::object& cls, const RunContext& ctx);

// A PolicyError(field, message) of the loader as an InputError on key.field; any other error
// as an InputError on key.python.
[[noreturn]] void rethrow_input(const Spec& s, py::error_already_set& e);

// An exception the policy raised during a run: a runtime error (exit 4) naming the policy,
// the simulated time and the traceback.
[[noreturn]] void fail_call(const Spec& s, double now_s, py::error_already_set& e);
// A decision the engine refuses: a runtime error naming the policy and the rule.
[[noreturn]] void refuse(const Spec& s, double now_s, const std::string& rule);

// A policy's answer read as integers (node ids, queue positions): a 1-d numpy integer array as
// it is, any other sequence element by element; refused (refuse) naming the first value that
// is not an integer (a float, a bool, a string) or does not fit 64 bits. `what`: "allocate()".
py::array_t<std::int64_t> integers_of(const Spec& s, double now_s, const py::object& result,
                                      const char* what);
// One integer (a size), refused the same way.
std::int64_t integer_of(const Spec& s, double now_s, const py::object& result, const char* what);

// One call into a policy's code (a method, its import, __init__), watched while it runs (the GIL
// held): a stop request or the spec's time limit raises an exception inside it (watch.cpp).
// After a Python exception, check() turns a cut call into the stop path (Interrupted: the task
// runs again on resume) or an InputError naming the policy, the call (`what`: "allocate()") and
// the simulated time now_s (NaN: before the simulation). A call inside a watched one is part of
// that one.
class Watched {
 public:
  enum Cut { none = 0, stop = 1, time_limit = 2 };
  Watched(const Spec& s, std::string what, double now_s);
  ~Watched();
  Watched(const Watched&) = delete;
  Watched& operator=(const Watched&) = delete;
  Cut cut() const;
  void check() const;  // throws if the call was cut

 private:
  const Spec& spec_;
  std::string what_;
  double now_s_;
  std::uint64_t call_ = 0;  // 0: not watched (inside another call)
};

// What every adapter holds: the GIL for its whole lifetime (first member: taken first, released
// last), the policy's class and fresh instance, the bound method the engine calls and the one
// view object passed to it (its fields are set before each call).
template <class View>
struct Bound {
  Bound(Spec s, const RunContext& ctx, const char* method_name)
      : spec(std::move(s)),
        method(std::string(method_name) + "()"),
        name("python:" + spec.class_name),
        cls(load_class(spec)),
        instance(make_instance(spec, cls, ctx)),
        call(instance.attr(method_name)),
        view_obj(py::cast(View{})),
        view(view_obj.template cast<View*>()) {}
  ~Bound() {
    // Drop the Python references while the GIL is held.
    view_obj = py::object();
    call = py::object();
    instance = py::object();
    cls = py::object();
  }
  Bound(const Bound&) = delete;
  Bound& operator=(const Bound&) = delete;

  // The engine's call: the method with the view and `args`, watched. An exception the policy
  // raises ends the run (fail_call), naming the simulated time now_s.
  template <class... Args>
  py::object invoke(double now_s, Args&&... args) {
    const Watched w(spec, method, now_s);
    try {
      return call(view_obj, std::forward<Args>(args)...);
    } catch (py::error_already_set& e) {
      w.check();
      fail_call(spec, now_s, e);
    }
  }

  Gil gil;
  Spec spec;
  std::string method;  // "allocate()", for messages
  std::string name;
  py::object cls, instance, call, view_obj;
  View* view;
};

// A read-only numpy array over engine memory (no copy), valid while the engine keeps it;
// `owner` is kept alive by the array. `stride` in bytes.
template <class T>
py::array_t<T> view_of(const T* data, std::size_t n, py::handle owner,
                       std::size_t stride = sizeof(T)) {
  static const T kEmpty{};
  py::array_t<T> a({static_cast<py::ssize_t>(n)}, {static_cast<py::ssize_t>(stride)},
                   n == 0 ? &kEmpty : data, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// One entry per node: in the set (a copy: the engine keeps a bitset).
py::array_t<bool> mask_of(const NodeSet& set);

// The node arrays every placement view has: `free` (bool per node), `free_words` (the bitset,
// no copy) and the history's `failures`, `last_failure`, `last_repair` (no copy). `free_of(v)`
// and `history_of(v)` give the view's NodeSet* and NodeHistory* (null: none).
template <class V, class Free, class History>
void def_node_arrays(py::class_<V>& c, Free free_of, History history_of) {
  static const failures::NodeHistory kNone;
  const auto h = [=](py::object self) -> const failures::NodeHistory& {
    const failures::NodeHistory* p = history_of(self.cast<const V&>());
    return p != nullptr ? *p : kNone;
  };
  c.def_property_readonly("free", [=](const V& v) { return mask_of(*free_of(v)); });
  c.def_property_readonly("free_words", [=](py::object self) {
    const auto& w = free_of(self.cast<const V&>())->words();
    return view_of(w.data(), w.size(), self);
  });
  c.def_property_readonly("failures", [=](py::object self) {
    const auto s = h(self).failure_counts();
    return view_of(s.data(), s.size(), self);
  });
  c.def_property_readonly("last_failure", [=](py::object self) {
    const auto s = h(self).last_failures_s();
    return view_of(s.data(), s.size(), self);
  });
  c.def_property_readonly("last_repair", [=](py::object self) {
    const auto s = h(self).last_repairs_s();
    return view_of(s.data(), s.size(), self);
  });
}

// The class of a placement view (an allocator's, a size chooser's): `now` and `job` from
// `request_of(v)` (a request with now_s and job), and the node arrays of def_node_arrays.
template <class V, class Request, class Free, class History>
py::class_<V> bind_placement_view(py::module_& m, const char* name, Request request_of,
                                  Free free_of, History history_of) {
  py::class_<V> c(m, name);
  c.def_property_readonly("now", [=](const V& v) { return request_of(v).now_s; });
  c.def_property_readonly("job", [=](const V& v) { return request_of(v).job; });
  def_node_arrays(c, free_of, history_of);
  return c;
}

void bind_allocator_view(py::module_& m);
void bind_size_view(py::module_& m);
void bind_queue_view(py::module_& m);
void bind_strategy_view(py::module_& m);

// The traits a strategy instance declares (its class attributes, as __init__ leaves them).
StrategyTraits strategy_traits(const Spec& s, const py::object& instance);
// A strategy instance's needs and traits checked against the point (validate_python).
void check_strategy(const Spec& s, const py::object& instance, const Params& point);

}  // namespace faultsweep::policy::python
