// Reads inputs/plank/apps.toml and environments.toml (Plank & Thomason Tables 1-3). Every
// problem is an InputError located at the file and the line of the offending value.
#include "faultsweep/avail/plank_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <toml.hpp>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/text_guard.hpp"

namespace faultsweep::avail {
namespace {

int line_of(const toml::value& v) {
  return static_cast<int>(v.location().line());
}

std::string text_of(const toml::value& v) {
  if (v.is_table()) return "{...}";
  std::string s = toml::format(v);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

  toml::value parse() const {
    const std::string text = read_text_file(file_, "Plank & Thomason table");
    check_toml_text(text, file_.string());
    try {
      std::istringstream in(text);
      return toml::parse(in, file_.string());
    } catch (const toml::syntax_error& e) {
      throw InputError(fmt::format("TOML syntax error: {}", e.what()))
          .located(file_.string(), static_cast<int>(e.location().line()));
    }
  }

  [[noreturn]] void fail(const toml::value& v, const std::string& key,
                         const std::string& expected) const {
    throw InputError(key, text_of(v), expected).located(file_.string(), line_of(v));
  }

  // Every key of table `t` must be in `allowed`.
  void check_keys(const toml::value& t, const std::string& name,
                  const std::set<std::string>& allowed) const {
    for (const auto& [k, v] : t.as_table())
      if (!allowed.count(k)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(v, name + "." + k, fmt::format("unknown key (allowed: {})", list));
      }
  }

  const toml::value& need(const toml::value& t, const std::string& name,
                          const std::string& key) const {
    const auto& tab = t.as_table();
    auto it = tab.find(key);
    if (it == tab.end())
      throw InputError(name + "." + key, "", "required key missing")
          .located(file_.string(), line_of(t));
    return it->second;
  }

  double number(const toml::value& v, const std::string& key) const {
    if (v.is_floating()) return v.as_floating();
    if (v.is_integer()) return static_cast<double>(v.as_integer());
    fail(v, key, "expected a number");
  }

  double positive(const toml::value& v, const std::string& key) const {
    const double x = number(v, key);
    if (!(x > 0) || !std::isfinite(x)) fail(v, key, "must be > 0 and finite");
    return x;
  }

  double duration_s(const toml::value& v, const std::string& key) const {
    double s;
    if (v.is_string()) {
      try {
        s = parse_duration_s(v.as_string().str);
      } catch (const InputError& e) {
        fail(v, key, e.expected());
      }
    } else {
      s = number(v, key);  // a bare number is seconds
    }
    if (!(s > 0) || !std::isfinite(s)) fail(v, key, "must be a duration > 0");
    return s;
  }

  void four_numbers(const toml::value& v, const std::string& key, double out[4]) const {
    if (!v.is_array() || v.as_array().size() != 4) fail(v, key, "expected an array of 4 numbers");
    for (int i = 0; i < 4; ++i) {
      out[i] = number(v.as_array()[i], fmt::format("{}[{}]", key, i));
      if (!std::isfinite(out[i]))
        fail(v.as_array()[i], fmt::format("{}[{}]", key, i), "must be finite");
    }
  }

  // The tables at the top level, in file order (toml11 keeps them in a hash map).
  std::vector<std::pair<std::string, const toml::value*>> tables(const toml::value& root) const {
    std::vector<std::pair<std::string, const toml::value*>> out;
    for (const auto& [k, v] : root.as_table()) {
      if (!v.is_table()) fail(v, k, "expected a table [" + k + "]");
      out.emplace_back(k, &v);
    }
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
      return std::pair(line_of(*x.second), x.first) < std::pair(line_of(*y.second), y.first);
    });
    if (out.empty()) throw InputError(fmt::format("{}: no entries", file_.string()));
    return out;
  }

 private:
  std::filesystem::path file_;
};

}  // namespace

double PlankApp::runtime_s(int a) const {
  return b[0] * r / a + b[1] / a + b[2] * r + b[3];  // Plank & Thomason Eq. 6
}

