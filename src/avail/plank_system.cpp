// Resolves the Plank & Thomason system (N, C, L, R, MTTF, MTTR, RT_a) from explicit parameters
// and the tables of inputs/plank/ (Tables 1-3); explicit values win.
#include "faultsweep/avail/plank_system.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {
namespace {

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

// Tables are read once per process and file: tasks of a sweep resolve the same files thousands
// of times. Keyed by the canonical absolute path; the loaders throw InputError for bad content,
// which is then not cached.
template <class T>
std::shared_ptr<const std::vector<T>> cached_table(
    const std::filesystem::path& file, std::vector<T> (*load)(const std::filesystem::path&)) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const std::vector<T>>> cache;
  std::error_code ec;
  std::filesystem::path key =
      std::filesystem::weakly_canonical(std::filesystem::absolute(file), ec);
  if (ec) key = std::filesystem::absolute(file);
  std::lock_guard lock(mutex);
  auto it = cache.find(key.string());
  if (it != cache.end()) return it->second;
  auto table = std::make_shared<const std::vector<T>>(load(file));
  cache.emplace(key.string(), table);
  return table;
}

std::filesystem::path table_file(const Params& p, const std::filesystem::path& base_dir,
                                 const char* name, const char* needed_by) {
  if (!p.has("plank_inputs"))
    throw InputError(
        "plank_inputs", "",
        fmt::format("required when {} is given (the folder holding {})", needed_by, name));
  const std::filesystem::path given(p.str("plank_inputs"));
  const std::filesystem::path dir = given.is_absolute() ? given : base_dir / given;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError("plank_inputs", quoted(given.string()),
                     fmt::format("folder not found ({})", dir.string()));
  const std::filesystem::path file = dir / name;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError("plank_inputs", quoted(given.string()), fmt::format("folder has no {}", name));
  return file;
}

template <class T>
const T& find_named(const std::vector<T>& rows, const std::string& key, const std::string& name,
                    const std::filesystem::path& file) {
  std::string known;
  for (const T& r : rows) {
    if (r.name == name) return r;
    known += (known.empty() ? "" : ", ") + r.name;
  }
  throw InputError(key, quoted(name), fmt::format("not in {} (known: {})", file.string(), known));
}

std::optional<double> optional_duration(const Params& p, const char* key, bool strictly_positive) {
  if (!p.has(key)) return std::nullopt;
  const double v = p.real(key);
  if (!std::isfinite(v) || v < 0 || (strictly_positive && v == 0))
    throw InputError(key, format_duration(v), strictly_positive ? "must be > 0" : "must be >= 0");
  return v;
}

}  // namespace

std::vector<ParamSpec> plank_system_param_specs() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<ParamSpec> specs;
  auto add = [&](std::string name, ParamKind kind, std::string unit, double min, std::string help) {
    ParamSpec s;
    s.name = std::move(name);
    s.kind = kind;
    s.unit = std::move(unit);
    s.min = min;
    s.max = inf;
    s.help = std::move(help);
    s.optional = true;
    specs.push_back(std::move(s));
  };
  const double none = -inf;
  add("plank_inputs", ParamKind::path, "", none,
      "folder with apps.toml and environments.toml (Plank & Thomason Tables 1-3), relative to "
      "the job file");
  add("app", ParamKind::string, "", none,
      "application in apps.toml (BT, LU, EP): gives RT_a "
      "(Eq. 6) and, with env, C, L, R from the checkpoint size CS_a (Eq. 7)");
  add("env", ParamKind::string, "", none,
      "environment in environments.toml (HIGH, MEDIUM, LOW): gives N, mttf, mttr and the "
      "checkpoint rates");
  add("N", ParamKind::integer, "", 1, "processors in the system (default: env's N, else 32)");
  add("C", ParamKind::duration, "s", 0, "checkpoint overhead (default: CS_a / C rate)");
  add("L", ParamKind::duration, "s", 0, "checkpoint latency (default: CS_a / L rate)");
  add("R", ParamKind::duration, "s", 0, "recovery time (default: CS_a / R rate)");
  add("mttf", ParamKind::duration, "s", 0, "mean time to failure of one processor (> 0)");
  add("mttr", ParamKind::duration, "s", 0, "mean time to repair of one processor (> 0)");
  return specs;
}

