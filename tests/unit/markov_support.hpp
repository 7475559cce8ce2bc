#pragma once
// Plank & Thomason's Table 2 cases from inputs/plank and the markov_availability model run as a
// sweep would run it, shared by the chain's tests and the model's.
#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <string>

#include "faultsweep/avail/plank_inputs.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/markov_availability.hpp"

namespace faultsweep::testing {

inline const std::filesystem::path kSource = FAULTSWEEP_SOURCE_DIR;
inline const std::filesystem::path kInputs = kSource / "inputs" / "plank";

struct Case {
  avail::PlankApp app;
  avail::PlankEnv env;
};

inline Case plank_case(const std::string& app, const std::string& env) {
  Case c;
  for (const auto& x : avail::load_plank_apps(kInputs / "apps.toml"))
    if (x.name == app) c.app = x;
  for (const auto& x : avail::load_plank_envs(kInputs / "environments.toml"))
    if (x.name == env) c.env = x;
  REQUIRE(c.app.name == app);
  REQUIRE(c.env.name == env);
  return c;
}

// Runs the model as a sweep would (metrics in declaration order).
inline std::array<double, 6> run_model(Params p) {
  const models::MarkovAvailability model;
  p.set("plank_inputs", kInputs.string());
  model.validate(p, kSource);
  models::RunContext ctx;
  ctx.base_dir = kSource;
  std::array<double, 6> out{};
  model.run(p, ctx, out);
  return out;
}

inline std::array<double, 6> table4_row(const std::string& app, const std::string& env) {
  Params p;
  p.set("app", app);
  p.set("env", env);
  p.set("mode", std::string("optimize"));
  return run_model(p);
}

}  // namespace faultsweep::testing
