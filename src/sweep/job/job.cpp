#include "faultsweep/sweep/job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <toml.hpp>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/text_guard.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/models/registry.hpp"
#include "faultsweep/sweep/provenance.hpp"
#include "faultsweep/sweep/space.hpp"
#include "job_loader.hpp"

namespace faultsweep::sweep {
namespace detail {

JobSpec Loader::load() {
  check_toml_text(text_, file_);
  toml::value root;
  try {
    std::istringstream in(text_);
    root = toml::parse(in, file_);
  } catch (const toml::syntax_error& e) {
    throw InputError(
        fmt::format("{}:{}: not valid TOML:\n{}", file_, e.location().line(), e.what()));
  }
  check_integers(root, "");
  job_.file = file_;
  job_.text = text_;
  job_.base_dir = std::filesystem::path(file_).parent_path();
  if (job_.base_dir.empty()) job_.base_dir = ".";
  check_keys(root, "", {"sweep", "params", "axes"});
  if (!root.contains("sweep") || !root.at("sweep").is_table())
    throw InputError(
        fmt::format("{}: missing [sweep] table (with at least model = \"...\")", file_));
  parse_sweep(root.at("sweep"));
  if (root.contains("params")) {
    const toml::value& params = root.at("params");
    if (!params.is_table()) error_at(params, "params", "expected a table");
    for (const auto& [k, v] : ordered(params)) add_fixed(k, *v);
  }
  if (root.contains("axes")) {
    const toml::value& axes = root.at("axes");
    if (!axes.is_table()) error_at(axes, "axes", "expected a table");
    for (const auto& [k, v] : ordered(axes)) add_axis(k, *v);
  }
  fill_defaults();
  expand_points();
  if (root.at("sweep").contains("record")) parse_record(root.at("sweep").at("record"));
  estimate_records(job_);
  job_.text = with_policy_sources(job_);
  return std::move(job_);
}

void Loader::parse_sweep(const toml::value& sweep) {
  sweep_line_ = line_of(sweep);
  check_keys(sweep, "sweep.", {"model", "seed", "output", "replicas", "description", "record"});
  if (!sweep.contains("model"))
    throw InputError("sweep.model", "", "required: the name of a model (see `faultsweep models`)")
        .located(file_, sweep_line_);
  const toml::value& m = sweep.at("model");
  std::vector<std::string> names;
  for (const auto* model : models::all_models()) names.push_back(model->name());
  if (!m.is_string()) error_at(m, "sweep.model", "expected a string naming a model");
  job_.model = models::find_model(m.as_string().str);
  if (!job_.model) {
    const std::string near = nearest(m.as_string().str, names);
    error_at(m, "sweep.model",
             fmt::format("unknown model{}; known models: {}",
                         near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near),
                         fmt::join(names, ", ")));
  }
  job_.seed = 1;
  if (sweep.contains("seed")) {
    const toml::value& s = sweep.at("seed");
    if (!s.is_integer() || s.as_integer() < 0)
      error_at(s, "sweep.seed", "expected a non-negative integer");
    job_.seed = static_cast<std::uint64_t>(s.as_integer());
  }
  job_.output = "results/" + std::filesystem::path(file_).stem().string() + ".h5";
  if (sweep.contains("output")) {
    const toml::value& o = sweep.at("output");
    if (!o.is_string() || o.as_string().str.empty())
      error_at(o, "sweep.output", "expected a file path such as \"results/x.h5\"");
    job_.output = o.as_string().str;
    job_.output_line = line_of(o);
  }
  if (sweep.contains("description")) {
    const toml::value& d = sweep.at("description");
    if (!d.is_string()) error_at(d, "sweep.description", "expected a string");
    job_.description = d.as_string().str;
  }
  const int default_replicas = job_.model->deterministic() ? 1 : 10;
  job_.replicas.min = job_.replicas.max = default_replicas;
  if (sweep.contains("replicas")) parse_replicas(sweep.at("replicas"));
}

void Loader::parse_replicas(const toml::value& v) {
  const bool det = job_.model->deterministic();
  auto positive_int = [&](const toml::value& x, const std::string& key) {
    if (!x.is_integer() || x.as_integer() < 1 || x.as_integer() > 100000000)
      error_at(x, key, "expected an integer from 1 to 100000000");
    return static_cast<int>(x.as_integer());
  };
  if (v.is_integer()) {
    job_.replicas.min = job_.replicas.max = positive_int(v, "sweep.replicas");
  } else if (v.is_table()) {
    check_keys(v, "sweep.replicas.", {"min", "max", "until"});
    if (!v.contains("max") || !v.contains("until"))
      error_at(v, "sweep.replicas",
               "a stopping rule needs max and until, e.g. { min = 10, max = 400, until = { "
               "metric = \"availability\", rel_ci95 = 0.005 } }");
    job_.replicas.max = positive_int(v.at("max"), "sweep.replicas.max");
    job_.replicas.min = v.contains("min") ? positive_int(v.at("min"), "sweep.replicas.min")
                                          : std::min(10, job_.replicas.max);
    if (job_.replicas.max < job_.replicas.min)
      error_at(v.at("max"), "sweep.replicas.max",
               fmt::format("must be >= min = {}", job_.replicas.min));
    const toml::value& u = v.at("until");
    if (!u.is_table())
      error_at(u, "sweep.replicas.until", "expected a table { metric = ..., ci95 = ... }");
    check_keys(u, "sweep.replicas.until.", {"metric", "ci95", "rel_ci95"});
    if (!u.contains("metric") || !u.at("metric").is_string())
      error_at(u, "sweep.replicas.until.metric", "required: the name of a metric of the model");
    job_.replicas.metric = u.at("metric").as_string().str;
    if (job_.metric_index(job_.replicas.metric) < 0) {
      std::vector<std::string> names;
      for (const auto& m : job_.model->metrics()) names.push_back(m.name);
      error_at(u.at("metric"), "sweep.replicas.until.metric",
               fmt::format("not a metric of {}; its metrics: {}", job_.model->name(),
                           fmt::join(names, ", ")));
    }
    const bool abs = u.contains("ci95"), rel = u.contains("rel_ci95");
    if (abs == rel)
      error_at(u, "sweep.replicas.until",
               "give exactly one of ci95 (absolute) or rel_ci95 (relative)");
    const toml::value& t = u.at(abs ? "ci95" : "rel_ci95");
    const std::string tkey = std::string("sweep.replicas.until.") + (abs ? "ci95" : "rel_ci95");
    if (!(t.is_floating() || t.is_integer())) error_at(t, tkey, "expected a positive number");
    const double target = t.is_floating() ? t.as_floating() : static_cast<double>(t.as_integer());
    if (!(target > 0) || !std::isfinite(target)) error_at(t, tkey, "expected a positive number");
    (abs ? job_.replicas.ci95 : job_.replicas.rel_ci95) = target;
    if (job_.replicas.min < 2) job_.replicas.min = 2;  // a CI needs two replicas
  } else {
    error_at(v, "sweep.replicas", "expected an integer or a stopping-rule table");
  }
  if (det && job_.replicas.max != 1)
    error_at(v, "sweep.replicas",
             fmt::format("model {} is deterministic: it runs one replica per point",
                         job_.model->name()));
}

const ParamSpec* Loader::find_spec(const std::string& name) const {
  for (const ParamSpec& s : job_.model->params())
    if (s.name == name) return &s;
  return nullptr;
}

void Loader::add_fixed(const std::string& name, const toml::value& v) {
  const ParamSpec* spec = find_spec(name);
  if (!spec) {
    std::vector<std::string> names;
    for (const ParamSpec& s : job_.model->params()) names.push_back(s.name);
    const std::string near = nearest(name, names);
    error_at(v, "params." + name,
             fmt::format("unknown parameter of model {}{}; its parameters: {}", job_.model->name(),
                         near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near),
                         fmt::join(names, ", ")));
  }
  param_lines_[name] = line_of(v);
  if (spec->kind == ParamKind::table || (spec->python && v.is_table())) {
    if (!v.is_table())
      error_at(v, "params." + name, "expected an inline table { key = value, ... }");
    for (const auto& [k, field] : v.as_table()) {
      param_lines_[name + "." + k] = line_of(field);
      job_.fixed.set(name + "." + k, table_field(*spec, k, field, "params." + name + "." + k));
    }
    return;
  }
  if (spec->kind != ParamKind::dist) {
    job_.fixed.set(name, convert(v, *spec, "params." + name));
    return;
  }
  if (!v.is_table() || !v.contains("dist") || !v.at("dist").is_string())
    error_at(v, "params." + name,
             "expected a distribution table such as { dist = \"exponential\", mean = \"70min\" }");
  for (const auto& [k, field] : v.as_table()) {
    param_lines_[name + "." + k] = line_of(field);
    if (k == "dist") {
      job_.fixed.set(name + ".dist", field.as_string().str);
      continue;
    }
    try {
      job_.fixed.set(name + "." + k, dist_field(this, field));
    } catch (const InputError& e) {
      error_at(field, "params." + name + "." + k, e.expected());
    }
  }
}