PlankSystemResolver::PlankSystemResolver(const Params& p, const std::filesystem::path& base_dir) {
  if (p.has("app")) {
    const auto file = table_file(p, base_dir, "apps.toml", "app");
    app_ = find_named(*cached_table<PlankApp>(file, &load_plank_apps), "app", p.str("app"), file);
  }
  if (p.has("env")) {
    const auto file = table_file(p, base_dir, "environments.toml", "env");
    env_ = find_named(*cached_table<PlankEnv>(file, &load_plank_envs), "env", p.str("env"), file);
  }
  N_ = p.has("N") ? static_cast<int>(p.integer("N")) : env_ ? env_->N : 32;
  if (N_ < 1) throw InputError("N", fmt::format("{}", N_), "must be >= 1");
  C_s_ = optional_duration(p, "C", false);
  L_s_ = optional_duration(p, "L", false);
  R_s_ = optional_duration(p, "R", false);
  const auto mttf = optional_duration(p, "mttf", true);
  const auto mttr = optional_duration(p, "mttr", true);
  if (!mttf && !env_) throw InputError("mttf", "", "required when no env is given");
  if (!mttr && !env_) throw InputError("mttr", "", "required when no env is given");
  mttf_s_ = mttf ? *mttf : env_->mttf_s;
  mttr_s_ = mttr ? *mttr : env_->mttr_s;
  for (const char* key : {"C", "L", "R"}) {
    const bool given = (key[0] == 'C' ? C_s_ : key[0] == 'L' ? L_s_ : R_s_).has_value();
    if (!given && !(app_ && env_))
      throw InputError(key, "", "required unless both app and env are given");
  }
}

PlankSystem PlankSystemResolver::at(int a) const {
  if (a < 1 || a > N_)
    throw InputError("a", fmt::format("{}", a), fmt::format("must be in 1..N = {}", N_));
  PlankSystem s;
  s.N = N_;
  s.mttf_s = mttf_s_;
  s.mttr_s = mttr_s_;
  // Table 3: C_a, L_a, R_a are the checkpoint size CS_a (MB, Eq. 7) over the rates (MB/s).
  const double CS_MB = app_ ? app_->checkpoint_MB(a) : std::numeric_limits<double>::quiet_NaN();
  auto from_table = [&](const std::optional<double>& given, double rate_MBps, const char* key) {
    if (given) return *given;
    const double v = CS_MB / rate_MBps;
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError(key, format_duration(v),
                       fmt::format("checkpoint size CS_a = {} MB of app {} at a = {} gives a "
                                   "negative time; give {} explicitly",
                                   CS_MB, app_->name, a, key));
    return v;
  };
  s.C_s = from_table(C_s_, env_ ? env_->C_rate_MBps : 1.0, "C");
  s.L_s = from_table(L_s_, env_ ? env_->L_rate_MBps : 1.0, "L");
  s.R_s = from_table(R_s_, env_ ? env_->R_rate_MBps : 1.0, "R");
  s.runtime_s = app_ ? app_->runtime_s(a) : std::numeric_limits<double>::quiet_NaN();
  if (app_ && !(s.runtime_s > 0))
    throw InputError(
        "app", quoted(app_->name),
        fmt::format("Eq. 6 gives a running time RT_a = {} s <= 0 at a = {}", s.runtime_s, a));
  return s;
}

PlankSystem resolve_plank_system(const Params& p, const std::filesystem::path& base_dir, int a) {
  return PlankSystemResolver(p, base_dir).at(a);
}

}  // namespace faultsweep::avail
