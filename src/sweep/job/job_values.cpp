#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/sweep/space.hpp"
#include "job_loader.hpp"

namespace faultsweep::sweep::detail {

int line_of(const toml::value& v) {
  return static_cast<int>(v.location().line());
}

std::string show(const toml::value& v) {
  if (v.is_string()) return "\"" + v.as_string().str + "\"";
  if (v.is_integer()) return fmt::format("{}", v.as_integer());
  if (v.is_floating()) return fmt::format("{}", v.as_floating());
  if (v.is_boolean()) return v.as_boolean() ? "true" : "false";
  if (v.is_array()) {
    std::string s = "[";
    for (const auto& e : v.as_array()) s += (s.size() > 1 ? ", " : "") + show(e);
    return s + "]";
  }
  if (v.is_table()) return "{...}";
  return "?";
}

const char* type_name(const toml::value& v) {
  if (v.is_string()) return "a string";
  if (v.is_integer()) return "an integer";
  if (v.is_floating()) return "a float";
  if (v.is_boolean()) return "a boolean";
  if (v.is_array()) return "an array";
  if (v.is_table()) return "a table";
  return "a date or time";
}

std::vector<std::pair<std::string, const toml::value*>> ordered(const toml::value& table) {
  std::vector<std::pair<std::string, const toml::value*>> out;
  for (const auto& [k, v] : table.as_table()) out.emplace_back(k, &v);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const int la = line_of(*a.second), lb = line_of(*b.second);
    return la != lb ? la < lb : a.first < b.first;
  });
  return out;
}

void Loader::check_integers(const toml::value& v, const std::string& key) const {
  if (v.is_table()) {
    for (const auto& [k, x] : v.as_table()) check_integers(x, key.empty() ? k : key + "." + k);
    return;
  }
  if (v.is_array()) {
    for (const auto& x : v.as_array()) check_integers(x, key);
    return;
  }
  if (!v.is_integer()) return;
  // toml11 clamps an integer beyond 64 bits without a word: re-read its text from the source.
  const auto loc = v.location();
  if (loc.column() < 1 || loc.column() - 1 + loc.region() > loc.line_str().size()) return;
  std::string digits;
  for (char c : loc.line_str().substr(loc.column() - 1, loc.region()))
    if (c != '_' && c != '+') digits += c;
  int base = 10;
  std::size_t skip = 0;
  if (digits.size() > 2 && digits[0] == '0' &&
      std::isalpha(static_cast<unsigned char>(digits[1]))) {
    base = digits[1] == 'x' ? 16 : digits[1] == 'o' ? 8 : 2;
    skip = 2;
  }
  std::int64_t x = 0;
  const auto r = std::from_chars(digits.data() + skip, digits.data() + digits.size(), x, base);
  if (r.ec == std::errc::result_out_of_range)
    error(loc.line(), key, digits,
          "integer out of range: TOML integers are 64-bit (-9223372036854775808 to "
          "9223372036854775807)");
}

void Loader::check_keys(const toml::value& table, const std::string& where,
                        const std::vector<std::string>& allowed) const {
  for (const auto& [k, v] : table.as_table()) {
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    const std::string near = nearest(k, allowed);
    error(line_of(v), where + k, show(v),
          fmt::format("unknown key{}; allowed here: {}",
                      near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near),
                      fmt::join(allowed, ", ")));
  }
}