void Loader::add_axis(const std::string& name, const toml::value& v) {
  Axis axis;
  axis.name = name;
  if (v.is_table() && v.contains("zip")) {
    check_keys(v, "axes." + name + ".", {"zip"});
    const toml::value& z = v.at("zip");
    if (!z.is_table() || z.as_table().empty())
      error_at(z, "axes." + name + ".zip", "expected a table of equally long lists");
    for (const auto& [k, mv] : ordered(z))
      axis.members.push_back(make_member(k, *mv, "axes." + name + ".zip." + k));
    for (const AxisMember& m : axis.members)
      if (m.values.size() != axis.members.front().values.size())
        error(m.line, "axes." + name + ".zip." + m.key, fmt::format("{} values", m.values.size()),
              fmt::format("zipped lists must have equal lengths ({} has {})",
                          axis.members.front().key, axis.members.front().values.size()));
  } else {
    axis.members.push_back(make_member(name, v, "axes." + name));
  }
  grid_points_ *= axis.size();  // check_axis_size kept this within kMaxPoints
  job_.axes.push_back(std::move(axis));
}

void Loader::fill_defaults() {
  for (const ParamSpec& s : job_.model->params()) {
    if (job_.fixed.has(s.name) || axis_lines_.count(s.name)) continue;
    // A dist or table parameter is stored flattened: present if any of its fields is.
    const bool flattened = s.kind == ParamKind::dist || s.kind == ParamKind::table || s.python;
    if (flattened && !job_.fixed.sub(s.name).values().empty()) continue;
    bool swept_field = false;
    for (const auto& [k, line] : axis_lines_) swept_field |= k.starts_with(s.name + ".");
    if (swept_field && (s.kind == ParamKind::table || s.python))
      continue;  // the model validates the rest
    if (swept_field) {
      if (!job_.fixed.has(s.name + ".dist") && !axis_lines_.count(s.name + ".dist"))
        error(axis_lines_.lower_bound(s.name + ".")->second, "axes." + s.name, "",
              fmt::format("a swept field of {} needs params.{} = {{ dist = ... }} for the rest",
                          s.name, s.name));
      continue;
    }
    if (s.default_value) {
      job_.fixed.set(s.name, *s.default_value);
    } else if (!s.optional) {
      throw InputError("params." + s.name, "",
                       fmt::format("required by model {} ({}{})", job_.model->name(), s.help,
                                   s.unit.empty() ? "" : ", in " + s.unit))
          .located(file_, sweep_line_);
    }
  }
}

