// Which points name a Python policy, loading and checking its class, and the factories that
// pick a built-in policy or a Python one.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/python.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "internal.hpp"

namespace faultsweep::policy {

// Defined by the adapters (allocator.cpp, queue.cpp).
namespace python {
// Each adapter takes the GIL first and holds it for its lifetime: the holds nest (last taken,
// first released), which PyGILState requires.
std::unique_ptr<Allocator> make_allocator(Spec spec, const RunContext& ctx);
std::unique_ptr<QueuePolicy> make_queue(Spec spec, const RunContext& ctx);
std::unique_ptr<SizeChooser> make_size_chooser(Spec spec, const RunContext& ctx);
std::unique_ptr<RuntimeStrategy> make_strategy(Spec spec, const RunContext& ctx);
}  // namespace python

bool names_python(const Params& point, std::string_view key) {
  return !point.has(key) && !point.sub(key).values().empty();
}

namespace python {

Spec spec_of(const Params& point, std::string_view key, const std::filesystem::path& base_dir) {
  Spec s;
  s.key = key;
  const Params t = point.sub(key);
  for (const char* field : {"python", "class"}) {
    const auto it = t.values().find(field);
    if (it == t.values().end() || !std::holds_alternative<std::string>(it->second))
      throw InputError(s.key + "." + field, it == t.values().end() ? "(missing)" : "",
                       std::string(field) == "python"
                           ? "the policy's .py file (relative to the job file), as in " + s.key +
                                 " = { python = \"policies/x.py\", class = \"X\", ... }"
                           : "the name of the policy's class in " + s.key + ".python");
  }
  s.file_text = t.str("python");
  const std::filesystem::path f(s.file_text);
  s.file = f.is_absolute() ? f : base_dir / f;
  s.class_name = t.str("class");
  for (const auto& [k, v] : t.values())
    if (k != "python" && k != "class" && k != "time_limit") s.params.set(k, v);
  if (t.has("time_limit")) {
    const Value& v = t.at("time_limit");
    double limit_s = std::numeric_limits<double>::quiet_NaN();
    try {
      if (const auto* text = std::get_if<std::string>(&v)) limit_s = parse_duration_s(*text);
      if (const auto* x = std::get_if<double>(&v)) limit_s = *x;
      if (const auto* n = std::get_if<std::int64_t>(&v)) limit_s = static_cast<double>(*n);
    } catch (const InputError&) {
    }
    if (!(limit_s > 0 && std::isfinite(limit_s)))
      throw InputError(s.key + ".time_limit", canonical_value(v),
                       "a duration > 0 that one call of the policy may take, such as \"60s\" or "
                       "\"10min\" (a bare number: seconds)");
    s.time_limit_s = limit_s;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(s.file, ec))
    throw InputError(s.key + ".python", "\"" + s.file_text + "\"",
                     "a Python file (looked for " + s.file.string() + ")");
  return s;
}

namespace {

py::dict dict_of(const Params& p) {
  py::dict d;
  // No structured binding: clang 14 (the fuzz build) refuses one captured by a lambda.
  for (const auto& entry : p.values()) {
    const auto& key = entry.first;
    std::visit([&](const auto& x) { d[py::str(key)] = py::cast(x); }, entry.second);
  }
  return d;
}

py::module_ loader() {
  return py::module_::import("faultsweep_policy._loader");
}

}  // namespace

void rethrow_input(const Spec& s, py::error_already_set& e) {
  const py::tuple args = e.value().attr("args");
  if (e.matches(loader().attr("PolicyError")) && py::len(args) == 2) {
    const std::string field = args[0].cast<std::string>();
    const std::string value = field == "python"  ? "\"" + s.file_text + "\""
                              : field == "class" ? "\"" + s.class_name + "\""
                                                 : canonical_value(s.params.at(field));
    throw InputError(s.key + "." + field, value, args[1].cast<std::string>());
  }
  throw InputError(s.key + ".python", "\"" + s.file_text + "\"", e.what());
}

py::object load_class(const Spec& s) {
  py::list keys;
  for (const auto& [k, v] : s.params.values()) keys.append(k);
  // The bytes this process read once (or was given by rank 0), not the file as it is now.
  const py::bytes source(policy_source(s.file));
  const Watched w(s, "the import of its file", std::numeric_limits<double>::quiet_NaN());
  try {
    return loader().attr("load_class")(s.file.string(), s.class_name, s.key, keys, source);
  } catch (py::error_already_set& e) {
    w.check();
    rethrow_input(s, e);
  }
}

py::object make_instance(const Spec& s, const py::object& cls, const RunContext& ctx) {
  // The policy's own stream, keyed by its kind, class and parameters (not by where its file
  // lives): its draws never shift the failures, jobs or other policies' streams, and depend
  // only on (seed, replica, policy).
  Engine e = ctx.stream(Purpose::policy,
                        s.key + "\nclass=" + s.class_name + "\n" + s.params.canonical_text());
  py::list words;
  for (int i = 0; i < 4; ++i) words.append(py::int_(static_cast<std::uint64_t>(e())));
  const Watched w(s, s.class_name + "(...) (__init__)", std::numeric_limits<double>::quiet_NaN());
  try {
    return loader().attr("make")(cls, s.file.string(), dict_of(s.params), words);
  } catch (py::error_already_set& err) {
    w.check();
    rethrow_input(s, err);
  }
}

void fail_call(const Spec& s, double now_s, py::error_already_set& e) {
  std::string text = e.what();
  try {
    text = loader().attr("describe")(e.value(), e.trace(), s.file.string()).cast<std::string>();
  } catch (py::error_already_set&) {
  }
  throw std::runtime_error(
      fmt::format("Python {} {} ({}) raised an exception at simulated time {:.17g} s: {}", s.key,
                  s.class_name, s.file_text, now_s, text));
}

void refuse(const Spec& s, double now_s, const std::string& rule) {
  throw std::runtime_error(fmt::format("Python {} {} ({}) at simulated time {:.17g} s: {}", s.key,
                                       s.class_name, s.file_text, now_s, rule));
}

py::array_t<std::int64_t> integers_of(const Spec& s, double now_s, const py::object& result,
                                      const char* what) {
  using Ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
  // The usual answer (np.flatnonzero(...)[:count], an int64 array) costs no Python call; a
  // uint64 array may hold values beyond int64 and takes the checked way.
  if (py::isinstance<py::array>(result)) {
    const auto a = py::reinterpret_borrow<py::array>(result);
    const char kind = a.dtype().kind();
    if (a.ndim() == 1 && (kind == 'i' || (kind == 'u' && a.itemsize() < 8))) return Ints::ensure(a);
  }
  try {
    return Ints::ensure(loader().attr("integers")(result, what));
  } catch (py::error_already_set& e) {
    if (e.matches(loader().attr("AnswerError")))
      refuse(s, now_s, py::str(e.value()).cast<std::string>());
    fail_call(s, now_s, e);
  }
}

std::int64_t integer_of(const Spec& s, double now_s, const py::object& result, const char* what) {
  if (PyLong_CheckExact(result.ptr())) {  // the usual answer: no Python call
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(result.ptr(), &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred())) return v;
    PyErr_Clear();
  }
  try {
    return loader().attr("integer")(result, what).cast<std::int64_t>();
  } catch (py::error_already_set& e) {
    if (e.matches(loader().attr("AnswerError")))
      refuse(s, now_s, py::str(e.value()).cast<std::string>());
    fail_call(s, now_s, e);
  }
}

}  // namespace python

