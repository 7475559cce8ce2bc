#pragma once
// A model declares its parameters and metrics and a run function; the framework does the rest
// (parsing, validation, sweeping, replication, randomness, storage, summaries, resume).
// Adding a model means one new file in src/models/ and one line in registry.cpp.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"

namespace faultsweep::models {

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
          // validates the sub-keys (unknown ones included) in validate().
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
  bool optional = false;                   // may be absent with no default (the model copes)
  std::vector<std::string> duration_keys;  // for ParamKind::table: sub-keys that are durations
};

struct MetricSpec {
  std::string name;
  std::string unit;  // stored as the `units` attribute; "1" for dimensionless
  std::string description;
};

// What a run may know besides its parameters: the seed, the replica, where relative paths start.
struct RunContext {
  std::uint64_t master_seed = 0;
  std::uint64_t replica = 0;
  std::filesystem::path base_dir;           // the job file's folder, for ParamKind::path
  const std::atomic<bool>* stop = nullptr;  // set on SIGTERM; long runs may poll it

  Engine stream(Purpose purpose, std::string_view config_text) const {
    return make_stream(master_seed, replica, purpose, config_text);
  }
  std::filesystem::path resolve(const std::string& path) const {
    const std::filesystem::path p(path);
    return p.is_absolute() ? p : base_dir / p;
  }
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual const std::vector<ParamSpec>& params() const = 0;
  virtual const std::vector<MetricSpec>& metrics() const = 0;
  // Deterministic models run exactly one replica per point.
  virtual bool deterministic() const = 0;
  // Checks that involve several parameters or input files (a <= N, I >= L, the app exists in
  // the table). Throws InputError naming one key. Called once per point at load time.
  virtual void validate(const Params& p, const std::filesystem::path& base_dir) const {
    (void)p, (void)base_dir;
  }
  // Relative cost of one replica, to hand out expensive tasks first. Any positive unit.
  virtual double cost(const Params& p, const std::filesystem::path& base_dir) const {
    (void)p, (void)base_dir;
    return 1.0;
  }
  // The input files the model reads for point p (resolved against base_dir), for provenance:
  // the results file stores the path, size and SHA-256 of each under /inputs. A folder stands
  // for the regular files in it. Default: the values of the ParamKind::path parameters; a model
  // that reads files named elsewhere (e.g. inside a table parameter) overrides it.
  virtual std::vector<std::filesystem::path> input_files(
      const Params& p, const std::filesystem::path& base_dir) const {
    std::vector<std::filesystem::path> out;
    for (const ParamSpec& s : params()) {
      if (s.kind != ParamKind::path || !p.has(s.name)) continue;
      const std::filesystem::path f(p.str(s.name));
      out.push_back(f.is_absolute() ? f : base_dir / f);
    }
    return out;
  }
  // One replica: writes one value per metric, in metrics() order, into out.
  virtual void run(const Params& p, const RunContext& ctx, std::span<double> out) const = 0;
};

}  // namespace faultsweep::models