Value Loader::convert(const toml::value& v, const ParamSpec& spec, const std::string& key) const {
  auto range_check = [&](double x) {
    if (x < spec.min || x > spec.max) {
      std::string want;
      const auto num = [&](double b) {
        return spec.kind == ParamKind::duration ? format_duration(b) : fmt::format("{}", b);
      };
      if (std::isfinite(spec.min) && std::isfinite(spec.max))
        want = fmt::format("must be between {} and {}", num(spec.min), num(spec.max));
      else if (std::isfinite(spec.min))
        want = fmt::format("must be >= {}", num(spec.min));
      else
        want = fmt::format("must be <= {}", num(spec.max));
      error_at(v, key, want);
    }
  };
  switch (spec.kind) {
    case ParamKind::integer: {
      if (!v.is_integer())
        error_at(v, key, fmt::format("expected an integer, got {}", type_name(v)));
      range_check(static_cast<double>(v.as_integer()));
      return static_cast<std::int64_t>(v.as_integer());
    }
    case ParamKind::real: {
      if (!v.is_floating() && !v.is_integer())
        error_at(v, key, fmt::format("expected a number, got {}", type_name(v)));
      const double x = v.is_floating() ? v.as_floating() : static_cast<double>(v.as_integer());
      if (!std::isfinite(x)) error_at(v, key, "expected a finite number");
      range_check(x);
      return x;
    }
    case ParamKind::duration: {
      double s = 0;
      if (v.is_string()) {
        try {
          s = parse_duration_s(v.as_string().str);
        } catch (const InputError& e) {
          error_at(v, key, e.expected());
        }
      } else if (v.is_integer() || v.is_floating()) {
        s = v.is_floating() ? v.as_floating() : static_cast<double>(v.as_integer());
      } else {
        error_at(v, key, fmt::format("expected a duration such as \"5min\", got {}", type_name(v)));
      }
      if (!std::isfinite(s)) error_at(v, key, "expected a finite duration");
      range_check(s);
      return s;
    }
    case ParamKind::string: {
      if (!v.is_string()) error_at(v, key, fmt::format("expected a string, got {}", type_name(v)));
      const std::string& s = v.as_string().str;
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end()) {
        const std::string near = nearest(s, spec.choices);
        error_at(v, key,
                 fmt::format("expected one of {}{}", fmt::join(spec.choices, ", "),
                             near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near)));
      }
      return s;
    }
    case ParamKind::boolean:
      if (!v.is_boolean())
        error_at(v, key, fmt::format("expected true or false, got {}", type_name(v)));
      return v.as_boolean();
    case ParamKind::path: {
      if (!v.is_string() || v.as_string().str.empty())
        error_at(v, key, "expected a file or folder path (relative to the job file's folder)");
      const std::filesystem::path p(v.as_string().str);
      const std::filesystem::path full = p.is_absolute() ? p : job_.base_dir / p;
      std::error_code ec;
      if (!std::filesystem::exists(full, ec))
        error_at(v, key, fmt::format("no such file or folder (looked for {})", full.string()));
      if (std::filesystem::is_regular_file(full, ec) && !std::ifstream(full).good())
        error_at(v, key, fmt::format("cannot read {}", full.string()));
      return v.as_string().str;
    }
    case ParamKind::dist:
    case ParamKind::table:
      break;
  }
  FS_CHECK(false, "convert() is not for dist or table parameters");
}

Value dist_field(const Loader*, const toml::value& v) {
  if (v.is_string()) return parse_duration_s(v.as_string().str);
  if (v.is_integer()) return static_cast<double>(v.as_integer());
  if (v.is_floating()) return v.as_floating();
  throw InputError("", show(v), "expected a number or a duration such as \"70min\"");
}

Value Loader::table_field(const ParamSpec& spec, const std::string& sub, const toml::value& v,
                          const std::string& where) const {
  const bool duration = std::find(spec.duration_keys.begin(), spec.duration_keys.end(), sub) !=
                        spec.duration_keys.end();
  if (duration) {
    ParamSpec d;
    d.name = sub;
    d.kind = ParamKind::duration;
    d.min = 0;
    return convert(v, d, where);
  }
  if (v.is_string()) return v.as_string().str;
  if (v.is_integer()) return static_cast<std::int64_t>(v.as_integer());
  if (v.is_floating()) {
    if (!std::isfinite(v.as_floating())) error_at(v, where, "expected a finite number");
    return v.as_floating();
  }
  if (v.is_boolean()) return v.as_boolean();
  error_at(v, where, fmt::format("expected a string, number or boolean, got {}", type_name(v)));
}

