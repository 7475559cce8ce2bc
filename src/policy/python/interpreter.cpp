// The embedded interpreter: started once per process, and only when a job names a Python
// policy (the first Gil or load).
#include <fmt/format.h>

#include <cstdlib>
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

// What the environment gets wrong is not a bug of faultsweep, nor bad input: exit 3 with one
// line (docs/command-line.md).
IoError broken_python(const std::string& why) {
  return IoError(fmt::format(
      "the Python that runs the job's policies cannot start: {} (faultsweep embeds the Python "
      "{}.{} it was built with; check PYTHONHOME and PYTHONPATH, or unset them)",
      why, PY_MAJOR_VERSION, PY_MINOR_VERSION));
}

// A PYTHONHOME without the standard library makes Python print its path configuration over
// many lines and fail: said here in one line instead, before it starts.
void check_python_home() {
  const char* home = std::getenv("PYTHONHOME");
  if (home == nullptr || *home == '\0') return;
  const std::string prefix = std::string(home).substr(0, std::string(home).find(':'));
  const std::filesystem::path lib = std::filesystem::path(prefix) / "lib" /
                                    fmt::format("python{}.{}", PY_MAJOR_VERSION, PY_MINOR_VERSION);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(lib / "encodings" / "__init__.py", ec))
    throw broken_python(fmt::format("PYTHONHOME={} holds no Python {}.{} standard library (no {})",
                                    home, PY_MAJOR_VERSION, PY_MINOR_VERSION,
                                    (lib / "encodings" / "__init__.py").string()));
}

void initialize() {
  check_python_home();
  // UTF-8 mode: a policy's path is UTF-8 text from the job file, whatever the locale (the
  // program never sets one, and under LANG=C Python would take paths as ASCII).
  PyPreConfig pre;
  PyPreConfig_InitIsolatedConfig(&pre);
  pre.utf8_mode = 1;
  PyStatus st = Py_PreInitialize(&pre);
  if (PyStatus_Exception(st) != 0) throw broken_python(st.err_msg != nullptr ? st.err_msg : "?");
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.isolated = 0;
  config.use_environment = 1;  // PYTHONPATH: a policy may import the user's modules
  // No Python signal handlers: SIGTERM, SIGINT and SIGUSR1 keep faultsweep's (watch.cpp).
  config.install_signal_handlers = 0;
  st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st) != 0) throw broken_python(st.err_msg != nullptr ? st.err_msg : "?");
}

// The first line of a Python error (pybind11 adds the traceback below it).
std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

bool start_once() {
  if (!Py_IsInitialized()) {
    initialize();
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
    start_watcher();
  } catch (py::error_already_set& e) {
    error = e.what();
    if (error.empty()) error = "?";
  }
  PyGILState_Release(gil);
  // numpy missing, or the API not installed beside the binary: the installation, not the job.
  if (!error.empty())
    throw broken_python(fmt::format("cannot load the policy API from {}: {}", api_dir().string(),
                                    first_line(error)));
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
  // Tried once: a failed start is not retried (Python cannot be initialised twice), only said.
  static const std::string error = [] {
    try {
      start_once();
      return std::string();
    } catch (const IoError& e) {
      return std::string(e.what());
    }
  }();
  if (!error.empty()) throw IoError(error);
}

}  // namespace faultsweep::policy::python
