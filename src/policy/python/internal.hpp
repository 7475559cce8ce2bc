#pragma once
// Shared by the Python policy adapters: the interpreter, the class loader and array views over
// engine memory. Every function here expects the GIL to be held (see Gil), except start().
#include <pybind11/embed.h>
#include <pybind11/numpy.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"

namespace faultsweep::policy::python {

namespace py = pybind11;

// Starts the interpreter once per process, without Python's signal handlers (SIGTERM,
// SIGUSR1 and SIGINT keep faultsweep's: a stop still ends the run between two policy calls),
// puts the policy API on sys.path and releases the GIL.
void start();

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
  Params params;  // the other keys
};
Spec spec_of(const Params& point, std::string_view key, const std::filesystem::path& base_dir);

// The class, checked (file imports, class exists, method and signature, parameters);
// InputError naming the table's key and the Python file:line otherwise.
py::object load_class(const Spec& s);
// A fresh instance for one replica, its numpy generator seeded from the task's stream.
py::object make_instance(const Spec& s, const py::object& cls, const RunContext& ctx);

// An exception the policy raised during a run: a runtime error (exit 4) naming the policy,
// the simulated time and the traceback.
[[noreturn]] void fail_call(const Spec& s, double now_s, py::error_already_set& e);
// A decision the engine refuses: a runtime error naming the policy and the rule.
[[noreturn]] void refuse(const Spec& s, double now_s, const std::string& rule);

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

void bind_allocator_view(py::module_& m);
void bind_queue_view(py::module_& m);

}  // namespace faultsweep::policy::python