std::vector<Value> Loader::axis_values(const toml::value& v, const ParamSpec& spec,
                                       const std::string& where) const {
  std::vector<Value> out;
  const bool dist_field_axis = spec.kind == ParamKind::dist;
  auto one = [&](const toml::value& x) -> Value {
    if (spec.kind == ParamKind::table) {
      const std::string sub = where.substr(where.rfind('.') + 1);
      return table_field(spec, sub, x, where);
    }
    if (!dist_field_axis) return convert(x, spec, where);
    try {
      if (x.is_string() && where.ends_with(".dist")) return x.as_string().str;
      return dist_field(this, x);
    } catch (const InputError& e) {
      error_at(x, where, e.expected());
    }
  };
  if (v.is_array()) {
    check_axis_size(v, where, v.as_array().size());
    for (const auto& x : v.as_array()) out.push_back(one(x));
  } else if (v.is_table()) {
    check_keys(v, where + ".", {"range", "step", "linear", "log", "n"});
    const bool has_range = v.contains("range"), has_lin = v.contains("linear"),
               has_log = v.contains("log");
    if (has_range + has_lin + has_log != 1)
      error_at(v, where,
               "expected exactly one of range = [lo, hi], linear = [lo, hi], log = [lo, hi]");
    const char* kind = has_range ? "range" : has_lin ? "linear" : "log";
    const toml::value& ends = v.at(kind);
    if (!ends.is_array() || ends.as_array().size() != 2)
      error_at(ends, where + "." + kind, "expected two values [lo, hi]");
    const Value lo = one(ends.as_array()[0]), hi = one(ends.as_array()[1]);
    const auto as_double = [](const Value& x) {
      if (const auto* d = std::get_if<double>(&x)) return *d;
      if (const auto* i = std::get_if<std::int64_t>(&x)) return static_cast<double>(*i);
      return std::nan("");
    };
    const double dlo = as_double(lo), dhi = as_double(hi);
    if (std::isnan(dlo) || std::isnan(dhi)) error_at(ends, where + "." + kind, "expected numbers");
    if (dhi < dlo) error_at(ends, where + "." + kind, "hi must be >= lo");
    if (has_range) {
      if (spec.kind != ParamKind::integer)
        error_at(v, where, "range = [lo, hi] is for integer parameters; use linear or log with n");
      std::int64_t step = 1;
      if (v.contains("step")) {
        const toml::value& s = v.at("step");
        if (!s.is_integer() || s.as_integer() < 1)
          error_at(s, where + ".step", "expected an integer >= 1");
        step = s.as_integer();
      }
      const std::int64_t ilo = std::get<std::int64_t>(lo), ihi = std::get<std::int64_t>(hi);
      check_axis_size(v, where, range_count(ilo, ihi, step));
      for (std::int64_t x : range_values(ilo, ihi, step)) out.push_back(x);
    } else {
      if (spec.kind == ParamKind::integer || spec.kind == ParamKind::string ||
          spec.kind == ParamKind::boolean || spec.kind == ParamKind::path)
        error_at(v, where, fmt::format("{} = [lo, hi] needs a real-valued parameter", kind));
      if (!v.contains("n") || !v.at("n").is_integer() || v.at("n").as_integer() < 1 ||
          v.at("n").as_integer() > 10000000)
        error_at(v, where + ".n", "required: the number of values, an integer from 1 to 10000000");
      if (has_log && dlo <= 0) error_at(ends, where + ".log", "log spacing needs lo > 0");
      const int n = static_cast<int>(v.at("n").as_integer());
      check_axis_size(v, where, static_cast<std::uint64_t>(n));
      for (double x : has_log ? log_values(dlo, dhi, n) : linear_values(dlo, dhi, n))
        out.push_back(x);
    }
  } else {
    error_at(v, where,
             "expected a list [..], or { range = [lo, hi] }, { linear = [lo, hi], n = N }, "
             "{ log = [lo, hi], n = N }, or { zip = { ... } }");
  }
  if (out.empty()) error_at(v, where, "an axis needs at least one value");
  return out;
}

