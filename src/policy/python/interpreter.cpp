// The embedded interpreter: started once per process, and only when a job names a Python
// policy (the first Gil or load).
#include <filesystem>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/install_dirs.hpp"
#include "internal.hpp"

// The engine's views, importable by the policy API (faultsweep_policy).
PYBIND11_EMBEDDED_MODULE(_faultsweep_engine, m) {
  faultsweep::policy::python::bind_allocator_view(m);
  faultsweep::policy::python::bind_queue_view(m);
  faultsweep::policy::python::bind_size_view(m);
  faultsweep::policy::python::bind_strategy_view(m);
}

namespace faultsweep::policy::python {

namespace {

// The folder holding faultsweep_policy/: share/faultsweep/python of an installed tree, else
// the source tree's python/ (a binary run from its build folder).
std::filesystem::path api_dir() {
  std::error_code ec;
  const std::filesystem::path share = share_dir();
  if (!share.empty() && std::filesystem::is_directory(share / "python" / "faultsweep_policy", ec))
    return share / "python";
  return FAULTSWEEP_PYTHON_SOURCE_DIR;
}

bool start_once() {
  if (!Py_IsInitialized()) {
    py::initialize_interpreter(false, 0, nullptr, false);
    PyEval_SaveThread();  // every use takes the GIL through Gil, from any thread
  }
  const PyGILState_STATE gil = PyGILState_Ensure();
  std::string error;
  try {
    py::module_ sys = py::module_::import("sys");
    // No __pycache__ next to the user's policy files: a run writes only its results.
    sys.attr("dont_write_bytecode") = true;
    sys.attr("path").attr("insert")(0, api_dir().string());
    py::module_::import("_faultsweep_engine");
    py::module_::import("faultsweep_policy._loader");
  } catch (py::error_already_set& e) {
    error = e.what();
  }
  PyGILState_Release(gil);
  if (!error.empty())
    throw InputError("cannot load the Python policy API from " + api_dir().string() + ": " + error);
  return true;
}

}  // namespace

py::array_t<bool> mask_of(const NodeSet& set) {
  py::array_t<bool> a(set.nodes());
  bool* out = a.mutable_data();
  const auto& words = set.words();
  for (int n = 0; n < set.nodes(); ++n)
    out[n] = ((words[static_cast<std::size_t>(n) >> 6] >> (n & 63)) & 1U) != 0;
  return a;
}

void start() {
  static const bool started = start_once();
  (void)started;
}

}  // namespace faultsweep::policy::python