int Loader::line_for_key(const std::string& key, std::string* prefix) const {
  for (std::string k = key;;) {
    if (auto it = axis_lines_.find(k); it != axis_lines_.end()) {
      *prefix = "axes.";
      return it->second;
    }
    if (auto it = param_lines_.find(k); it != param_lines_.end()) {
      *prefix = "params.";
      return it->second;
    }
    const auto dot = k.rfind('.');
    if (dot == std::string::npos) break;
    k = k.substr(0, dot);
  }
  *prefix = "params.";
  return sweep_line_;
}

void Loader::expand_points() {
  const std::size_t n = grid_size(job_.axes);
  FS_CHECK(n == grid_points_ && n <= max_points_, "grid size not checked");
  check_memory(n);
  job_.points.reserve(n);
  job_.costs.reserve(n);
  for (std::size_t p = 0; p < n; ++p) {
    Params point = job_.fixed;
    const auto coords = grid_coordinates(job_.axes, p);
    std::string where;
    for (std::size_t a = 0; a < job_.axes.size(); ++a)
      for (const AxisMember& m : job_.axes[a].members) {
        point.set(m.key, m.values[coords[a]]);
        where += fmt::format("{}{}={}", where.empty() ? "" : ", ", m.key,
                             canonical_value(m.values[coords[a]]));
      }
    try {
      for (const auto& s : job_.model->params()) {
        if (s.kind != ParamKind::dist || !point.has(s.name + ".dist")) continue;
        try {
          (void)dist::Dist::from_params(point.sub(s.name));
        } catch (const InputError& e) {
          throw InputError(s.name + "." + e.key(), e.value(), e.expected());
        }
      }
      job_.model->validate(point, job_.base_dir);
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      std::string prefix;
      const int line = line_for_key(e.key(), &prefix);
      InputError located = e.located(file_, line, prefix);
      if (where.empty()) throw located;
      throw InputError(fmt::format("{} (at the point {})", located.what(), where));
    }
    job_.costs.push_back(job_.model->cost(point, job_.base_dir));
    job_.points.push_back(std::move(point));
  }
}

}  // namespace detail

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diag + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

using detail::Loader;

int JobSpec::metric_index(const std::string& name) const {
  const auto& ms = model->metrics();
  for (std::size_t i = 0; i < ms.size(); ++i)
    if (ms[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

JobSpec parse_job(const std::string& text, const std::string& file, std::uint64_t max_points) {
  return Loader(file, text, std::min(max_points, kMaxPoints)).load();
}

JobSpec load_job(const std::string& path) {
  return parse_job(read_text_file(path, "job file"), path);
}

}  // namespace faultsweep::sweep
