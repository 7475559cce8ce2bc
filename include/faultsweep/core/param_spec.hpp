#pragma once
// What a model declares about its inputs and outputs: one ParamSpec per job-file parameter and
// one MetricSpec per stored metric. They live in core/ (not models/) so that the areas a model
// is built from (avail/, workload/, failures/, ...) can contribute specs without including the
// models area; models/model.hpp re-exports them as models::ParamSpec etc.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "faultsweep/core/params.hpp"

namespace faultsweep {

enum class ParamKind {
  integer,   // TOML integer
  real,      // TOML float or integer
  duration,  // "90s", "5min", "2h", "3d" or a number of seconds; stored in seconds
  string,    // one of `choices` if given
  boolean,
  dist,   // an inline table, see dist/distribution.hpp; stored flattened as name.<key>
  path,   // a file path, relative to the job file's folder
  table,  // an inline table of strings, numbers and booleans, stored flattened as name.<key>;
          // sub-keys listed in `duration_keys` are durations (stored in seconds). The model
          // validates the sub-keys (unknown ones included) in validate(), e.g. with
          // core/table_reader.hpp.
};

struct ParamSpec;

// One choice of a selector key (e.g. process = "zhang" in a `failures` table): the sub-keys it
// allows besides the table's common ones. Lists the job-file reference of a registry row.
struct ChoiceSpec {
  std::string name;
  std::string help;
  std::vector<ParamSpec> keys;  // no default member initializer: ParamSpec is incomplete here
};

struct ParamSpec {
  std::string name;
  ParamKind kind;
  std::string unit;                    // "s" for durations, "" for dimensionless
  std::optional<Value> default_value;  // nullopt: required (unless `optional` is set)
  double min = -std::numeric_limits<double>::infinity();  // inclusive bounds for numbers
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;  // allowed strings, if restricted
  std::string help;
  bool optional = false;                     // may be absent with no default (the model copes)
  std::vector<std::string> duration_keys{};  // for ParamKind::table: sub-keys that are durations
  // For ParamKind::string (a policy's name): also accepts an inline table naming a Python class,
  // { python = "file.py", class = "Name", ... }, stored flattened as name.<key> like a table.
  bool python = false;
  // For ParamKind::table: its sub-keys (for the reference; the model validates them). For a
  // selector string (a sub-key like `process`): per choice, the further keys it allows.
  std::vector<ParamSpec> keys{};
  std::vector<ChoiceSpec> choice_keys{};
};

// A ParamSpec in one call (the models' parameter tables): nullopt `def` = required.
inline ParamSpec make_param(std::string name, ParamKind kind, std::string unit,
                            std::optional<Value> def, std::string help,
                            std::vector<std::string> choices = {},
                            double min = -std::numeric_limits<double>::infinity()) {
  ParamSpec s;
  s.name = std::move(name);
  s.kind = kind;
  s.unit = std::move(unit);
  s.default_value = std::move(def);
  s.help = std::move(help);
  s.choices = std::move(choices);
  s.min = min;
  return s;
}

// An optional settings table (a plug-in's own sub-table): its help and the sub-keys that are
// durations.
inline ParamSpec make_table_param(std::string name, std::string help,
                                  std::vector<std::string> duration_keys) {
  ParamSpec s = make_param(std::move(name), ParamKind::table, "", std::nullopt, std::move(help));
  s.optional = true;
  s.duration_keys = std::move(duration_keys);
  return s;
}

// The names of the duration keys among `keys` and the keys of their choices (each once, in
// order): a table's ParamSpec::duration_keys derived from its sub-keys.
inline void collect_duration_keys(const std::vector<ParamSpec>& keys,
                                  std::vector<std::string>& out) {
  for (const ParamSpec& k : keys) {
    if (k.kind == ParamKind::duration && std::find(out.begin(), out.end(), k.name) == out.end())
      out.push_back(k.name);
    for (const ChoiceSpec& c : k.choice_keys) collect_duration_keys(c.keys, out);
  }
}

// The sub-key names a table's spec declares (its keys, then its choices' keys, each once).
inline std::vector<std::string> table_key_names(const ParamSpec& table) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const ParamSpec& k : table.keys) {
    add(k.name);
    for (const ChoiceSpec& c : k.choice_keys)
      for (const ParamSpec& sub : c.keys) add(sub.name);
  }
  return out;
}

// A table parameter whose sub-keys are declared (its duration keys derived from them).
inline ParamSpec make_table_param(std::string name, std::string help, std::vector<ParamSpec> keys) {
  std::vector<std::string> durations;
  collect_duration_keys(keys, durations);
  ParamSpec s = make_table_param(std::move(name), std::move(help), std::move(durations));
  s.keys = std::move(keys);
  return s;
}

struct MetricSpec {
  std::string name;
  std::string unit;  // stored as the `units` attribute; "1" for dimensionless
  std::string description;
};

}  // namespace faultsweep