double PlankApp::checkpoint_MB(int a) const {
  return c[0] * z * a + c[1] * a + c[2] * z + c[3];  // Plank & Thomason Eq. 7
}

std::vector<PlankApp> load_plank_apps(const std::filesystem::path& file) {
  const Reader rd(file);
  const toml::value root = rd.parse();
  std::vector<PlankApp> apps;
  for (const auto& entry : rd.tables(root)) {
    // (not a structured binding: clang 14 cannot capture those in the lambdas below)
    const std::string& name = entry.first;
    const toml::value* tp = entry.second;
    const toml::value& t = *tp;
    rd.check_keys(t, name, {"description", "b", "c", "problem", "matrix_size", "random_numbers"});
    PlankApp app;
    app.name = name;
    rd.four_numbers(rd.need(t, name, "b"), name + ".b", app.b);
    rd.four_numbers(rd.need(t, name, "c"), name + ".c", app.c);
    const toml::value& problem = rd.need(t, name, "problem");
    const std::string kind = problem.is_string() ? problem.as_string().str : "";
    // Table 1: r and z from the problem size.
    auto forbid = [&](const char* key) {
      if (t.as_table().count(key))
        rd.fail(t.as_table().at(key), name + "." + key,
                fmt::format("not used with problem = \"{}\"", kind));
    };
    if (kind == "matrix") {
      forbid("random_numbers");
      const toml::value& n = rd.need(t, name, "matrix_size");
      if (!n.is_integer() || n.as_integer() < 1)
        rd.fail(n, name + ".matrix_size", "expected a positive integer");
      const double m = static_cast<double>(n.as_integer());
      app.r = m * m * m;
      app.z = m * m;
    } else if (kind == "random_numbers") {
      forbid("matrix_size");
      const double count =
          rd.positive(rd.need(t, name, "random_numbers"), name + ".random_numbers");
      app.r = count / 67108864.0;  // 2^26
      app.z = 1;
    } else {
      rd.fail(problem, name + ".problem", "expected \"matrix\" or \"random_numbers\"");
    }
    if (t.as_table().count("description") && !t.as_table().at("description").is_string())
      rd.fail(t.as_table().at("description"), name + ".description", "expected a string");
    apps.push_back(app);
  }
  return apps;
}

std::vector<PlankEnv> load_plank_envs(const std::filesystem::path& file) {
  const Reader rd(file);
  const toml::value root = rd.parse();
  std::vector<PlankEnv> envs;
  for (const auto& entry : rd.tables(root)) {
    // (not a structured binding: clang 14 cannot capture those in the lambdas below)
    const std::string& name = entry.first;
    const toml::value* tp = entry.second;
    const toml::value& t = *tp;
    rd.check_keys(
        t, name, {"description", "N", "mttf", "mttr", "C_rate_MBps", "L_rate_MBps", "R_rate_MBps"});
    PlankEnv env;
    env.name = name;
    const toml::value& n = rd.need(t, name, "N");
    if (!n.is_integer() || n.as_integer() < 1 || n.as_integer() > 100000)
      rd.fail(n, name + ".N", "expected an integer in 1..100000");
    env.N = static_cast<int>(n.as_integer());
    env.mttf_s = rd.duration_s(rd.need(t, name, "mttf"), name + ".mttf");
    env.mttr_s = rd.duration_s(rd.need(t, name, "mttr"), name + ".mttr");
    env.C_rate_MBps = rd.positive(rd.need(t, name, "C_rate_MBps"), name + ".C_rate_MBps");
    env.L_rate_MBps = rd.positive(rd.need(t, name, "L_rate_MBps"), name + ".L_rate_MBps");
    env.R_rate_MBps = rd.positive(rd.need(t, name, "R_rate_MBps"), name + ".R_rate_MBps");
    if (t.as_table().count("description") && !t.as_table().at("description").is_string())
      rd.fail(t.as_table().at("description"), name + ".description", "expected a string");
    envs.push_back(env);
  }
  return envs;
}

}  // namespace faultsweep::avail