void validate_python(const Params& point, std::string_view key,
                     const std::filesystem::path& base_dir) {
  const python::Spec s = python::spec_of(point, key, base_dir);
  python::Gil gil;
  const python::py::object cls = python::load_class(s);
  RunContext ctx;
  ctx.base_dir = base_dir;
  // Its __init__ runs here, before any output.
  const python::py::object instance = python::make_instance(s, cls, ctx);
  if (key == "strategy") python::check_strategy(s, instance, point);
}

StrategyTraits strategy_traits(const Params& point, const std::filesystem::path& base_dir) {
  if (!names_python(point, "strategy")) return strategy_row(point).traits;
  const python::Spec s = python::spec_of(point, "strategy", base_dir);
  python::Gil gil;
  // Read once per class and parameters (every replica asks): the map is guarded by the GIL.
  static std::map<std::string, StrategyTraits> known;
  const std::string key = s.file.string() + "\n" + s.class_name + "\n" + s.params.canonical_text();
  if (const auto it = known.find(key); it != known.end()) return it->second;
  RunContext ctx;
  ctx.base_dir = base_dir;
  const python::py::object instance = python::make_instance(s, python::load_class(s), ctx);
  return known.emplace(key, python::strategy_traits(s, instance)).first->second;
}

std::vector<std::filesystem::path> python_policy_files(const Params& point,
                                                       const std::filesystem::path& base_dir) {
  std::vector<std::filesystem::path> out;
  for (const char* key : {"queue", "allocator", "moldable_size", "strategy"})
    if (names_python(point, key) && point.has(std::string(key) + ".python")) {
      const std::filesystem::path f(point.str(std::string(key) + ".python"));
      out.push_back(f.is_absolute() ? f : base_dir / f);
    }
  return out;
}

std::unique_ptr<QueuePolicy> make_point_queue(const Params& point, const RunContext& ctx) {
  if (!names_python(point, "queue")) return make_queue_policy(point.str("queue"));
  return python::make_queue(python::spec_of(point, "queue", ctx.base_dir), ctx);
}

std::unique_ptr<Allocator> make_point_allocator(const Params& point, const RunContext& ctx) {
  if (!names_python(point, "allocator")) return make_point_allocator(point);
  return python::make_allocator(python::spec_of(point, "allocator", ctx.base_dir), ctx);
}

}  // namespace faultsweep::policy

namespace faultsweep::policy {

std::unique_ptr<SizeChooser> make_point_size_chooser(const Params& point, const RunContext& ctx) {
  if (!names_python(point, "moldable_size")) return make_point_size_chooser(point);
  return python::make_size_chooser(python::spec_of(point, "moldable_size", ctx.base_dir), ctx);
}

std::unique_ptr<RuntimeStrategy> make_point_strategy(const Params& point, const RunContext& ctx) {
  if (!names_python(point, "strategy")) return strategy_row(point).make(point);
  return python::make_strategy(python::spec_of(point, "strategy", ctx.base_dir), ctx);
}

}  // namespace faultsweep::policy