void Loader::check_axis_size(const toml::value& v, const std::string& where,
                             std::uint64_t n) const {
  if (n > kMaxAxisValues)
    error_at(v, where, fmt::format("{} values; an axis may have at most {}", n, kMaxAxisValues));
  if (grid_size_checked({grid_points_, n}, max_points_) > max_points_)
    error_at(v, where,
             fmt::format("{} values would make the grid larger than {} points ({} points from "
                         "the axes before it); see docs/limits.md",
                         n, max_points_, grid_points_));
}

std::uint64_t sweep_memory_bytes(std::uint64_t points, std::uint64_t params_per_point,
                                 std::uint64_t tasks, std::uint64_t metrics) {
  // A parameter of a point (map node, key, value, canonical text written to /points/params)
  // is taken as 160 bytes: on GCC 12 / glibc, `check` of 10^6 synthetic points (3 parameters)
  // peaks at 396 MB, against 544 MB estimated. A task holds its metrics (f64 each) in the
  // result table, one more copy of a metric column while the file is written, and a byte.
  return points * (64 + 160 * params_per_point) + tasks * (8 * metrics + 9);
}

void Loader::check_memory(std::uint64_t points) const {
  const std::uint64_t R = static_cast<std::uint64_t>(job_.replicas.max);
  if (points > kMaxTasks / R)
    throw InputError(
        fmt::format("{}: {} points x {} replicas = {} tasks; a sweep may have at "
                    "most {} tasks (see docs/limits.md)",
                    file_, points, R, points * R, kMaxTasks));
  const std::uint64_t keys = job_.fixed.values().size() + job_.axes.size(),
                      need = sweep_memory_bytes(points, keys, points * R, job_.metric_count()),
                      have = physical_memory_bytes();
  if (have > 0 && need > have / 2)
    throw InputError(fmt::format(
        "{}: the sweep needs about {:.3g} GB of memory ({} points x {} parameters, {} tasks x {} "
        "metrics) and this machine has {:.3g} GB; at most half of it may be used: split the sweep "
        "into several jobs (see docs/limits.md)",
        file_, need / 1e9, points, keys, points * R, job_.metric_count(), have / 1e9));
}

AxisMember Loader::make_member(const std::string& key, const toml::value& v,
                               const std::string& where) {
  const std::string base = key.substr(0, key.find('.'));
  const ParamSpec* spec = find_spec(base);
  const bool dotted = key.find('.') != std::string::npos;
  // A field of a Python policy's table is swept like a table's field.
  ParamSpec python_table;
  if (spec && spec->python && key.find('.') != std::string::npos) {
    python_table = *spec;
    python_table.kind = ParamKind::table;
    spec = &python_table;
  }
  const bool is_table = spec && (spec->kind == ParamKind::dist || spec->kind == ParamKind::table);
  if (!spec || dotted != is_table) {
    std::vector<std::string> names;
    for (const ParamSpec& s : job_.model->params())
      names.push_back(s.kind == ParamKind::dist || s.kind == ParamKind::table ? s.name + ".<field>"
                                                                              : s.name);
    const std::string near = nearest(key, names);
    error_at(v, where,
             fmt::format("not a parameter of model {}{} (a distribution is swept by one field, "
                         "e.g. failures.shape); its parameters: {}",
                         job_.model->name(),
                         near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near),
                         fmt::join(names, ", ")));
  }
  if (job_.fixed.has(key) || axis_lines_.count(key))
    error_at(v, where, "this parameter is set twice (in [params] and [axes], or in two axes)");
  AxisMember m;
  m.key = key;
  m.line = line_of(v);
  m.values = axis_values(v, *spec, where);
  const std::string field = dotted ? key.substr(key.find('.') + 1) : "";
  const bool time_field = spec->kind == ParamKind::table
                              ? std::find(spec->duration_keys.begin(), spec->duration_keys.end(),
                                          field) != spec->duration_keys.end()
                              : dotted && field != "dist" && field != "shape" && field != "sigma" &&
                                    field != "rate" && field != "mu";
  m.units = spec->kind == ParamKind::duration || time_field ? "s"
            : spec->unit.empty()                            ? "1"
                                                            : spec->unit;
  axis_lines_[key] = m.line;
  return m;
}

}  // namespace faultsweep::sweep::detail
