#pragma once
// A model declares its parameters and metrics and a run function; the framework does the rest
// (parsing, validation, sweeping, replication, randomness, storage, summaries, resume).
// Adding a model means one new file in src/models/ and one line in registry.cpp.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "faultsweep/core/input_reading.hpp"
#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"

namespace faultsweep::models {

// ParamSpec, ParamKind, MetricSpec and RunContext live in core/ (param_spec.hpp,
// run_context.hpp) so that lower areas need not include this header; the models area keeps
// its historical names for them.
using faultsweep::MetricSpec;
using faultsweep::ParamKind;
using faultsweep::ParamSpec;
using faultsweep::RunContext;

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual const std::vector<ParamSpec>& params() const = 0;
  virtual const std::vector<MetricSpec>& metrics() const = 0;
  // Deterministic models run exactly one replica per point.
  virtual bool deterministic() const = 0;
  // Whether run() keeps records when its RunContext asks for them (sim/records.hpp).
  virtual bool keeps_records() const { return false; }
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
  // What the model's input readers kept, dropped or changed in each file it reads for point p
  // (stored under /inputs/<i>/read/<j>). Default: nothing to report. Called once per point on
  // rank 0 after validate(); a reader's parse is expected to be cached by then.
  virtual std::vector<InputReading> input_readings(const Params& p,
                                                   const std::filesystem::path& base_dir) const {
    (void)p, (void)base_dir;
    return {};
  }
  // Jobs one replica of point p keeps records of (a model that keeps records says it; an
  // estimate: the job loader sizes a records selection by it before anything runs).
  virtual double record_jobs(const Params& p, const std::filesystem::path& base_dir) const {
    (void)p, (void)base_dir;
    return 0;
  }
  // p with the default of every parameter it does not set (as the job loader fills a job
  // file's fixed parameters; a table parameter counts as set when p has any of its fields).
  // For points built by hand (tests, benchmarks).
  Params with_defaults(Params p) const {
    for (const ParamSpec& s : params())
      if (s.default_value && !p.has(s.name) && p.sub(s.name).values().empty())
        p.set(s.name, *s.default_value);
    return p;
  }
  // One replica: writes one value per metric, in metrics() order, into out.
  virtual void run(const Params& p, const RunContext& ctx, std::span<double> out) const = 0;
};

}  // namespace faultsweep::models
