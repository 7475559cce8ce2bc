#pragma once
// The system description both Plank & Thomason models share: N, a, C, L, R, MTTF, MTTR and the
// failure-free running time, either named by `app` and `env` (Tables 1-3, read from the folder
// `plank_inputs`) or given explicitly. Explicit values override table values.
//
// Parameters (job-file keys), all optional individually:
//   plank_inputs  path      folder holding apps.toml and environments.toml (relative to the job)
//   app           string    application name in apps.toml (BT, LU, EP)
//   env           string    environment name in environments.toml (HIGH, MEDIUM, LOW)
//   N             integer   processors (default: the environment's N, else 32)
//   C, L, R       duration  checkpoint overhead, latency, recovery (default: from app + env)
//   mttf, mttr    duration  mean time to failure / repair of one processor (default: from env)
#include <filesystem>
#include <optional>
#include <vector>

#include "faultsweep/avail/plank_inputs.hpp"

#include "faultsweep/core/param_spec.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::avail {

struct PlankSystem {
  int N = 32;
  double C_s = 0, L_s = 0, R_s = 0;
  double mttf_s = 0, mttr_s = 0;
  double runtime_s = 0;  // RT_a of the app (Eq. 6); NaN without an app
};

// The ParamSpecs above, to be appended to a model's own.
std::vector<ParamSpec> plank_system_param_specs();

// Resolves the system for `a` active processors. Throws InputError naming the key when something
// needed is missing (e.g. "C: required when no app is given") or unknown (app not in the table).
// Tables are cached per file path, so calling this per task is cheap.
PlankSystem resolve_plank_system(const Params& p, const std::filesystem::path& base_dir, int a);

// The same in two steps, for callers that need the system for many a (e.g. optimising a): the
// constructor reads the tables and checks everything that does not depend on a; at(a) is cheap.
class PlankSystemResolver {
 public:
  PlankSystemResolver(const Params& p, const std::filesystem::path& base_dir);
  int N() const { return N_; }
  bool has_app() const { return app_.has_value(); }
  PlankSystem at(int a) const;

 private:
  std::optional<PlankApp> app_;
  std::optional<PlankEnv> env_;
  int N_ = 32;
  std::optional<double> C_s_, L_s_, R_s_;
  double mttf_s_ = 0, mttr_s_ = 0;
};

}  // namespace faultsweep::avail
